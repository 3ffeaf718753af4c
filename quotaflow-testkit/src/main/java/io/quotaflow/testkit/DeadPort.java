package io.quotaflow.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A port on 127.0.0.1 where nothing listens, held for as long as it is open: a TCP socket bound to it
 * but not listening, so a connection to it is refused, and no other socket (another test's server
 * binding port 0 meanwhile) can take it. A port found free by opening and closing a server socket
 * first could be taken by a parallel test before it is used.
 */
public final class DeadPort implements AutoCloseable {

    private final Socket socket;

    private DeadPort(Socket socket) {
        this.socket = socket;
    }

    /** Binds a free port on the loopback interface, without listening. */
    public static DeadPort open() {
        Socket s = new Socket();
        try {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return new DeadPort(s);
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new UncheckedIOException("could not bind a port on the loopback interface", e);
        }
    }

    public int port() {
        return socket.getLocalPort();
    }

    /** {@code http://127.0.0.1:<port>} followed by {@code path}. */
    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.quotaflow.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A one-connection-at-a-time HTTP/1.1 server over a plain socket, for answers no well-behaved server sends:
 * headers then half a body then nothing, no headers at all, a body without end. It tells when the client
 * closed a connection (a read or a write on it failing or ending), which is what a bounded call must do.
 */
public final class RawHttpServer implements AutoCloseable {

    /** What the server does with one accepted connection, its request read up to the blank line. */
    @FunctionalInterface
    public interface Script {
        void run(OutputStream out) throws IOException;
    }

    /** Headers of a 200 JSON answer announcing {@code length} bytes ({@code -1}: chunked). */
    public static byte[] okHeaders(long length) {
        String framing = length < 0 ? "Transfer-Encoding: chunked" : "Content-Length: " + length;
        return ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + framing + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private final ServerSocket socket;
    private final Thread acceptor;
    private final CountDownLatch closedByClient = new CountDownLatch(1);
    private final AtomicInteger accepted = new AtomicInteger();

    public RawHttpServer(Script script) throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(() -> serve(script), "raw-http-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort() + path);
    }

    /** Whether a client closed a connection within {@code timeoutMs}. */
    public boolean awaitClosedByClient(long timeoutMs) throws InterruptedException {
        return closedByClient.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    public int accepted() {
        return accepted.get();
    }

    private void serve(Script script) {
        while (!socket.isClosed()) {
            try (Socket s = socket.accept()) {
                accepted.incrementAndGet();
                InputStream in = s.getInputStream();
                readRequestHead(in);
                try {
                    script.run(s.getOutputStream());
                    s.getOutputStream().flush();
                    // hold the connection until the client closes it: a read ends (-1) or fails (reset)
                    s.setSoTimeout(30_000);
                    while (in.read() >= 0) {
                        // a request body or a next request: ignored
                    }
                    closedByClient.countDown();
                } catch (java.net.SocketTimeoutException stillOpen) {
                    // the client held the connection for 30 s: not closed
                } catch (IOException writeOrReadFailed) {
                    closedByClient.countDown();
                }
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void readRequestHead(InputStream in) throws IOException {
        int state = 0;
        int b;
        // up to and with the blank line ending the head: \r\n\r\n
        while (state < 4 && (b = in.read()) >= 0) {
            state = (b == '\r' && state % 2 == 0) || (b == '\n' && state % 2 == 1) ? state + 1 : 0;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

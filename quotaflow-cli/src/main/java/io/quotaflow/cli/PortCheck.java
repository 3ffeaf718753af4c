package io.quotaflow.cli;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Whether a TCP port can be listened on, asked before a command starts so "in use" is one clear line. */
final class PortCheck {

    /** What the check found. */
    sealed interface Result permits Free, InUse {
    }

    /** The port can be bound (or none is needed: 0 picks a free one, -1 is off). */
    record Free(int port) implements Result {
    }

    /** Something else listens on the port. */
    record InUse(int port) implements Result {
    }

    private PortCheck() {
    }

    static Result check(int port) {
        if (port <= 0) {
            return new Free(port);
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(port));
            return new Free(port);
        } catch (BindException e) {
            return new InUse(port);
        } catch (IOException e) {
            // not a clear "in use": let the server report it when it starts
            return new Free(port);
        }
    }
}

package io.quotaflow.llm;

import javax.net.ssl.SSLException;
import java.io.EOFException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Locale;

/**
 * Names why an HTTP exchange with a provider got no answer, in the words an operator acts on:
 * {@code connection refused}, {@code connect timeout}, {@code timeout}, {@code DNS: cannot resolve the
 * host}, {@code TLS: …}, {@code connection closed}. Pure; the text never holds a request's headers.
 */
public final class TransportCause {

    /** No answer within the request's timeout after the connection was made: the provider may be slow, not gone. */
    public static final String TIMEOUT = "timeout";
    public static final String CONNECTION_REFUSED = "connection refused";
    public static final String CONNECT_TIMEOUT = "connect timeout";
    public static final String DNS = "DNS: cannot resolve the host";
    public static final String CLOSED = "connection closed by the server";

    private TransportCause() {
    }

    /** The cause of {@code error} (the exception an HTTP client completed with, wrapped or not). */
    public static String of(Throwable error) {
        String typed = null;
        String worded = null;
        boolean connect = false;
        for (Throwable t = error; t != null && typed == null; t = t.getCause() == t ? null : t.getCause()) {
            typed = typed(t);
            worded = worded == null ? worded(t) : worded;
            connect |= t instanceof ConnectException;
        }
        if (typed != null) {
            return typed;
        }
        if (worded != null) {
            return worded;
        }
        // the JDK's client says nothing more for a port nobody listens on
        return connect ? CONNECTION_REFUSED : "connection error: " + oneLine(error);
    }

    /** The cause the exception's type names, or null. */
    private static String typed(Throwable t) {
        if (t instanceof HttpConnectTimeoutException) {
            return CONNECT_TIMEOUT;
        }
        if (t instanceof HttpTimeoutException) {
            return TIMEOUT;
        }
        if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
            return DNS;
        }
        return t instanceof SSLException ? "TLS: " + oneLine(t) : null;
    }

    /** The cause the exception's message names, or null. */
    private static String worded(Throwable t) {
        String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
        if (m.contains("refused")) {
            return CONNECTION_REFUSED;
        }
        return t instanceof EOFException || m.contains("closed") || m.contains("reset") ? CLOSED : null;
    }

    /**
     * Whether {@code cause}, on a real call, means the provider could not be reached at all: every cause but
     * a request {@link #TIMEOUT} (a slow answer) and a connection the server {@link #CLOSED} (a reset or
     * an HTTP/2 GOAWAY among answered calls), which the retries and the circuit handle.
     */
    public static boolean unreachable(String cause) {
        return cause != null && !TIMEOUT.equals(cause) && !CLOSED.equals(cause);
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName() : t.getMessage();
        m = m.replaceAll("\\s+", " ").strip();
        return m.length() > 160 ? m.substring(0, 160) + "..." : m;
    }
}

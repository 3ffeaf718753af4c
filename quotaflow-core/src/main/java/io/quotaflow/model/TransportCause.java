package io.quotaflow.model;

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
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof HttpConnectTimeoutException) {
                return CONNECT_TIMEOUT;
            }
            if (t instanceof HttpTimeoutException) {
                return TIMEOUT;
            }
            if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
                return DNS;
            }
            if (t instanceof SSLException) {
                return "TLS: " + oneLine(t);
            }
        }
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String m = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
            if (m.contains("refused")) {
                return CONNECTION_REFUSED;
            }
            if (t instanceof EOFException || m.contains("closed") || m.contains("reset")) {
                return CLOSED;
            }
        }
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException) {
                // the JDK's client says nothing more for a port nobody listens on
                return CONNECTION_REFUSED;
            }
        }
        return "connection error: " + oneLine(error);
    }

    /** Whether {@code cause} means the provider could not be reached at all (every cause but a request {@link #TIMEOUT}). */
    public static boolean unreachable(String cause) {
        return cause != null && !TIMEOUT.equals(cause);
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage() == null || t.getMessage().isBlank() ? t.getClass().getSimpleName() : t.getMessage();
        m = m.replaceAll("\\s+", " ").strip();
        return m.length() > 160 ? m.substring(0, 160) + "..." : m;
    }
}

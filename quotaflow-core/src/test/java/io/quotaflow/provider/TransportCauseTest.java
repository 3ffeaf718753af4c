package io.quotaflow.provider;

import io.quotaflow.llm.TransportCause;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLHandshakeException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

/** Why an HTTP exchange got no answer, as the JDK client reports it. */
class TransportCauseTest {

    private static <T extends Throwable> T causedBy(T error, Throwable cause) {
        error.initCause(cause);
        return error;
    }

    @Test
    void shouldNameARefusedConnectionHoweverTheClientWrapsIt() {
        assertThat(TransportCause.of(new CompletionException(causedBy(new ConnectException(), new ConnectException("Connection refused")))))
                .isEqualTo("connection refused");
        assertThat(TransportCause.of(new ConnectException())).as("the JDK's message-less refusal").isEqualTo("connection refused");
    }

    @Test
    void shouldTellAConnectTimeoutFromARequestTimeout() {
        assertThat(TransportCause.of(new HttpConnectTimeoutException("HTTP connect timed out"))).isEqualTo("connect timeout");
        assertThat(TransportCause.of(new HttpTimeoutException("request timed out"))).isEqualTo("timeout");
        assertThat(TransportCause.unreachable(TransportCause.TIMEOUT)).as("a slow provider is not an unreachable one").isFalse();
        assertThat(TransportCause.unreachable(TransportCause.CONNECT_TIMEOUT)).isTrue();
    }

    @Test
    void shouldNameDnsAndTls() {
        assertThat(TransportCause.of(causedBy(new ConnectException(), new UnresolvedAddressException())))
                .isEqualTo("DNS: cannot resolve the host");
        assertThat(TransportCause.of(new CompletionException(new SSLHandshakeException("PKIX path building failed"))))
                .isEqualTo("TLS: PKIX path building failed");
    }

    @Test
    void shouldNameAClosedConnectionAndKeepAnythingElseShort() {
        assertThat(TransportCause.of(new IOException("Connection reset"))).isEqualTo("connection closed by the server");
        assertThat(TransportCause.unreachable(TransportCause.CLOSED)).as("a reset among answered calls is not an unreachable provider")
                .isFalse();
        assertThat(TransportCause.of(new IOException("x".repeat(500)))).startsWith("connection error: ").hasSizeLessThan(200);
    }
}

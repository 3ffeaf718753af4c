package io.quotaflow.http.server;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.metrics.MeteredRoute;
import io.quotaflow.metrics.PipelineMetrics;
import io.quotaflow.settings.HttpSettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TestCertificates;
import io.quotaflow.settings.TlsIdentity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The bearer token of {@code http.auth-token-file}, HTTPS of {@code http.tls.*}, and the idle timeout. */
class StatusServerSecurityTest {

    private static final String TOKEN = "t0k3n-for-tests-0123456789abcdef";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PipelineMetrics metrics = new PipelineMetrics(registry, new MeteredRoute("default", "scope-5ec5", 500, 200_000));
    private StatusServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        registry.close();
    }

    private StatusServer start(HttpSettings http) throws IOException {
        server = new StatusServer("127.0.0.1", 0, registry, metrics, new StatusServerStallTest.RunningProbe(), null, http);
        return server;
    }

    private static HttpResponse<String> send(HttpClient client, String method, String url, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void shouldRequireTheTokenOnStatusAndTicketsAndLeaveProbesAndMetricsOpen() throws Exception {
        String root = "http://127.0.0.1:" + start(HttpSettings.DEFAULT.withAuthToken(Secret.of(TOKEN))).port();
        HttpClient http = HttpClient.newHttpClient();

        for (String path : List.of("/status", "/tickets/T-1", "/tickets/T-1?local=true")) {
            for (String method : List.of("GET", "HEAD")) {
                HttpResponse<String> none = send(http, method, root + path, null);
                assertThat(none.statusCode()).as(method + " " + path + " without a token").isEqualTo(401);
                assertThat(none.headers().firstValue("WWW-Authenticate")).as(path).contains("Bearer realm=\"quotaflow\"");
                HttpResponse<String> wrong = send(http, method, root + path, "Bearer " + TOKEN.substring(1) + "x");
                assertThat(wrong.statusCode()).as(method + " " + path + " with another token").isEqualTo(401);
                assertThat(wrong.headers().firstValue("WWW-Authenticate")).as(path).hasValueSatisfying(v -> assertThat(v)
                        .contains("error=\"invalid_token\""));
                assertThat(wrong.body()).doesNotContain(TOKEN);
                assertThat(send(http, method, root + path, "Basic " + TOKEN).statusCode()).as("not a bearer token").isEqualTo(401);
                assertThat(send(http, method, root + path, "Bearer " + TOKEN).statusCode()).as(method + " " + path).isEqualTo(200);
                assertThat(send(http, method, root + path, "bearer " + TOKEN).statusCode()).as("the scheme is case-blind").isEqualTo(200);
            }
        }
        for (String path : List.of("/health/live", "/health/ready", "/health", "/metrics")) {
            assertThat(send(http, "GET", root + path, null).statusCode()).as(path + " stays open").isEqualTo(200);
        }
        assertThat(send(http, "GET", root + "/nowhere", null).statusCode()).isEqualTo(404);
    }

    @Test
    void shouldServeHttpsWithASelfSignedCertificateFromAKeystoreOrPem(@TempDir Path dir) throws Exception {
        TestCertificates.Files4 f = TestCertificates.generate(dir, "server", "EC");
        for (TlsIdentity identity : List.of(TlsIdentity.fromPkcs12(f.keystore(), Secret.of(TestCertificates.PASSWORD)),
                TlsIdentity.fromPem(f.certPem(), f.keyPem()))) {
            int port = start(HttpSettings.DEFAULT.withTls(identity).withAuthToken(Secret.of(TOKEN))).port();
            SSLContext trusting = identity.peerContext();
            HttpClient https = HttpClient.newBuilder().sslContext(trusting).build();

            for (String host : List.of("localhost", "127.0.0.1")) {
                assertThat(send(https, "GET", "https://" + host + ":" + port + "/health/live", null).statusCode()).as(host).isEqualTo(200);
            }
            assertThat(send(https, "HEAD", "https://localhost:" + port + "/metrics", null).statusCode()).isEqualTo(200);
            assertThat(send(https, "GET", "https://localhost:" + port + "/status", null).statusCode()).isEqualTo(401);
            assertThat(send(https, "GET", "https://localhost:" + port + "/status", "Bearer " + TOKEN).statusCode()).isEqualTo(200);
            assertThatThrownBy(() -> send(HttpClient.newHttpClient(), "GET", "https://localhost:" + port + "/health/live", null))
                    .as("a client that does not trust the certificate").isInstanceOf(IOException.class);
            HttpResponse<String> plain = null;
            try {
                plain = send(HttpClient.newHttpClient(), "GET", "http://localhost:" + port + "/health/live", null);
            } catch (IOException e) {
                // the TLS connector hung up on plain HTTP
            }
            assertThat(plain == null || plain.statusCode() != 200).as("plain HTTP gets no answer from the TLS port").isTrue();
            server.close();
            server = null;
        }
    }

    @Test
    void shouldCloseAConnectionThatStalledForTheIdleTimeout() throws Exception {
        int port = start(new HttpSettings(null, null, Duration.ofMillis(300), HttpSettings.DEFAULT_FORWARD_TIMEOUT)).port();
        try (Socket stalled = new Socket("127.0.0.1", port)) {
            stalled.setSoTimeout(5_000);
            stalled.getOutputStream().write('G');
            long start = System.nanoTime();
            int read;
            try {
                read = stalled.getInputStream().read();
                while (read >= 0) {
                    read = stalled.getInputStream().read();
                }
            } catch (SocketTimeoutException e) {
                read = -2;
            } catch (IOException e) {
                read = -1;
            }
            long waited = (System.nanoTime() - start) / 1_000_000;
            assertThat(read).as("the server closed the connection").isEqualTo(-1);
            assertThat(waited).as("ms until closed").isBetween(200L, 4_000L);
        }
        assertThat(StatusServerStallTest.get(port, "/health/live", 5_000).status()).isEqualTo(200);
    }
}

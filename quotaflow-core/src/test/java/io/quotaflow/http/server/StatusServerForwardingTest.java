package io.quotaflow.http.server;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.metrics.MeteredRoute;
import io.quotaflow.metrics.PipelineMetrics;
import io.quotaflow.settings.AccessTokens;
import io.quotaflow.settings.HttpSettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TestCertificates;
import io.quotaflow.settings.TlsIdentity;
import io.quotaflow.status.Caller;
import io.quotaflow.status.TicketAnswer;
import io.quotaflow.status.TicketForwarder;
import io.quotaflow.status.TicketLocator;
import io.quotaflow.status.TicketService;
import io.quotaflow.status.TicketState;
import io.quotaflow.status.TicketStatus;
import io.quotaflow.testkit.ManualTime;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /tickets/{id}} on an instance that does not know the ticket asks every other instance at
 * once, with one overall timeout, the token and (with TLS) HTTPS; a peer that never answers costs at
 * most that timeout, and never delays a probe.
 */
class StatusServerForwardingTest {

    private static final String ID = "acme/T-7";
    private static final String TOKEN = "forwarding-token-0123456789abcdef";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PipelineMetrics metrics = new PipelineMetrics(registry, new MeteredRoute("default", "scope-f0a1", 500, 200_000));
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        registry.close();
    }

    /** An instance that knows {@link #ID} (classified), answering as {@code http} says. */
    private int knowing(HttpSettings http) throws IOException {
        long now = System.currentTimeMillis();
        Map<String, TicketStatus> statuses = Map.of(ID, new TicketStatus(TicketState.CLASSIFIED, "default", "bulk", "acme", now, now, 0, null, now));
        TicketService service = new TicketService(new TicketLocator(id -> Optional.ofNullable(statuses.get(id)), metrics.tickets()),
                new TicketForwarder(List::of), new ManualTime(now));
        StatusServer peer = new StatusServer("127.0.0.1", 0, registry, metrics, new StatusServerStallTest.RunningProbe(), service, http);
        open.add(peer);
        return peer.port();
    }

    /** A peer that accepts connections and never says a word. */
    private int silent() throws IOException {
        ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        List<Socket> accepted = new ArrayList<>();
        Thread t = new Thread(() -> {
            try {
                while (true) {
                    accepted.add(socket.accept());
                }
            } catch (IOException e) {
                // closed
            }
        }, "silent-peer");
        t.setDaemon(true);
        t.start();
        open.add(() -> {
            socket.close();
            for (Socket s : accepted) {
                s.close();
            }
        });
        return socket.getLocalPort();
    }

    /** This instance: it knows no ticket and asks {@code peers}. */
    private StatusServer asking(List<Integer> peers, HttpSettings http) throws IOException {
        List<String> addresses = peers.stream().map(p -> "localhost:" + p).toList();
        TicketForwarder forwarder = new TicketForwarder(() -> addresses, http::identity, http.forwardTimeout(), Time.SYSTEM);
        TicketService service = new TicketService(new TicketLocator(id -> Optional.empty(), metrics.tickets()), forwarder,
                Time.SYSTEM);
        StatusServer server = new StatusServer("127.0.0.1", 0, registry, metrics, new StatusServerStallTest.RunningProbe(), service, http);
        open.add(server);
        return server;
    }

    @Test
    void shouldAnswerFromTheKnowingPeerWhileAnotherNeverAnswers() throws Exception {
        HttpSettings http = new HttpSettings(null, null, HttpSettings.DEFAULT_IDLE_TIMEOUT, Duration.ofSeconds(3));
        StatusServer server = asking(List.of(silent(), silent(), knowing(HttpSettings.DEFAULT)), http);

        long start = System.nanoTime();
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/tickets/acme%2FT-7")).GET().build(), HttpResponse.BodyHandlers.ofString());
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(r.body()).contains("\"classified\"", "\"acme/T-7\"");
        assertThat(ms).as("the knowing peer's answer does not wait for the silent ones (timeout 3 s)").isLessThan(2_500L);
    }

    @Test
    void shouldGiveUpOnSilentPeersAtTheOverallTimeoutWithoutDelayingProbes() throws Exception {
        HttpSettings http = new HttpSettings(null, null, HttpSettings.DEFAULT_IDLE_TIMEOUT, Duration.ofMillis(800));
        StatusServer server = asking(List.of(silent(), silent(), silent(), silent()), http);
        HttpClient client = HttpClient.newHttpClient();
        // class loading and JIT outside the measurement
        StatusServerStallTest.get(server.port(), "/health/live", 5_000);

        long start = System.nanoTime();
        var pending = client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/tickets/NOPE")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        StatusServerStallTest.Answer probe = StatusServerStallTest.get(server.port(), "/health/live", 5_000);
        HttpResponse<String> r = pending.get(10, TimeUnit.SECONDS);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(probe.status()).isEqualTo(200);
        assertThat(probe.millis()).as("probe while the look-up waits on the peers").isLessThan(1_000L);
        assertThat(r.body()).contains("\"unknown\"");
        assertThat(ms).as("four silent peers cost one timeout (800 ms), not four (3,200 ms and more)").isBetween(700L, 3_100L);
    }

    @Test
    void shouldForwardOverHttpsSignedForTheOperatorWhoseTokenAsked(@TempDir Path dir) throws Exception {
        TestCertificates.Files4 f = TestCertificates.generate(dir, "peers", "EC");
        HttpSettings http = HttpSettings.DEFAULT.withTls(TlsIdentity.fromPem(f.certPem(), f.keyPem())).withAuthToken(Secret.of(TOKEN));
        StatusServer server = asking(List.of(silent(), knowing(http)), http);
        HttpClient client = HttpClient.newBuilder().sslContext(http.tls().peerContext()).build();

        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/tickets/acme%2FT-7"))
                .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"classified\"");
        List<String> peer = List.of("localhost:" + knowing(http));
        TicketForwarder forwarder = new TicketForwarder(() -> peer, http::identity, Duration.ofSeconds(2), Time.SYSTEM);
        assertThat(forwarder.ask(ID)).as("a peer with a token refuses an unsigned question").isEmpty();
        assertThat(forwarder.ask(ID, new Caller("*", AccessTokens.digest("not-the-token-0123456789")))).as("signed with another key").isEmpty();
        assertThat(forwarder.ask(ID, new Caller("*", AccessTokens.digest(TOKEN)))).map(TicketAnswer::id).contains(ID);
    }
}

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
import io.quotaflow.status.HttpAccess;
import io.quotaflow.status.PeerSignature;
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
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-tenant access to the HTTP API ({@code http.tokens-file}): a tenant's token reads its own
 * tenant's tickets only, 404 for another's whether it exists or not (the check scenario: globex's
 * token gets 404 for {@code acme:1042}, acme's gets it), no token 401, {@code /status} for operator
 * tokens only (403), both files read again when they change, HTTPS with the configured and then the
 * rotated certificate, and forwarding over TLS signed for the caller's tenant, never with its token.
 */
class StatusServerTenantAccessTest {

    private static final String ACME = "acme-token-0123456789abcdef";
    private static final String GLOBEX = "globex-token-0123456789abcdef";
    private static final String OPERATOR = "operator-token-0123456789abcdef";
    private static final String LEGACY = "legacy-auth-token-0123456789abcdef";
    private static final String TOKENS = ACME + " acme\n" + GLOBEX + " globex\n# operators\n" + OPERATOR + " *\n";
    private static final String KEY = "acme:1042";

    @TempDir
    Path dir;

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PipelineMetrics metrics = new PipelineMetrics(registry, new MeteredRoute("default", "scope-7e4a", 500, 200_000));
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        registry.close();
    }

    private Path tokensFile(String text) throws IOException {
        return Files.writeString(dir.resolve("tokens"), text);
    }

    /** An instance that knows {@link #KEY} (acme's, classified) and asks nobody. */
    private StatusServer knowing(HttpSettings http, HttpAccess access) throws IOException {
        long now = System.currentTimeMillis();
        Map<String, TicketStatus> statuses = Map.of(KEY, new TicketStatus(TicketState.CLASSIFIED, "default", "bulk", "acme", now, now, 0, null, now));
        TicketService service = new TicketService(new TicketLocator(id -> Optional.ofNullable(statuses.get(id)), metrics.tickets()),
                new TicketForwarder(List::of), new ManualTime(now));
        StatusServer server = new StatusServer("127.0.0.1", 0, registry, metrics, new StatusServerStallTest.RunningProbe(), service, http,
                io.quotaflow.provider.RouteStateBoard.none(), access);
        open.add(server);
        return server;
    }

    private static HttpResponse<String> get(HttpClient client, String url, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void touch(Path file, long plusSeconds) throws IOException {
        Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + plusSeconds * 1000));
    }

    @Test
    void shouldAnswerATenantsTokenForItsOwnTicketsOnlyAnd404ForAnothersWhetherItExistsOrNot() throws Exception {
        HttpSettings http = HttpSettings.DEFAULT.withTokensFile(tokensFile(TOKENS));
        String base = "http://127.0.0.1:" + knowing(http, HttpAccess.of(http)).port();
        HttpClient client = HttpClient.newHttpClient();

        HttpResponse<String> acme = get(client, base + "/tickets/" + KEY, ACME);
        HttpResponse<String> globex = get(client, base + "/tickets/" + KEY, GLOBEX);
        HttpResponse<String> globexMissing = get(client, base + "/tickets/acme:9999", GLOBEX);

        assertThat(acme.statusCode()).isEqualTo(200);
        assertThat(acme.body()).contains("\"classified\"", "\"tenant\" : \"acme\"");
        assertThat(globex.statusCode()).isEqualTo(404);
        assertThat(globexMissing.statusCode()).isEqualTo(404);
        assertThat(globex.body()).as("an existing and a missing ticket of another tenant look the same").isEqualTo(globexMissing.body());
        assertThat(get(client, base + "/tickets/1042?tenant=acme", GLOBEX).statusCode()).as("the ?tenant= form").isEqualTo(404);
        assertThat(get(client, base + "/tickets/1042?tenant=acme", ACME).body()).contains("\"classified\"");
        assertThat(get(client, base + "/tickets/globex:7", GLOBEX).body()).as("its own, unknown ticket").contains("\"unknown\"");
        assertThat(get(client, base + "/tickets/" + KEY, OPERATOR).body()).contains("\"classified\"");
        HttpResponse<String> none = get(client, base + "/tickets/" + KEY, null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        assertThat(get(client, base + "/tickets/" + KEY, "not-a-known-token-0123456789").statusCode()).isEqualTo(401);
    }

    @Test
    void shouldServeStatusToOperatorTokensOnlyKeepTheAuthTokenAsAnOperatorsAndLeaveProbesAndMetricsOpen() throws Exception {
        HttpSettings http = HttpSettings.DEFAULT.withTokensFile(tokensFile(TOKENS)).withAuthToken(Secret.of(LEGACY));
        String base = "http://127.0.0.1:" + knowing(http, HttpAccess.of(http)).port();
        HttpClient client = HttpClient.newHttpClient();

        assertThat(get(client, base + "/status", OPERATOR).statusCode()).isEqualTo(200);
        assertThat(get(client, base + "/status", LEGACY).statusCode()).isEqualTo(200);
        assertThat(get(client, base + "/tickets/" + KEY, LEGACY).body()).contains("\"classified\"");
        HttpResponse<String> tenant = get(client, base + "/status", ACME);
        assertThat(tenant.statusCode()).isEqualTo(403);
        assertThat(tenant.body()).contains("operator");
        assertThat(get(client, base + "/status", null).statusCode()).isEqualTo(401);
        assertThat(get(client, base + "/metrics", null).statusCode()).isEqualTo(200);
        assertThat(get(client, base + "/health/live", null).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldReadTheTokensFileAgainWhenItChangesAndKeepTheOldTokensWhileItDoesNotParse() throws Exception {
        Path file = tokensFile(TOKENS);
        HttpSettings http = HttpSettings.DEFAULT.withTokensFile(file);
        HttpAccess access = HttpAccess.of(http);
        String base = "http://127.0.0.1:" + knowing(http, access).port();
        HttpClient client = HttpClient.newHttpClient();
        String rotated = "acme-rotated-0123456789abcdef";
        assertThat(access.check()).as("nothing changed").isFalse();

        Files.writeString(file, rotated + " acme\n" + OPERATOR + " *\n");
        touch(file, 10);
        assertThat(access.check()).isTrue();

        assertThat(get(client, base + "/tickets/" + KEY, ACME).statusCode()).as("the removed token").isEqualTo(401);
        assertThat(get(client, base + "/tickets/" + KEY, rotated).statusCode()).isEqualTo(200);
        Files.writeString(file, "half-written-line\n");
        touch(file, 20);
        assertThat(access.check()).isFalse();
        assertThat(get(client, base + "/tickets/" + KEY, rotated).statusCode()).as("still the last good file's").isEqualTo(200);
    }

    @Test
    void shouldServeHttpsWithTheConfiguredCertificateAndTheRotatedOneOnceItsFilesChange() throws Exception {
        TestCertificates.Files4 first = TestCertificates.generate(dir, "first", "EC");
        TestCertificates.Files4 second = TestCertificates.generate(dir, "second", "EC");
        Path cert = Files.copy(first.certPem(), dir.resolve("server.crt"));
        Path key = Files.copy(first.keyPem(), dir.resolve("server.key"));
        HttpSettings http = HttpSettings.DEFAULT.withTls(TlsIdentity.fromPem(cert, key));
        HttpAccess access = HttpAccess.of(http);
        int port = knowing(http, access).port();
        TlsIdentity trustsFirst = TlsIdentity.fromPem(first.certPem(), first.keyPem());
        TlsIdentity trustsSecond = TlsIdentity.fromPem(second.certPem(), second.keyPem());

        HttpResponse<String> before = get(HttpClient.newBuilder().sslContext(trustsFirst.peerContext()).build(),
                "https://localhost:" + port + "/health/live", null);
        Files.copy(second.certPem(), cert, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(second.keyPem(), key, StandardCopyOption.REPLACE_EXISTING);
        touch(cert, 10);
        touch(key, 10);
        assertThat(access.check()).isTrue();
        HttpResponse<String> after = get(HttpClient.newBuilder().sslContext(trustsSecond.peerContext()).build(),
                "https://localhost:" + port + "/health/live", null);

        assertThat(before.statusCode()).isEqualTo(200);
        assertThat(served(before)).isEqualTo(trustsFirst.chain().get(0));
        assertThat(after.statusCode()).isEqualTo(200);
        assertThat(served(after)).as("a new connection gets the rotated certificate").isEqualTo(trustsSecond.chain().get(0));
    }

    private static X509Certificate served(HttpResponse<?> response) throws Exception {
        return (X509Certificate) response.sslSession().orElseThrow().getPeerCertificates()[0];
    }

    @Test
    void shouldForwardOverTlsForTheCallersTenantAndLetThePeerApplyTheSameRule() throws Exception {
        TestCertificates.Files4 f = TestCertificates.generate(dir, "peers", "EC");
        HttpSettings http = HttpSettings.DEFAULT.withTokensFile(tokensFile(TOKENS)).withTls(TlsIdentity.fromPem(f.certPem(), f.keyPem()));
        List<String> peer = List.of("localhost:" + knowing(http, HttpAccess.of(http)).port());
        HttpAccess access = HttpAccess.of(http);
        TicketForwarder forwarder = new TicketForwarder(() -> peer, access, Duration.ofSeconds(3), Time.SYSTEM);
        TicketService service = new TicketService(new TicketLocator(id -> Optional.empty(), metrics.tickets()), forwarder, Time.SYSTEM);
        StatusServer asking = new StatusServer("127.0.0.1", 0, registry, metrics, new StatusServerStallTest.RunningProbe(), service, http,
                io.quotaflow.provider.RouteStateBoard.none(), access);
        open.add(asking);
        HttpClient client = HttpClient.newBuilder().sslContext(http.tls().peerContext()).build();
        String base = "https://localhost:" + asking.port();

        HttpResponse<String> acme = get(client, base + "/tickets/" + KEY, ACME);
        HttpResponse<String> globex = get(client, base + "/tickets/" + KEY, GLOBEX);

        assertThat(acme.statusCode()).isEqualTo(200);
        assertThat(acme.body()).as("the peer's answer, over TLS").contains("\"classified\"");
        assertThat(globex.statusCode()).isEqualTo(404);
        assertThat(forwarder.ask(KEY, new Caller("globex", AccessTokens.digest(GLOBEX)))).as("the peer's own check").isEmpty();
        assertThat(forwarder.ask(KEY, new Caller("acme", AccessTokens.digest(GLOBEX)))).as("acme's name, globex's key").isEmpty();
        assertThat(forwarder.ask(KEY, new Caller("acme", AccessTokens.digest(ACME)))).map(TicketAnswer::state).contains("classified");
    }

    @Test
    void shouldSignAForwardedQuestionForTheTenantWithoutSendingTheToken() throws Exception {
        ServerSocket socket = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        open.add(socket);
        CompletableFuture<String> request = CompletableFuture.supplyAsync(() -> {
            try (Socket s = socket.accept(); InputStream in = s.getInputStream()) {
                StringBuilder head = new StringBuilder();
                while (!head.toString().endsWith("\r\n\r\n")) {
                    int b = in.read();
                    if (b < 0) {
                        break;
                    }
                    head.append((char) b);
                }
                s.getOutputStream().write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                return head.toString();
            } catch (IOException e) {
                return "failed: " + e;
            }
        });
        TicketForwarder forwarder = new TicketForwarder(() -> List.of("127.0.0.1:" + socket.getLocalPort()));

        assertThat(forwarder.ask(KEY, new Caller("acme", AccessTokens.digest(ACME)))).isEmpty();
        String head = request.get(10, TimeUnit.SECONDS);

        assertThat(head).containsIgnoringCase(PeerSignature.TENANT + ": acme").containsIgnoringCase(PeerSignature.SIGNATURE + ":")
                .contains("local=true");
        assertThat(head).doesNotContain(ACME).doesNotContainIgnoringCase("Authorization");
    }
}

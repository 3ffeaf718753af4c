package io.quotaflow.http.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.dispatch.report.DispatcherSnapshot;
import io.quotaflow.metrics.MeteredRoute;
import io.quotaflow.metrics.PipelineMetrics;
import io.quotaflow.metrics.StreamsProbe;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.status.Eta;
import io.quotaflow.status.QueueView;
import io.quotaflow.status.TicketForwarder;
import io.quotaflow.status.TicketLocator;
import io.quotaflow.status.TicketPaths;
import io.quotaflow.status.TicketService;
import io.quotaflow.status.TicketState;
import io.quotaflow.status.TicketStatus;
import io.quotaflow.testkit.ManualTime;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StatusServerTest {

    private static final String SCOPE = "scope-9f8e";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PipelineMetrics metrics = new PipelineMetrics(registry, new MeteredRoute("default", SCOPE, 500, 200_000));
    private final HttpClient http = HttpClient.newHttpClient();
    private volatile KafkaStreams.State state = KafkaStreams.State.RUNNING;
    private StatusServer server;
    private StreamsProbe probe;

    @BeforeEach
    void start() throws IOException {
        probe = new StreamsProbe() {
            @Override
            public KafkaStreams.State state() {
                return state;
            }

            @Override
            public int aliveThreads() {
                return 1;
            }

            @Override
            public boolean wasRunning() {
                return true;
            }
        };
        server = new StatusServer("127.0.0.1", 0, registry, metrics, probe);
    }

    @AfterEach
    void stop() {
        server.close();
        registry.close();
    }

    private HttpResponse<String> request(String method, String path) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        b.method(method, List.of("GET", "HEAD", "DELETE", "OPTIONS").contains(method) ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString("{}"));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void shouldAnswerTheExactPathsOnly() throws Exception {
        for (String path : List.of("/metrics", "/health/live", "/health/ready", "/health", "/status")) {
            assertThat(request("GET", path).statusCode()).as(path).isEqualTo(200);
        }
        for (String path : List.of("/healthz", "/health/", "/health/live/x", "/metricsx", "/", "/status.json", "/tickets/", "/tickets/a/b")) {
            HttpResponse<String> r = request("GET", path);
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(r.body()).contains("/health/live", "/health/ready");
        }
    }

    @Test
    void shouldGzipTheMetricsPageOnlyForAClientThatAcceptsIt() throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + server.port() + "/metrics");
        HttpResponse<byte[]> plain = http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> zipped = http.send(HttpRequest.newBuilder(uri).header("Accept-Encoding", "gzip").GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> refused = http.send(HttpRequest.newBuilder(uri).header("Accept-Encoding", "gzip;q=0, identity").GET()
                .build(), HttpResponse.BodyHandlers.ofByteArray());

        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(refused.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(new String(plain.body(), java.nio.charset.StandardCharsets.UTF_8)).contains("# TYPE quotaflow_queue_depth gauge");
        assertThat(zipped.statusCode()).isEqualTo(200);
        assertThat(zipped.headers().firstValue("Content-Encoding")).contains("gzip");
        assertThat(zipped.headers().firstValue("Vary")).contains("Accept-Encoding");
        assertThat(zipped.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain; version=0.0.4"));
        try (java.util.zip.GZIPInputStream in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(zipped.body()))) {
            assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)).contains("# TYPE quotaflow_queue_depth gauge");
        }
        assertThat(zipped.body().length).isLessThan(plain.body().length / 3);
    }

    @Test
    void shouldAnswerOneTicketWithItsPositionAndEtaAndTheTailOfEachPriority() throws Exception {
        long now = System.currentTimeMillis();
        metrics.state(snapshot("RUNNING"));
        metrics.queue(new QueueView(SCOPE, List.of("default"), now, new Eta.Rates(100, 10, 1_000, true), List.of(
                new QueueView.Waiting("A", Priority.INTERACTIVE, 100), new QueueView.Waiting("acme:B", Priority.BULK, 200))));
        Map<String, TicketStatus> statuses = Map.of("acme:B", new TicketStatus(TicketState.PENDING, "default", "bulk", "acme", now, now, 0,
                null, now));
        TicketService tickets = new TicketService(new TicketLocator(id -> Optional.ofNullable(statuses.get(id)), metrics.tickets()),
                new TicketForwarder(List::of), new ManualTime(now));
        try (StatusServer withTickets = new StatusServer("127.0.0.1", 0, registry, metrics, probe, tickets)) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withTickets.port()
                    + "/tickets/B?tenant=acme")).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).contains("application/json");
            JsonNode b = Json.MAPPER.readTree(r.body());
            assertThat(b.get("id").asText()).isEqualTo("B");
            assertThat(b.get("state").asText()).isEqualTo("pending");
            assertThat(b.get("route").asText()).isEqualTo("default");
            assertThat(b.get("priority").asText()).isEqualTo("bulk");
            assertThat(b.get("tenant").asText()).isEqualTo("acme");
            assertThat(b.get("position").asInt()).isEqualTo(1);
            assertThat(Instant.parse(b.get("estimatedStartAt").asText()).toEpochMilli()).isEqualTo(now + 1_000);
            assertThat(Instant.parse(b.get("estimatedDoneAt").asText()).toEpochMilli()).isEqualTo(now + 2_000);

            JsonNode byKey = Json.MAPPER.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withTickets.port()
                    + "/tickets/acme:B")).GET().build(), HttpResponse.BodyHandlers.ofString()).body());
            assertThat(byKey).isEqualTo(b);
            JsonNode otherTenant = Json.MAPPER.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + withTickets.port() + "/tickets/B?tenant=globex&local=true")).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertThat(otherTenant.get("state").asText()).as("another tenant's B is another ticket").isEqualTo("unknown");
            assertThat(otherTenant.get("tenant").asText()).isEqualTo("globex");
            assertThat(otherTenant.get("position").isNull()).isTrue();
            HttpResponse<String> badTenant = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withTickets.port()
                    + "/tickets/B?tenant=a%3Ab")).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(badTenant.statusCode()).isEqualTo(400);

            HttpResponse<String> unknown = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withTickets.port()
                    + "/tickets/nope?local=true")).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(Json.MAPPER.readTree(unknown.body()).get("state").asText()).isEqualTo("unknown");
            assertThat(Json.MAPPER.readTree(unknown.body()).has("estimatedDoneAt")).isTrue();

            JsonNode tail = Json.MAPPER.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withTickets.port()
                    + "/status")).GET().build(), HttpResponse.BodyHandlers.ofString()).body()).get("scopes").get(0).get("tail");
            assertThat(tail.get("interactive").get("waiting").asInt()).isEqualTo(1);
            assertThat(tail.get("bulk").get("waiting").asInt()).isEqualTo(2);
            // 300 tokens at 100/s, then 1 s of latency
            assertThat(Instant.parse(tail.get("bulk").get("estimatedDoneAt").asText()).toEpochMilli())
                    .isBetween(now + 4_000, now + 4_000 + 5_000);
        }
        assertThat(request("GET", "/tickets/B").body()).as("a server without the ticket service knows no ticket").contains("unknown");
    }

    @Test
    void shouldRefuseEveryMethodButGetAndHeadWithAllow() throws Exception {
        for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "OPTIONS")) {
            HttpResponse<String> r = request(method, "/health/live");
            assertThat(r.statusCode()).as(method).isEqualTo(405);
            assertThat(r.headers().firstValue("Allow")).as(method).contains("GET, HEAD");
        }
        assertThat(request("POST", "/metrics").statusCode()).isEqualTo(405);
        assertThat(request("POST", "/nowhere").statusCode()).isEqualTo(404);
    }

    @Test
    void shouldAnswerHeadOnEveryGetEndpointWithItsHeadersAndNoBody() throws Exception {
        metrics.state(snapshot("RUNNING"));
        for (String path : List.of("/metrics", "/health/live", "/health/ready", "/health", "/status", "/tickets/T-1")) {
            HttpResponse<String> head = request("HEAD", path);
            HttpResponse<String> get = request("GET", path);
            assertThat(head.statusCode()).as(path).isEqualTo(200);
            assertThat(head.body()).as(path).isEmpty();
            assertThat(head.headers().firstValue("Content-Type")).as(path).isEqualTo(get.headers().firstValue("Content-Type"));
            assertThat(head.headers().firstValueAsLong("Content-Length").orElseThrow()).as(path).isPositive();
            if (!path.equals("/metrics") && !path.equals("/status")) {
                assertThat(head.headers().firstValueAsLong("Content-Length")).as(path)
                        .isEqualTo(get.headers().firstValueAsLong("Content-Length"));
            }
        }
        assertThat(request("HEAD", "/nowhere").statusCode()).isEqualTo(404);
    }

    @Test
    void shouldFindATicketWhoseIdHoldsASlashOrAnyOtherCharacterWhenItIsPercentEncoded() throws Exception {
        long now = System.currentTimeMillis();
        List<String> ids = List.of("acme/T-1", "a b+c", "100%", "..", "ü/ß?#&=", "/");
        Map<String, TicketStatus> statuses = new java.util.HashMap<>();
        ids.forEach(id -> statuses.put(id, new TicketStatus(TicketState.CLASSIFIED, "default", "bulk", "acme", now, now, 0, null, now)));
        TicketService tickets = new TicketService(new TicketLocator(id -> Optional.ofNullable(statuses.get(id)), metrics.tickets()),
                new TicketForwarder(List::of), new ManualTime(now));
        try (StatusServer withTickets = new StatusServer("127.0.0.1", 0, registry, metrics, probe, tickets)) {
            for (String id : ids) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withTickets.port()
                        + TicketPaths.of(id))).GET().build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(id).isEqualTo(200);
                JsonNode b = Json.MAPPER.readTree(r.body());
                assertThat(b.get("id").asText()).as(TicketPaths.of(id)).isEqualTo(id);
                assertThat(b.get("state").asText()).as(id).isEqualTo("classified");
            }
            assertThat(TicketPaths.of("acme/T-1")).isEqualTo("/tickets/acme%2FT-1");
            assertThat(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withTickets.port() + "/tickets/acme/T-1"))
                    .GET().build(), HttpResponse.BodyHandlers.ofString()).statusCode()).as("an unencoded / is a path, not an id").isEqualTo(404);
            assertThat(StatusServerStallTest.get(withTickets.port(), "/tickets/bad%zz", 5_000).status()).isIn(400, 404);
        }
    }

    @Test
    void shouldStayLiveAndReadyAndNameTheHaltWhileARouteIsHalted() throws Exception {
        assertThat(request("GET", "/health/ready").statusCode()).isEqualTo(200);
        metrics.state(snapshot("HALTED: HTTP 401: Incorrect API key provided"));

        HttpResponse<String> live = request("GET", "/health/live");
        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.body()).contains("\"status\":\"UP\"", "\"default\"");
        HttpResponse<String> ready = request("GET", "/health/ready");
        assertThat(ready.statusCode()).as("a halt is route health: the instance still serves").isEqualTo(200);
        assertThat(ready.headers().firstValue("Content-Type")).contains("application/json");
        assertThat(ready.body()).contains("\"status\":\"UP\"", "\"haltedRoutes\":{\"default\":\"HTTP 401: Incorrect API key provided\"}")
                .doesNotContain("\"reason\"");
        assertThat(request("GET", "/health").statusCode()).isEqualTo(200);
        assertThat(request("GET", "/metrics").body()).contains("quotaflow_route_halted{route=\"default\"} 1");
        assertThat(request("GET", "/status").body()).contains("HALTED: HTTP 401: Incorrect API key provided");

        state = KafkaStreams.State.ERROR;
        assertThat(request("GET", "/health/ready").statusCode()).as("the streams decide readiness").isEqualTo(503);
    }

    @Test
    void shouldFailLivenessOnlyWhenTheStreamsStopped() throws Exception {
        state = KafkaStreams.State.ERROR;
        assertThat(request("GET", "/health/live").statusCode()).isEqualTo(503);
        assertThat(request("GET", "/health/ready").statusCode()).isEqualTo(503);
    }

    @Test
    void shouldFailLivenessWhenStreamThreadsKeepFailingThoughEachIsReplaced() throws Exception {
        RuntimeException cause = new IllegalStateException("dispatch-repartition has invalid partitions");
        metrics.streamThreadFailed(cause, System.currentTimeMillis());
        metrics.streamThreadFailed(cause, System.currentTimeMillis());
        assertThat(request("GET", "/health/live").statusCode()).as("a replaced thread is alive").isEqualTo(200);
        assertThat(request("GET", "/health/ready").statusCode()).isEqualTo(503);

        metrics.streamThreadFailed(cause, System.currentTimeMillis());
        HttpResponse<String> live = request("GET", "/health/live");
        assertThat(live.statusCode()).isEqualTo(503);
        assertThat(live.body()).contains("\"status\":\"DOWN\"", "\"streams\":\"RUNNING\"",
                "stream threads failed 3 times", "IllegalStateException");
    }

    @Test
    void shouldServePrometheusTextAndStatusJson() throws Exception {
        HttpResponse<String> metricsPage = request("GET", "/metrics");
        assertThat(metricsPage.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        assertThat(metricsPage.body()).contains("# HELP quotaflow_queue_depth ", "quotaflow_queue_depth{priority=\"interactive\",route=\"default\"} 0");
        metrics.state(snapshot("RUNNING"));
        assertThat(request("GET", "/status?verbose=1").body()).contains("\"scopes\"", SCOPE);
    }

    @Test
    void shouldRefuseAnAddressThatDoesNotResolve() {
        assertThatThrownBy(() -> new StatusServer("no-such-host.invalid", 0, registry, metrics, null))
                .isInstanceOf(IOException.class);
    }

    private static DispatcherSnapshot snapshot(String state) {
        Map<Priority, Integer> sizes = new EnumMap<>(Priority.class);
        for (Priority p : Priority.values()) {
            sizes.put(p, 0);
        }
        return new DispatcherSnapshot(SCOPE, System.currentTimeMillis(), sizes, Map.of(), 0, 0, 100, 5, 0, 0, state, 1.0,
                128_000, 4, 1_000);
    }

    @Test
    void shouldShowEachRouteStateAndBeUnhealthyWithoutEstimatesWhileARouteCannotServe() throws Exception {
        long now = System.currentTimeMillis();
        metrics.state(snapshot("RUNNING"));
        metrics.queue(new QueueView(SCOPE, List.of("default"), now, new Eta.Rates(100, 10, 1_000, true), List.of(
                new QueueView.Waiting("A", Priority.INTERACTIVE, 100))));
        io.quotaflow.provider.RouteStateBoard routes = new io.quotaflow.provider.RouteStateBoard(List.of("default"));
        try (StatusServer withRoutes = new StatusServer("127.0.0.1", 0, registry, metrics, probe, null,
                io.quotaflow.settings.HttpSettings.DEFAULT, routes)) {
            java.util.function.Function<String, JsonNode> get = path -> {
                try {
                    return Json.MAPPER.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + withRoutes.port() + path))
                            .GET().build(), HttpResponse.BodyHandlers.ofString()).body());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            };
            JsonNode before = get.apply("/status");
            assertThat(before.get("healthy").asBoolean()).as("unchecked routes are taken as serving").isTrue();
            assertThat(before.get("routes").get(0).get("routeState").asText()).isEqualTo("unchecked");

            routes.set("default", io.quotaflow.provider.RouteState.unreachable("connection refused"), "test");
            JsonNode after = get.apply("/status");
            JsonNode ready = get.apply("/health/ready");

            assertThat(after.get("healthy").asBoolean()).isFalse();
            assertThat(after.get("routes").get(0).get("routeState").asText()).isEqualTo("unreachable: connection refused");
            assertThat(after.get("routes").get(0).get("canServe").asBoolean()).isFalse();
            assertThat(after.get("scopes").get(0).get("estimatedWaitMs").isNull()).as("no wait of 0 ms, i.e. now").isTrue();
            assertThat(after.get("scopes").get(0).get("tail").get("interactive").get("estimatedDoneAt").isNull()).isTrue();
            assertThat(ready.get("status").asText()).as("route health never makes ready DOWN").isEqualTo("UP");
            assertThat(ready.get("routeStates").get("default").asText()).isEqualTo("unreachable: connection refused");
        }
    }

    @Test
    void shouldBeUnhealthyWhileACircuitIsOpen() throws Exception {
        metrics.state(snapshot("CIRCUIT_OPEN"));
        HttpResponse<String> r = request("GET", "/status");

        assertThat(Json.MAPPER.readTree(r.body()).get("healthy").asBoolean()).isFalse();
        assertThat(Json.MAPPER.readTree(r.body()).get("scopes").get(0).get("estimatedWaitMs").isNull()).isTrue();
    }
}

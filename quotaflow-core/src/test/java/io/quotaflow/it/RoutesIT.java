package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RecordLimits;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.testkit.KafkaBrokerExtension;
import io.quotaflow.simulator.Faults;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.llm.OpenAiChatClient;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.records.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Two providers, each its own simulator: fallback while one is down, and a long-context route (docs/design.md, "Routes"). */
@Order(1) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
@ExtendWith(KafkaBrokerExtension.class)
@Execution(ExecutionMode.CONCURRENT) // each test has its own simulators, topics and application ids
class RoutesIT {

    private EmbeddedKafkaBroker broker;
    private TopicNames topics;
    private ProviderSimulator primarySim;
    private ProviderSimulator backupSim;

    /** Topics and simulators of its own per test on the shared broker: each pipeline reads its input topics from the start. */
    @BeforeEach
    void start() {
        broker = KafkaBrokerExtension.broker();
        topics = ItSupport.applyTopics(broker, KafkaBrokerExtension.uniqueName("RoutesIT") + ".");
        primarySim = ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(600).tpm(200_000).burstSeconds(5)
                .apiKeys(Set.of("sk-it-primary")).baseLatencyMs(30).contextTokens(8_192).build());
        backupSim = ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(600).tpm(400_000).burstSeconds(5)
                .apiKeys(Set.of("sk-it-backup")).baseLatencyMs(30).contextTokens(200_000).build());
    }

    @AfterEach
    void stop() {
        primarySim.close();
        backupSim.close();
    }

    private static RouteSettings route(String name, ProviderSimulator sim, String key, int context, List<String> fallback,
                                       String contextFallback) {
        ModelSettings model = ModelSettings.of(URI.create(sim.baseUrl()), "gpt-4o-mini", Secret.of(key)).withContextTokens(context);
        return new RouteSettings(name, model, QuotaSettings.ofDefaults().withRpm(600).withTpm(200_000), fallback, contextFallback,
                null, null, 0, 0);
    }

    private QuotaflowConfig config(String applicationId, RetrySettings retry, RouteSettings... routes) throws Exception {
        Map<String, RouteSettings> byName = new LinkedHashMap<>();
        for (RouteSettings r : routes) {
            byName.put(r.name(), r);
        }
        Routing routing = new Routing(byName, routes[0].name(), Map.of(), Map.of(), Map.of(), Duration.ZERO);
        DispatcherSettings settings = DispatcherSettings.of(routing, BatchSettings.ofDefaults(), retry, RecordLimits.ofDefaults(),
                topics);
        return new QuotaflowConfig(broker.bootstrapServers(), topics.prefix() + applicationId,
                io.quotaflow.testkit.TestDirs.temporary("qf-" + applicationId), -1, Map.of(), settings);
    }

    private Set<String> publish(String prefix, int n, int bigEvery) {
        StringBuilder lines = new StringBuilder();
        Set<String> ids = new LinkedHashSet<>();
        for (int i = 0; i < n; i++) {
            String id = prefix + "-" + i;
            ids.add("t" + i % 3 + ":" + id);
            String body = bigEvery > 0 && i % bigEvery == 0 ? "My export fails with this log: " + "ERROR timeout at step ".repeat(2_500)
                    : "The tracking for my package has not moved for " + (i % 9 + 2) + " days.";
            lines.append("{\"id\":\"").append(id).append("\",\"subject\":\"Order ").append(i).append("\",\"body\":\"").append(body)
                    .append("\",\"tenant\":\"t").append(i % 3).append("\",\"priority\":\"standard\"}\n");
        }
        try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of(), topics)) {
            var summary = publisher.publish(new ByteArrayInputStream(lines.toString().getBytes(StandardCharsets.UTF_8)),
                    Optional.empty(), false, p -> { }, i -> { });
            assertThat(summary.acknowledged()).isEqualTo(n);
        }
        return ids;
    }

    /** The classified ids of this test (the classes share one broker and its results topic). */
    private static Set<String> mine(OutcomeCounter counter, String... prefixes) {
        Set<String> out = new java.util.HashSet<>();
        for (String key : counter.classifiedIds()) {
            // results are keyed tenant:id (the tickets name tenants t0, t1, t2)
            String id = io.quotaflow.records.TicketKey.parse(key).id();
            for (String p : prefixes) {
                if (id.startsWith(p)) {
                    out.add(key);
                }
            }
        }
        return out;
    }

    private static Map<String, Long> byRoute(OutcomeCounter counter, String... prefixes) throws Exception {
        Map<String, Long> out = new HashMap<>();
        for (String id : mine(counter, prefixes)) {
            JsonNode json = Json.MAPPER.readTree(counter.results().get(id));
            out.merge(json.get("route").asText(), 1L, Long::sum);
        }
        return out;
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldClassifyEveryTicketOnceWhileThePrimaryIsDownForMostOfTheRun() throws Exception {
        RetrySettings retry = RetrySettings.ofDefaults().withMaxAge(Duration.ofMinutes(10)).withCircuitOpenWait(Duration.ofSeconds(5));
        primarySim.setFaults(Faults.builder().p503(1.0).build());
        long primary429 = primarySim.stats().requestsWithStatus(429);
        long backup429 = backupSim.stats().requestsWithStatus(429);
        RouteSettings primary = route("primary", primarySim, "sk-it-primary", 128_000, List.of("backup"), null);
        try (Pipeline pipeline = Pipeline.start(config("quotaflow-routes-down", retry, primary,
                route("backup", backupSim, "sk-it-backup", 128_000, List.of(), null)),
                ModelClients.perScope(r -> new OpenAiChatClient(r.model())));
             OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of(), topics.prefix())) {
            Set<String> ids = publish("DOWN", 300, 0);
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return mine(counter, "DOWN-").size() >= 250;
            });
            primarySim.setFaults(Faults.none());
            // the ticket kept back as the probe finds the primary back and closes its circuit
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> pipeline.metrics().snapshots()
                    .stream().anyMatch(snap -> snap.scope().equals(primary.scope()) && snap.state().equals("RUNNING")));
            Set<String> later = publish("UP", 60, 0);
            Set<String> all = new LinkedHashSet<>(ids);
            all.addAll(later);
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(all);
            });
            counter.poll(Duration.ofSeconds(1));

            assertThat(mine(counter, "DOWN-", "UP-")).isEqualTo(all);
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).isZero();
            Map<String, Long> routes = byRoute(counter, "DOWN-", "UP-");
            assertThat(routes.getOrDefault("backup", 0L)).as("served by the backup while the primary was down").isGreaterThan(100);
            long upOnPrimary = later.stream().filter(id -> {
                try {
                    return Json.MAPPER.readTree(counter.results().get(id)).get("route").asText().equals("primary");
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).count();
            assertThat(primarySim.stats().requestsWithStatus(429) - primary429).isZero();
            assertThat(backupSim.stats().requestsWithStatus(429) - backup429).isZero();
            System.out.printf("RoutesIT down: %s by route, %d of %d tickets published after the primary recovered served by it, "
                            + "%d calls refused 503 by the primary, 0 x 429%n", routes, upOnPrimary, later.size(),
                    primarySim.stats().requestsWithStatus(503));
            assertThat(upOnPrimary).as("new tickets use the recovered primary").isPositive();
        } finally {
            primarySim.setFaults(Faults.none());
        }
    }

    /**
     * ready-under-halt: route a's provider refuses its key (401), its fallback b is healthy. The instance stays
     * ready at every probe (a halt is route health: /status names it), every ticket is served by b exactly once
     * (none stays behind as the halt probe: a's probe is a call of its own), and a's probe finds it back once its
     * provider accepts again.
     */
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldStayReadyWhileARouteIsHaltedAndServeEveryTicketOnItsFallbackOnce() throws Exception {
        RetrySettings retry = RetrySettings.ofDefaults().withHaltProbeInterval(Duration.ofSeconds(2));
        primarySim.setFaults(Faults.builder().failAuth(true).build());
        long backup429 = backupSim.stats().requestsWithStatus(429);
        RouteSettings a = route("a", primarySim, "sk-it-primary", 128_000, List.of("b"), null);
        QuotaflowConfig routed = config("quotaflow-ready-halt", retry, a, route("b", backupSim, "sk-it-backup", 128_000, List.of(), null));
        QuotaflowConfig served = new QuotaflowConfig(routed.bootstrapServers(), routed.applicationId(), routed.stateDir(), 0, Map.of(),
                routed.dispatcher());
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        List<Integer> readiness = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        try (Pipeline pipeline = Pipeline.start(served, ModelClients.perScope(r -> new OpenAiChatClient(r.model())));
             OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of(), topics.prefix())) {
            URI root = URI.create("http://127.0.0.1:" + pipeline.httpPort());
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> status(http, root, "/health/ready") == 200);
            java.util.concurrent.ScheduledExecutorService poller = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
            poller.scheduleAtFixedRate(() -> readiness.add(status(http, root, "/health/ready")), 0, 250, TimeUnit.MILLISECONDS);
            try {
                Set<String> ids = publish("HALT", 10, 0);
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> pipeline.metrics().snapshots()
                        .stream().anyMatch(snap -> snap.scope().equals(a.scope()) && snap.state().startsWith("HALTED")));
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    counter.poll(Duration.ofMillis(100));
                    return mine(counter, "HALT-").containsAll(ids);
                });
                String statusBody = body(http, root, "/status");
                String readyBody = body(http, root, "/health/ready");
                // a few more probes while halted: readiness stays 200 and nothing else arrives
                Thread.sleep(3_000);
                counter.poll(Duration.ofSeconds(1));

                assertThat(statusBody).as("/status names the halt").contains("HALTED", "401");
                assertThat(readyBody).contains("\"status\":\"UP\"", "\"haltedRoutes\":{\"a\":");
                assertThat(mine(counter, "HALT-")).isEqualTo(ids);
                assertThat(counter.duplicates()).isZero();
                assertThat(counter.deadLettered()).isZero();
                assertThat(byRoute(counter, "HALT-")).as("every ticket served by the fallback, none kept back as the probe")
                        .containsExactly(Map.entry("b", 10L));
                for (String id : ids) {
                    JsonNode json = Json.MAPPER.readTree(counter.results().get(id));
                    assertThat(json.get("fallbackFrom").asText()).isEqualTo("a");
                    assertThat(json.get("fallbackReason").asText()).isEqualTo("halted");
                }
                long refused = primarySim.stats().requestsWithStatus(401);
                assertThat(refused).as("the call that found the halt, then a probe every 2 s").isGreaterThanOrEqualTo(3);

                primarySim.setFaults(Faults.none());
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> pipeline.metrics().snapshots()
                        .stream().anyMatch(snap -> snap.scope().equals(a.scope()) && snap.state().equals("RUNNING")));
            } finally {
                // shutdown, not shutdownNow: an interrupted probe in flight would read as a failed one (-1)
                poller.shutdown();
                poller.awaitTermination(5, TimeUnit.SECONDS);
            }
            List<Integer> seen = List.copyOf(readiness);
            assertThat(seen).as("polled every 250 ms throughout").hasSizeGreaterThan(20);
            assertThat(seen).as("/health/ready at every probe while a was halted").containsOnly(200);
            assertThat(backupSim.stats().requestsWithStatus(429) - backup429).isZero();
            System.out.printf("RoutesIT ready-under-halt: /health/ready 200 in %d of %d probes, 10 of 10 tickets served by b once, "
                    + "%d calls refused 401 by a (its probes), then a resumed%n", seen.stream().filter(c -> c == 200).count(), seen.size(),
                    primarySim.stats().requestsWithStatus(401));
        } finally {
            primarySim.setFaults(Faults.none());
        }
    }

    /** The status of {@code GET path}, or -1 when no answer came. */
    private static int status(java.net.http.HttpClient http, URI root, String path) {
        try {
            return http.send(java.net.http.HttpRequest.newBuilder(root.resolve(path)).timeout(Duration.ofSeconds(2)).GET().build(),
                    java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (java.io.IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static String body(java.net.http.HttpClient http, URI root, String path) throws Exception {
        return http.send(java.net.http.HttpRequest.newBuilder(root.resolve(path)).timeout(Duration.ofSeconds(5)).GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldServeTicketsTooLargeForAnEightKPrimaryOnTheLongRouteWithoutARefusedCall() throws Exception {
        long refusedBefore = primarySim.stats().requestsWithStatus(400);
        try (Pipeline pipeline = Pipeline.start(config("quotaflow-routes-long", RetrySettings.ofDefaults(),
                route("primary", primarySim, "sk-it-primary", 8_192, List.of(), "long"),
                route("long", backupSim, "sk-it-backup", 200_000, List.of(), null)),
                ModelClients.perScope(r -> new OpenAiChatClient(r.model())));
             OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of(), topics.prefix())) {
            Set<String> ids = publish("LONG", 200, 20);
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(ids);
            });
            counter.poll(Duration.ofSeconds(1));

            assertThat(mine(counter, "LONG-")).isEqualTo(ids);
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).isZero();
            for (int i = 0; i < 200; i += 20) {
                JsonNode json = Json.MAPPER.readTree(counter.results().get("t" + i % 3 + ":LONG-" + i));
                assertThat(json.get("route").asText()).isEqualTo("long");
                assertThat(json.get("fallbackReason").asText()).isEqualTo("context");
            }
            Map<String, Long> routes = byRoute(counter, "LONG-");
            assertThat(routes).containsEntry("long", 10L).containsEntry("primary", 190L);
            assertThat(primarySim.stats().requestsWithStatus(400) - refusedBefore).as("no refused call").isZero();
            System.out.printf("RoutesIT long: %s by route, 0 refused calls%n", routes);
        }
    }
}

package io.quotaflow.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.settings.BatchApiSettings;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Prices;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RecordLimits;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.simulator.BatchBehaviour;
import io.quotaflow.simulator.Faults;
import io.quotaflow.simulator.SimulatorStats;
import io.quotaflow.testkit.KafkaBrokerExtension;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * Batch routes on a real broker (docs/design.md, "Batch routes"): bulk tickets routed to a route with
 * {@code mode=batch} go through the simulator's Batch API; a restart while a job is out polls the same
 * job, and each ticket is classified once, at the batch price; a job that expires sends what it did not
 * get to to the route's online fallback.
 */
@Order(2) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
class BatchRouteIT {

    private static final String KEY = "sk-it-batch";
    private static final Prices LIST = new Prices(0.15, 0.60);

    @RegisterExtension
    static final ItSupport it = ItSupport.of(KEY, 6_000, 4_000_000, 20);

    private QuotaflowConfig config(String applicationId, Path stateDir, TopicNames topics) {
        return config(applicationId, stateDir, topics, RetrySettings.ofDefaults());
    }

    private QuotaflowConfig config(String applicationId, Path stateDir, TopicNames topics, RetrySettings retry) {
        return config(applicationId, stateDir, topics, retry, BatchApiSettings.batch().withCollect(Duration.ofMillis(1_500))
                .withPoll(Duration.ofMillis(300)));
    }

    private QuotaflowConfig config(String applicationId, Path stateDir, TopicNames topics, RetrySettings retry, BatchApiSettings batch) {
        ModelSettings model = ModelSettings.of(URI.create(it.sim.baseUrl()), "gpt-4o-mini", Secret.of(KEY));
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(4_000_000);
        RouteSettings online = new RouteSettings("online", model, quota, List.of(), null, LIST, null, 0, 0);
        RouteSettings bulk = new RouteSettings("bulk", model, quota, List.of("online"), null, LIST, null, 0, 0, batch);
        Map<String, RouteSettings> routes = new LinkedHashMap<>();
        routes.put("online", online);
        routes.put("bulk", bulk);
        Routing routing = new Routing(routes, "online", Map.of(Priority.BULK, "bulk"), Map.of(), Map.of(), Duration.ZERO);
        DispatcherSettings settings = DispatcherSettings.of(routing, BatchSettings.ofDefaults(), retry,
                RecordLimits.ofDefaults(), topics).withDispatchPartitions(ItSupport.IT_PARTITIONS);
        return new QuotaflowConfig(it.bootstrapServers(), topics.prefix() + applicationId, stateDir, -1, Map.of(), settings);
    }

    private Set<String> publishBulk(TopicNames topics, String prefix, int n) {
        StringBuilder lines = new StringBuilder();
        Set<String> ids = new LinkedHashSet<>();
        for (int i = 0; i < n; i++) {
            String id = prefix + "-" + i;
            ids.add("t" + i % 3 + ":" + id);
            lines.append("{\"id\":\"").append(id).append("\",\"subject\":\"Invoice ").append(id)
                    .append(" charged twice\",\"body\":\"My card was billed twice for order ").append(i)
                    .append(".\",\"tenant\":\"t").append(i % 3).append("\",\"priority\":\"bulk\"}\n");
        }
        try (TicketPublisher publisher = new TicketPublisher(it.bootstrapServers(), Map.of(), topics)) {
            var summary = publisher.publish(new ByteArrayInputStream(lines.toString().getBytes(StandardCharsets.UTF_8)),
                    Optional.empty(), false, p -> { }, i -> { });
            assertThat(summary.acknowledged()).isEqualTo(n);
        }
        return ids;
    }

    private static Set<String> mine(OutcomeCounter counter, Set<String> ids) {
        Set<String> out = new LinkedHashSet<>(counter.classifiedIds());
        out.retainAll(ids);
        return out;
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldClassifyEachBulkTicketOnceAtTheBatchPriceAcrossARestartMidBatch() throws Exception {
        it.sim.setBatches(6_000, -1);
        int jobsBefore = it.sim.batchJobs();
        QuotaflowConfig config = config("quotaflow-batch", io.quotaflow.testkit.TestDirs.temporary("qf-batch"), it.topics());
        SimulatorStats before = it.sim.stats();
        Set<String> ids;
        try (OutcomeCounter counter = it.counter()) {
            try (Pipeline first = Pipeline.start(config)) {
                ids = publishBulk(it.topics(), "B", 2_000);
                // a job is out at the provider: the first instance stops before it ends
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                        .until(() -> it.sim.batchJobs() > jobsBefore);
                counter.poll(Duration.ofMillis(100));
                assertThat(mine(counter, ids)).as("nothing is answered before the job ends").isEmpty();
            }
            int submittedBeforeRestart = it.sim.batchJobs() - jobsBefore;
            String firstJob = it.sim.batchJobIds().get(jobsBefore);
            try (Pipeline second = Pipeline.start(config)) {
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    counter.poll(Duration.ofMillis(100));
                    return mine(counter, ids).size() == ids.size();
                });
                ItSupport.awaitQuiet(Duration.ofSeconds(2), counter);

                assertThat(mine(counter, ids)).isEqualTo(ids);
                assertThat(counter.duplicates()).isZero();
                assertThat(counter.deadLettered()).isZero();
                Map<String, Long> routes = new HashMap<>();
                for (String id : ids) {
                    JsonNode result = Json.MAPPER.readTree(counter.results().get(id));
                    routes.merge(result.get("route").asText(), 1L, Long::sum);
                }
                // what the provider counted for the lines it answered, at the list price
                SimulatorStats after = it.sim.stats();
                double listPrice = LIST.cost(after.promptTokens() - before.promptTokens(),
                        after.completionTokens() - before.completionTokens());
                assertThat(routes).isEqualTo(Map.of("bulk", (long) ids.size()));
                assertThat(it.sim.batchJobRead(firstJob)).as("the job out at the restart was polled and read by the second instance")
                        .isTrue();
                assertThat(second.metrics().costUsd()).as("cost at half the list price")
                        .isCloseTo(listPrice / 2, within(listPrice * 0.05));
                System.out.printf("BatchRouteIT: %d bulk tickets, %d batch jobs (%d submitted before the restart, %d never read), cost "
                        + "$%.6f at the batch price (list price $%.6f)%n", ids.size(), it.sim.batchJobs() - jobsBefore, submittedBeforeRestart,
                        it.sim.batchJobsUnread(), second.metrics().costUsd(), listPrice);
            }
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldSendTheTicketsAnExpiredJobDidNotGetToToTheOnlineFallback() throws Exception {
        // every job answers its first two lines, then expires
        it.sim.setBatches(1_000, 2);
        // topics of its own: the other test's tickets are not this pipeline's
        TopicNames topics = ItSupport.applyTopics(it.broker, KafkaBrokerExtension.uniqueName("BatchExpiryIT") + ".");
        QuotaflowConfig config = config("quotaflow-batch-expiry", io.quotaflow.testkit.TestDirs.temporary("qf-batch-expiry"), topics);
        try (OutcomeCounter counter = new OutcomeCounter(it.bootstrapServers(), Map.of(), topics.prefix());
             Pipeline pipeline = Pipeline.start(config)) {
            Set<String> ids = publishBulk(topics, "E", 200);
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return mine(counter, ids).size() == ids.size();
            });
            ItSupport.awaitQuiet(Duration.ofSeconds(2), counter);

            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).isZero();
            Map<String, Long> routes = new HashMap<>();
            for (String id : ids) {
                JsonNode result = Json.MAPPER.readTree(counter.results().get(id));
                String route = result.get("route").asText();
                routes.merge(route, 1L, Long::sum);
                if (route.equals("online")) {
                    assertThat(result.path("fallbackFrom").asText()).isEqualTo("bulk");
                    assertThat(result.path("fallbackReason").asText()).isEqualTo("batch-expired");
                }
            }
            assertThat(routes.get("bulk")).as("the lines a job answered before it expired").isPositive();
            assertThat(routes.get("online")).as("the rest, moved to the online fallback").isPositive();
            assertThat(routes.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(ids.size());
        } finally {
            it.sim.setBatches(2_000, -1);
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldRetryTheTicketsOfFailedLinesLikeThoseOfAnyCallAndClassifyEachOnce() throws Exception {
        it.sim.setBatches(500, -1);
        // a line answered 500 or with a malformed answer fails as the chat endpoint's answer would
        it.sim.setFaults(Faults.builder().p500(0.15).pMalformed(0.1).build());
        TopicNames topics = ItSupport.applyTopics(it.broker, KafkaBrokerExtension.uniqueName("BatchRetryIT") + ".");
        RetrySettings retry = RetrySettings.ofDefaults().withBase(Duration.ofMillis(200)).withCap(Duration.ofSeconds(1))
                .withCircuitOpenWait(Duration.ofSeconds(1));
        QuotaflowConfig config = config("quotaflow-batch-retry", io.quotaflow.testkit.TestDirs.temporary("qf-batch-retry"), topics, retry);
        try (OutcomeCounter counter = new OutcomeCounter(it.bootstrapServers(), Map.of(), topics.prefix());
             Pipeline pipeline = Pipeline.start(config)) {
            Set<String> ids = publishBulk(topics, "R", 300);
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return mine(counter, ids).size() == ids.size();
            });
            ItSupport.awaitQuiet(Duration.ofSeconds(2), counter);

            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).isZero();
            long retried = 0;
            for (String id : ids) {
                JsonNode result = Json.MAPPER.readTree(counter.results().get(id));
                if (!result.get("route").asText().equals("bulk")) {
                    // failures may open the batch route's circuit: its waiting tickets then fall back, as on any route
                    assertThat(result.path("fallbackReason").asText()).isEqualTo("circuit-open");
                }
                retried += result.get("attempts").asInt() > 1 ? 1 : 0;
            }
            assertThat(retried).as("tickets of failed lines, classified on a later attempt").isPositive();
        } finally {
            it.sim.setFaults(Faults.none());
            it.sim.setBatches(2_000, -1);
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldClassifyEachBulkTicketOnceMostlyByBatchThroughAnEnqueuedLimitFarBelowTheirTotal() throws Exception {
        // the provider's enqueued limit is a fraction of the bulk's tokens and it counts 10 % more than its own tokenizer;
        // every 4th job fails, every 5th expires after two lines, every 15th output line is broken
        it.sim.setBatches(BatchBehaviour.DEFAULT.withDelay(1_000).withEnqueuedLimit(6_000, 1.1).withFailEvery(4).withExpiry(2, 5)
                .withMalformedEvery(15));
        TopicNames topics = ItSupport.applyTopics(it.broker, KafkaBrokerExtension.uniqueName("BatchLimitIT") + ".");
        RetrySettings retry = RetrySettings.ofDefaults().withBase(Duration.ofMillis(200)).withCap(Duration.ofSeconds(1))
                .withCircuitOpenWait(Duration.ofSeconds(1));
        // configured far above the provider's limit: quotaflow has to learn it
        BatchApiSettings batch = BatchApiSettings.batch().withCollect(Duration.ofMillis(800)).withPoll(Duration.ofMillis(200))
                .withMaxEnqueuedTokens(2_000_000);
        QuotaflowConfig config = config("quotaflow-batch-limit", io.quotaflow.testkit.TestDirs.temporary("qf-batch-limit"), topics,
                retry, batch);
        SimulatorStats before = it.sim.stats();
        int refusedBefore = it.sim.batchTokenLimitRefusals();
        int jobsBefore = it.sim.batchJobs();
        try (OutcomeCounter counter = new OutcomeCounter(it.bootstrapServers(), Map.of(), topics.prefix());
             Pipeline pipeline = Pipeline.start(config)) {
            Set<String> ids = publishBulk(topics, "L", 600);
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return mine(counter, ids).size() == ids.size();
            });
            ItSupport.awaitQuiet(Duration.ofSeconds(2), counter);

            assertThat(mine(counter, ids)).isEqualTo(ids);
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).isZero();
            Map<String, Long> routes = new HashMap<>();
            Map<String, Long> reasons = new HashMap<>();
            for (String id : ids) {
                JsonNode result = Json.MAPPER.readTree(counter.results().get(id));
                routes.merge(result.get("route").asText(), 1L, Long::sum);
                if (!result.get("route").asText().equals("bulk")) {
                    reasons.merge(result.path("fallbackReason").asText(), 1L, Long::sum);
                }
            }
            int refused = it.sim.batchTokenLimitRefusals() - refusedBefore;
            long tooMany = it.sim.stats().requestsWithStatus(429) - before.requestsWithStatus(429);
            System.out.printf("BatchRouteIT: enqueued limit far below the bulk: %s by route, fallbacks %s, %d jobs, %d refused for the "
                    + "enqueued limit%n", routes, reasons, it.sim.batchJobs() - jobsBefore, refused);
            assertThat(routes.getOrDefault("bulk", 0L)).as("most of the bulk by batch").isGreaterThanOrEqualTo(ids.size() * 6L / 10);
            assertThat(reasons.keySet()).as("nothing sent online for the enqueued limit or a failed job: only what expired")
                    .isSubsetOf(Set.of("batch-expired"));
            assertThat(it.sim.batchJobs() - jobsBefore).as("jobs of at most the learned limit").isGreaterThanOrEqualTo(6);
            assertThat(refused).as("refused only while the limit is learned").isBetween(1, 2);
            assertThat(tooMany).as("no 429 online").isZero();
        } finally {
            it.sim.setBatches(BatchBehaviour.DEFAULT);
        }
    }
}

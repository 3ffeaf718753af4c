package io.quotaflow.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.OutcomeCounter;
import io.quotaflow.config.DispatcherSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.records.Json;
import io.quotaflow.routing.RouteSettings;
import io.quotaflow.routing.Routing;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.DailyLimits;
import io.quotaflow.settings.Dialect;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Prices;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RecordLimits;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimDialect;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.testkit.KafkaBrokerExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The pipeline on a real broker against the simulator speaking each provider dialect: every ticket
 * classified once, nothing lost, and each dialect's special case: Azure's 429 waits its
 * {@code retry-after-ms}; Anthropic's spend cap halts the route instead of being retried; Gemini's
 * {@code RetryInfo.retryDelay} is waited out, and its per-day quota ends the route's day (its waiting
 * tickets fall back, all but the one kept as the probe).
 */
@Order(1) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
@ExtendWith(KafkaBrokerExtension.class)
@Execution(ExecutionMode.CONCURRENT) // each test has its own simulator, topics and application id
class DialectsIT {

    private static final String KEY = "sk-it-dialect-0123456789";
    private static final String MODEL = "gpt-4o-mini";

    private EmbeddedKafkaBroker broker;
    private TopicNames topics;

    @BeforeEach
    void applyTopics() {
        broker = KafkaBrokerExtension.broker();
        topics = ItSupport.applyTopics(broker, KafkaBrokerExtension.uniqueName("DialectsIT") + ".");
    }

    private static ProviderSimulator sim(SimDialect dialect, long rpm, double burstSeconds) {
        return ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(rpm).tpm(1_000_000).burstSeconds(burstSeconds)
                .apiKeys(Set.of(KEY)).baseLatencyMs(20).dialect(dialect).build());
    }

    private static RouteSettings route(String name, ProviderSimulator sim, Dialect dialect, List<String> fallback) {
        ModelSettings model = ModelSettings.of(URI.create(sim.baseUrl()), MODEL, Secret.of(KEY)).withDialect(dialect, null, null);
        // the route believes in far more than the simulator admits: only the provider's answers hold it back
        return new RouteSettings(name, model, QuotaSettings.ofDefaults().withRpm(6_000).withTpm(1_000_000), fallback, null, Prices.NONE,
                DailyLimits.NONE, 0, 0);
    }

    private QuotaflowConfig config(String applicationId, RetrySettings retry, RouteSettings... routes) throws Exception {
        Map<String, RouteSettings> byName = new LinkedHashMap<>();
        for (RouteSettings r : routes) {
            byName.put(r.name(), r);
        }
        Routing routing = new Routing(byName, routes[0].name(), Map.of(), Map.of(), Map.of(), Duration.ZERO);
        DispatcherSettings settings = DispatcherSettings.of(routing, BatchSettings.ofDefaults().withMaxItems(2), retry,
                RecordLimits.ofDefaults(), topics);
        return new QuotaflowConfig(broker.bootstrapServers(), topics.prefix() + applicationId,
                Files.createTempDirectory("qf-" + applicationId), -1, Map.of(), settings);
    }

    private void awaitAll(OutcomeCounter counter, Set<String> ids) {
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
            counter.poll(Duration.ofMillis(100));
            return counter.classifiedIds().containsAll(ids);
        });
        ItSupport.awaitQuiet(Duration.ofSeconds(2), counter);
        assertThat(counter.classifiedIds()).isEqualTo(ids);
        assertThat(counter.duplicates()).isZero();
        assertThat(counter.deadLettered()).isZero();
    }

    /**
     * The most 429s {@code admitted} calls meet when each 429 is waited out for as long as the provider says
     * (a refill): all calls out at once, one admitted per wait, the others refused once each. Waiting less
     * (the 1 s default cooldown against a 5 s refill) meets about five times as many.
     */
    private static long waitedOut(long admitted) {
        return admitted * (admitted + 1) / 2;
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldWaitOutAzureRateLimitsOnItsDeploymentUrl() throws Exception {
        // one call every 5 s after the first: the batches of two meet 429s whose retry-after-ms says so
        try (ProviderSimulator azure = sim(SimDialect.AZURE, 12, 5);
             Pipeline pipeline = Pipeline.start(config("azure", RetrySettings.ofDefaults(), route("azure", azure, Dialect.AZURE, List.of())));
             OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of(), topics)) {
            Set<String> ids = ItSupport.publish(broker, topics, "AZ", 10);

            awaitAll(counter, ids);
            long admitted = azure.stats().requestsWithStatus(200);
            long limited = azure.stats().http429();
            assertThat(admitted).as("every call reached the deployment with its api-key").isPositive();
            assertThat(limited).as("the simulator held the calls back with 429s").isPositive();
            assertThat(limited).as("each 429 waits retry-after-ms").isLessThanOrEqualTo(waitedOut(admitted));
            System.out.printf("DialectsIT azure: %d tickets in %d admitted calls, %d 429s with retry-after-ms%n", ids.size(), admitted, limited);
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldHaltAnAnthropicRouteAtItsSpendLimitAndResumeWhenLifted() throws Exception {
        RetrySettings retry = RetrySettings.ofDefaults().withMaxAge(Duration.ofSeconds(3)).withHaltProbeInterval(Duration.ofSeconds(2));
        try (ProviderSimulator anthropic = sim(SimDialect.ANTHROPIC, 6_000, 5);
             Pipeline pipeline = Pipeline.start(config("anthropic", retry, route("claude", anthropic, Dialect.ANTHROPIC, List.of())));
             OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of(), topics)) {
            anthropic.setDown(MODEL, 429);
            Set<String> ids = ItSupport.publish(broker, topics, "AN", 30);

            await().atMost(Duration.ofSeconds(60)).until(() -> !pipeline.metrics().healthy());
            // past the maximum age and a few probes: a spend cap is not retried, nothing is dead-lettered
            ItSupport.awaitQuiet(Duration.ofSeconds(7), counter);
            long refused = anthropic.stats().http429();
            assertThat(counter.deadLettered()).isZero();
            assertThat(counter.classified()).isZero();
            assertThat(refused).as("the calls out when it halted, then one probe every 2 s").isBetween(1L, 20L);

            anthropic.setDown(MODEL, false);
            awaitAll(counter, ids);
            assertThat(pipeline.metrics().healthy()).isTrue();
            System.out.printf("DialectsIT anthropic: %d calls refused at the spend limit while halted, then %d tickets classified%n",
                    refused, counter.classified());
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldWaitGeminisRetryDelayAndEndTheDayOnItsPerDayQuota() throws Exception {
        // one call every 5 s after the first, told only in the body (RetryInfo.retryDelay: no headers)
        try (ProviderSimulator gemini = sim(SimDialect.GEMINI, 12, 5);
             ProviderSimulator backup = sim(SimDialect.OPENAI, 6_000, 5);
             Pipeline pipeline = Pipeline.start(config("gemini", RetrySettings.ofDefaults(),
                     route("gemini", gemini, Dialect.GEMINI, List.of("backup")), route("backup", backup, Dialect.OPENAI, List.of())));
             OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of(), topics)) {
            Set<String> paced = ItSupport.publish(broker, topics, "GP", 8);
            awaitAll(counter, paced);
            long calls = gemini.stats().requestsWithStatus(200);
            long limited = gemini.stats().http429();
            assertThat(backup.stats().totalRequests()).as("all served by gemini, at its pace").isZero();
            assertThat(limited).as("the simulator held the calls back with 429s").isPositive();
            assertThat(limited).as("each 429 waits its retryDelay (5 s), not the 1 s default").isLessThanOrEqualTo(waitedOut(calls));

            gemini.setDown(MODEL, 429);
            Set<String> moved = ItSupport.publish(broker, topics, "GD", 12);
            // every waiting ticket but one falls back: the last stays as the probe that tells when the day is back
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return moved.stream().filter(counter.classifiedIds()::contains).count() >= moved.size() - 1;
            });
            ItSupport.awaitQuiet(Duration.ofSeconds(3), counter);
            long perDay = gemini.stats().http429() - limited;
            assertThat(perDay).as("the day ends at the first per-day 429s (the calls out then), nothing is sent after").isBetween(1L, 7L);
            assertThat(moved.stream().filter(counter.classifiedIds()::contains).count()).isEqualTo(moved.size() - 1);
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).as("the one left waits for the reset, it is not lost").isZero();
            for (String key : moved) {
                if (counter.results().containsKey(key)) {
                    JsonNode result = Json.MAPPER.readTree(counter.results().get(key));
                    assertThat(result.path("route").asText()).as(key).isEqualTo("backup");
                    assertThat(result.path("fallbackReason").asText()).as(key).isEqualTo("out-for-day");
                }
            }
            System.out.printf("DialectsIT gemini: %d tickets in %d calls with %d retryDelay 429s; then %d per-day 429s ended the day and "
                    + "%d of %d tickets fell back%n", paced.size(), calls, limited, perDay, moved.size() - 1, moved.size());
        }
    }
}

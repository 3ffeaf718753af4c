package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.simulator.Faults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * 5 % of the provider's answers send their headers and half their body, then stall (the simulator holds the
 * connection for 120 s). Each such call ends at its whole-call deadline ({@code llm.timeout}, 2 s here) as a
 * timeout, its tickets are retried, and every ticket is classified exactly once, within a minute, with no 429.
 */
class BodyStallIT {

    private static final String KEY = "sk-it-body-stall";

    @RegisterExtension
    static final ItSupport it = ItSupport.of(KEY, 6_000, 2_000_000, 50);

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldRetryEveryCallWhoseBodyStallsAndClassifyEachTicketOnceWithinTheDeadline() {
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000);
        RetrySettings retry = RetrySettings.ofDefaults().withBase(Duration.ofMillis(200)).withCap(Duration.ofSeconds(2));
        QuotaflowConfig base = it.config("quotaflow-body-stall", quota, retry);
        // four tickets a call: some 125 calls, of which a few stall; the deadline is the route's llm.timeout
        DispatcherSettings dispatcher = DispatcherSettings.builder(ModelSettings.of(URI.create(it.sim.baseUrl()), "gpt-4o-mini",
                Secret.of(KEY)).withTimeout(Duration.ofSeconds(2)), quota, BatchSettings.ofDefaults().withMaxItems(4), retry).build()
                .withTopics(it.topics()).withDispatchPartitions(ItSupport.IT_PARTITIONS);
        QuotaflowConfig config = new QuotaflowConfig(base.bootstrapServers(), base.applicationId(), base.stateDir(), -1, Map.of(),
                dispatcher);
        it.sim.setFaults(Faults.builder().pStallBody(0.05).build());

        try (Pipeline pipeline = Pipeline.start(config);
             OutcomeCounter counter = it.counter()) {
            long start = System.nanoTime();
            Set<String> ids = it.publish("STALL", 500);

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(ids);
            });
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            ItSupport.awaitQuiet(Duration.ofSeconds(3), counter);

            long stalled = it.sim.stats().faultsInjected("stall-body");
            assertThat(stalled).as("answers stalled after half their body").isPositive();
            assertThat(counter.classifiedIds()).isEqualTo(ids);
            assertThat(counter.classified()).isEqualTo(500);
            assertThat(counter.duplicates()).as("no ticket classified twice").isZero();
            assertThat(counter.deadLettered()).isZero();
            assertThat(it.sim.stats().http429()).isZero();
            assertThat(pipeline.metrics().retriedCount()).as("the stalled calls' tickets were retried").isPositive();
            System.out.printf("BodyStallIT: %d of %d answers stalled after half their body; %d tickets classified once in %d ms, "
                    + "%d retried, 0 duplicates, 0 x 429%n", stalled, it.sim.stats().requestsWithStatus(200), counter.classified(), tookMs,
                    pipeline.metrics().retriedCount());
        }
    }
}

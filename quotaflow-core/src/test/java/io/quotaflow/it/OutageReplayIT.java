package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.simulator.Faults;
import io.quotaflow.Pipeline;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.dlq.DeadLetterReplayer;
import io.quotaflow.dlq.ReplayOptions;
import io.quotaflow.dlq.ReplaySummary;
import io.quotaflow.testkit.KafkaBrokerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An outage longer than the retry budget: tickets go to the retry topic, the circuit opens, age
 * runs out, everything lands in the dead-letter topic; after the outage a replay brings every
 * ticket back and each is classified exactly once. A second replay replays nothing.
 */
class OutageReplayIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-outage", 2_000, 1_000_000, 20);

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldDeadLetterAnOutageLongerThanTheBudgetAndReplayEveryTicketExactlyOnce() {
        RetrySettings retry = RetrySettings.ofDefaults().withBase(Duration.ofMillis(200)).withCap(Duration.ofSeconds(1))
                .withMaxAttempts(50).withMaxAge(Duration.ofSeconds(6)).withCircuitOpenWait(Duration.ofSeconds(2));
        it.sim.setFaults(Faults.builder().p503(1.0).build());

        try (Pipeline pipeline = Pipeline.start(it.config("quotaflow-outage",
                QuotaSettings.ofDefaults().withRpm(2_000).withTpm(1_000_000), retry));
             OutcomeCounter counter = it.counter()) {
            Set<String> ids = it.publish("OUT", 150);

            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.deadLetters().keySet().containsAll(ids);
            });
            assertThat(counter.classified()).isZero();
            assertThat(counter.deadLettersByKind()).containsOnlyKeys("retries-exhausted");
            long callsDuringOutage = it.sim.stats().requestsWithStatus(503);
            assertThat(callsDuringOutage).as("the open circuit held dispatch back").isLessThan(60);
            assertThat(pipeline.metrics().retriedCount()).isPositive();

            // the outage ends; operators replay
            it.sim.setFaults(Faults.none());
            ReplayOptions options = ReplayOptions.builder().kinds("retries-exhausted").ratePerSecond(0)
                    .groupId(KafkaBrokerExtension.uniqueName("it-replay")).dlqTopic(it.topics().dlq()).build();
            ReplaySummary first = new DeadLetterReplayer(it.bootstrapServers(), Map.of(), options).run();
            assertThat(first.replayed()).isEqualTo(150);

            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(ids);
            });
            ReplaySummary second = new DeadLetterReplayer(it.bootstrapServers(), Map.of(), options).run();
            assertThat(second.replayed()).as("a second run replays nothing").isZero();

            counter.poll(Duration.ofSeconds(1));
            assertThat(counter.classifiedIds()).isEqualTo(ids);
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLetters()).hasSize(150);
            assertThat(it.sim.stats().http429()).isZero();
            System.out.printf("OutageReplayIT: %d calls refused with 503 during the outage, %d tickets dead-lettered, %d replayed, "
                    + "%d classified, 0 duplicates%n", callsDuringOutage, counter.deadLettered(), first.replayed(), counter.classified());
        }
    }
}

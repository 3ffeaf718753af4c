package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.dlq.DeadLetterReplayer;
import io.quotaflow.dlq.ReplayOptions;
import io.quotaflow.dlq.ReplaySummary;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.simulator.Faults;
import io.quotaflow.testkit.KafkaBrokerExtension;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Explicit shedding against a real broker, while the provider refuses the key (the route halts): new tickets
 * beyond a class's depth are dead-lettered as {@code shed}; once the route serves, a paced replay brings each
 * back and it is classified exactly once.
 */
@Order(18) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
class ShedReplayIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-shed", 2_000, 1_000_000, 20);

    private static final RetrySettings RETRY = RetrySettings.ofDefaults().withHaltProbeInterval(Duration.ofSeconds(2));

    private static QuotaflowConfig config(String app, java.util.function.UnaryOperator<DispatcherSettings> change) {
        return it.config(app, QuotaSettings.ofDefaults().withRpm(2_000).withTpm(1_000_000), RETRY, change);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldShedBeyondTheDepthAsReplayableDeadLettersAndClassifyEachOnceAfterTheReplay() {
        it.sim.setFaults(Faults.builder().failAuth(true).build());
        Map<Priority, Integer> depth = Map.of(Priority.INTERACTIVE, 10, Priority.STANDARD, 10, Priority.BULK, 10);
        try (Pipeline pipeline = Pipeline.start(config("quotaflow-shed", d -> d.withMaxDepth(depth)));
             OutcomeCounter counter = it.counter()) {
            Set<String> ids = it.publish("SHED", 90);

            await().atMost(Duration.ofSeconds(60)).until(() -> !pipeline.metrics().healthy());
            ItSupport.awaitQuiet(Duration.ofSeconds(3), counter);
            Set<String> shed = new TreeSet<>(counter.deadLetters().keySet());
            assertThat(counter.deadLettersByKind()).containsOnlyKeys("shed");
            assertThat(shed).as("at most 10 of each class wait, besides the first calls' tickets, out when the key was refused")
                    .hasSizeBetween(1, 90 - 3 * 10);
            assertThat(counter.classified()).isZero();

            it.sim.setFaults(Faults.none());
            await().atMost(Duration.ofSeconds(60)).until(() -> pipeline.metrics().healthy());
            // the tickets that waited within the depth drain first, as an operator replays after the backlog is served:
            // replayed into a queue still at its depth, a ticket would be shed again
            Set<String> waited = new TreeSet<>(ids);
            waited.removeAll(shed);
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(waited);
            });
            // paced below what the route serves (bulk batches linger 1 s), or the replayed tickets would meet the same depth
            ReplayOptions options = ReplayOptions.builder().kinds("shed").ratePerSecond(5)
                    .groupId(KafkaBrokerExtension.uniqueName("it-shed-replay")).dlqTopic(it.topics().dlq()).build();
            ReplaySummary replay = new DeadLetterReplayer(it.bootstrapServers(), Map.of(), options).run();
            assertThat(replay.replayed()).isEqualTo(shed.size());

            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                assertThat(counter.deadLetterRecords()).as("no replayed ticket is shed again").isEqualTo(shed.size());
                return counter.classifiedIds().containsAll(ids);
            });
            assertThat(new DeadLetterReplayer(it.bootstrapServers(), Map.of(), options).run().replayed())
                    .as("a second replay replays nothing").isZero();
            counter.poll(Duration.ofMillis(500));
            assertThat(counter.classifiedIds()).isEqualTo(ids);
            assertThat(counter.duplicates()).isZero();
            assertThat(it.sim.stats().http429()).isZero();
            System.out.printf("ShedReplayIT: %d of 90 tickets shed while the route was halted, all replayed and classified once%n",
                    shed.size());
        }
    }

}

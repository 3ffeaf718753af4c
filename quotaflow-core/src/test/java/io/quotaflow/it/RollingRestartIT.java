package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.simulator.SimulatorStats;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A rolling restart as {@code kubectl rollout restart} does one (docs/operations.md, "What the pods
 * get"): each instance in turn closed, which leaves the group so its tasks move to the other at once,
 * and started again with the same {@code instance.id} and state directory, while tickets keep arriving
 * and calls are out. Every ticket is classified exactly once, with no 429.
 */
@Order(16) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
class RollingRestartIT {

    private static final int WAVE = 40;
    /** Calls take 400 ms, so a close finds some out: their answers are lost with the instance, and asked again. */
    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-rolling", 600, 100_000, 400);

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldClassifyEveryTicketOnceThroughARollingRestart() throws Exception {
        QuotaflowConfig base = it.config("quotaflow-rolling", QuotaSettings.ofDefaults().withRpm(600).withTpm(100_000),
                RetrySettings.ofDefaults());
        List<QuotaflowConfig> configs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            configs.add(new QuotaflowConfig(base.bootstrapServers(), base.applicationId(), io.quotaflow.testkit.TestDirs.temporary("qf-rolling-" + i),
                    -1, Map.of(), base.dispatcher(), "rolling-" + i));
        }
        List<Pipeline> instances = new ArrayList<>();
        try (OutcomeCounter counter = it.counter()) {
            for (QuotaflowConfig c : configs) {
                instances.add(Pipeline.start(c));
            }
            for (Pipeline p : instances) {
                assertThat(p.awaitRunning(Duration.ofSeconds(90))).isTrue();
            }
            Set<String> expected = new HashSet<>(it.publish("before", WAVE));
            for (int i = 0; i < instances.size(); i++) {
                int seen = expected.size();
                // restart while the last wave is being worked on
                await().atMost(Duration.ofMinutes(2)).until(() -> {
                    counter.poll(Duration.ofMillis(100));
                    return counter.classified() >= seen - WAVE / 2;
                });
                instances.get(i).close();
                expected.addAll(it.publish("down-" + i, WAVE));
                instances.set(i, Pipeline.start(configs.get(i)));
                assertThat(instances.get(i).awaitRunning(Duration.ofSeconds(90))).isTrue();
                expected.addAll(it.publish("back-" + i, WAVE));
            }

            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(expected);
            });
            ItSupport.awaitQuiet(Duration.ofSeconds(1), counter);

            assertThat(expected).hasSize(5 * WAVE);
            assertThat(counter.classifiedIds()).containsAll(expected);
            assertThat(counter.classified()).isEqualTo(expected.size());
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).isZero();
            SimulatorStats stats = it.sim.stats();
            assertThat(stats.http429()).isZero();
            System.out.printf("RollingRestartIT: %d tickets through two restarts, %d calls, 0 x 429, each classified once; "
                    + "active tasks at the end: %s%n", expected.size(), stats.totalRequests(), instances.stream()
                    .map(p -> p.streams().metadataForLocalThreads().stream().mapToInt(t -> t.activeTasks().size()).sum()).toList());
        } finally {
            for (Pipeline p : instances) {
                p.close();
            }
        }
    }
}

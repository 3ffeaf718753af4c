package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.testkit.DemoDataset;
import io.quotaflow.Pipeline;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.simulator.SimulatorStats;
import io.quotaflow.publish.TicketPublisher;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three instances with one application id share one quota: the scope's calls are made by the one
 * task that owns its partition. Closing that instance mid-run moves the task; the quota still holds.
 */
@Order(15) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
class MultiInstanceIT {

    private static final int TICKETS = 400;
    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-multi", 600, 100_000, 80);

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void shouldShareOneQuotaAcrossInstancesAndSurviveLosingTheOwner() throws Exception {
        List<Pipeline> instances = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            instances.add(Pipeline.start(it.config("quotaflow-multi", QuotaSettings.ofDefaults().withRpm(600).withTpm(100_000),
                    RetrySettings.ofDefaults())));
        }
        try (OutcomeCounter counter = it.counter()) {
            for (Pipeline p : instances) {
                assertThat(p.awaitRunning(Duration.ofSeconds(90))).isTrue();
            }
            String lines = new String(DemoDataset.lines(TICKETS), StandardCharsets.UTF_8);
            Set<String> expected = new HashSet<>();
            try (TicketPublisher publisher = new TicketPublisher(it.bootstrapServers(), Map.of(), it.topics())) {
                var summary = publisher.publish(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)), Optional.empty(),
                        false, p -> { }, i -> { });
                assertThat(summary.succeeded()).isTrue();
            }
            for (String line : lines.split("\n")) {
                var parsed = io.quotaflow.records.TicketParser.parse(line.getBytes(StandardCharsets.UTF_8));
                if (parsed instanceof io.quotaflow.records.TicketParser.Valid v && !v.ticket().id().equals("T-HUGE-1")) {
                    expected.add(io.quotaflow.records.TicketKey.of(v.ticket()).key());
                }
            }

            // let the owner work for a while, then close it mid-run
            await().atMost(Duration.ofMinutes(2)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classified() >= expected.size() / 3;
            });
            // the owner is the instance whose dispatcher reported last (a rebalance while the group
            // formed may have moved the scope once; the quota must hold either way)
            Pipeline owner = instances.stream()
                    .filter(p -> !p.metrics().snapshots().isEmpty())
                    .max(java.util.Comparator.comparingLong(p -> p.metrics().snapshots().stream()
                            .mapToLong(io.quotaflow.dispatch.report.DispatcherSnapshot::at).max().orElse(0)))
                    .orElseThrow();
            long callsBefore = owner.metrics().calls();
            assertThat(callsBefore).isPositive();
            Map<Pipeline, Long> survivorCalls = new java.util.HashMap<>();
            instances.stream().filter(p -> p != owner).forEach(p -> survivorCalls.put(p, p.metrics().calls()));
            owner.close();
            instances.remove(owner);

            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(expected);
            });
            ItSupport.awaitQuiet(Duration.ofSeconds(1), counter);

            assertThat(counter.classifiedIds()).containsAll(expected);
            assertThat(counter.duplicates()).isZero();
            assertThat(instances.stream().filter(p -> p.metrics().calls() > survivorCalls.get(p)))
                    .as("a survivor took the scope over").isNotEmpty();
            SimulatorStats stats = it.sim.stats();
            assertThat(stats.http429()).isZero();
            System.out.printf("MultiInstanceIT: %d calls (%d before the owner closed), %d tokens admitted, 0 x 429%n",
                    stats.totalRequests(), callsBefore, stats.tokensAdmitted());
        } finally {
            for (Pipeline p : instances) {
                p.close();
            }
        }
    }
}

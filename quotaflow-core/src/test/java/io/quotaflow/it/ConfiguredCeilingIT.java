package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.settings.LimitOrigin;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.simulator.SimulatorStats;
import io.quotaflow.testkit.OutcomeCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * "configured-ceiling": a limit the operator set is kept against a provider announcing ten times as much
 * (docs/configuration.md, "Limits: ceilings and learning"). The provider (the simulator) allows 200,000 TPM
 * and holds a full minute of it; the pipeline is configured with 20,000 TPM and enough tickets to keep it
 * busy for over a minute at that rate.
 */
class ConfiguredCeilingIT {

    private static final int CEILING = 20_000;
    private static final int TICKETS = 420;

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-ceiling", 10_000, 200_000, 40, b -> b.burstSeconds(60));

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldNeverAdmitMoreThanTheConfiguredLimitInAnyMinute() throws Exception {
        QuotaSettings quota = QuotaSettings.ofDefaults().withTpm(CEILING, LimitOrigin.SET);
        Set<String> expected = it.publish("CEIL", TICKETS);
        long started = System.nanoTime();
        try (Pipeline pipeline = Pipeline.start(it.config("quotaflow-ceiling", quota, RetrySettings.ofDefaults()));
             OutcomeCounter counter = it.counter()) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classified() + counter.deadLettered() >= TICKETS;
            });
            long seconds = (System.nanoTime() - started) / 1_000_000_000L;
            ItSupport.awaitQuiet(Duration.ofSeconds(1), counter);

            assertThat(counter.classifiedIds()).isEqualTo(expected);
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).isZero();
            SimulatorStats stats = it.sim.stats();
            assertThat(stats.http429()).isZero();
            long first = stats.perSecond().get(0).epochSecond();
            long last = stats.perSecond().get(stats.perSecond().size() - 1).epochSecond();
            long most = 0;
            for (long s = first - 59; s <= last; s++) {
                most = Math.max(most, stats.tokensAdmittedBetween(s, s + 60));
            }
            System.out.printf("ConfiguredCeilingIT: %d tickets in %d s, %d calls, %d tokens admitted over %d s, at most %d in a minute%n",
                    TICKETS, seconds, stats.totalRequests(), stats.tokensAdmittedBetween(first, last + 1), last - first + 1, most);
            // the check: at most 110 % of the configured limit in any 60-second window
            assertThat(most).isLessThanOrEqualTo(CEILING * 11 / 10);
            assertThat(last - first + 1).as("busy for over a minute, so a whole window is measured").isGreaterThan(60);
        }
    }
}

package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.simulator.Faults;
import io.quotaflow.Pipeline;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A rejected key halts the scope: nothing is dead-lettered, and dispatch resumes once the provider accepts. */
class HaltIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-halt", 2_000, 1_000_000, 20);

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldHaltOnFailedAuthDeadLetterNothingAndResumeWhenTheProviderAccepts() throws Exception {
        RetrySettings retry = RetrySettings.ofDefaults().withMaxAge(Duration.ofSeconds(3)).withHaltProbeInterval(Duration.ofSeconds(2));
        it.sim.setFaults(Faults.builder().failAuth(true).build());
        try (Pipeline pipeline = Pipeline.start(it.config("quotaflow-halt",
                QuotaSettings.ofDefaults().withRpm(2_000).withTpm(1_000_000), retry));
             OutcomeCounter counter = it.counter()) {
            Set<String> ids = it.publish("AUTH", 60);

            await().atMost(Duration.ofSeconds(60)).until(() -> !pipeline.metrics().healthy());
            // well past the maximum age and a few probes
            ItSupport.awaitQuiet(Duration.ofSeconds(8), counter);
            assertThat(counter.deadLettered()).as("a halt dead-letters nothing").isZero();
            assertThat(counter.classified()).isZero();
            assertThat(pipeline.metrics().healthy()).isFalse();
            long refused = it.sim.stats().requestsWithStatus(401);
            assertThat(refused).as("the first calls in flight, then one probe every 2 s").isBetween(2L, 20L);

            it.sim.setFaults(Faults.none());
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(ids);
            });
            counter.poll(Duration.ofMillis(500));
            assertThat(counter.classifiedIds()).isEqualTo(ids);
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).isZero();
            assertThat(pipeline.metrics().healthy()).isTrue();
            System.out.printf("HaltIT: %d calls refused with 401 while halted, then %d tickets classified, none dead-lettered%n",
                    refused, counter.classified());
        }
    }
}

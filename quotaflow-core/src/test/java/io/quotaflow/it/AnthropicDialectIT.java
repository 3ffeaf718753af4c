package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.settings.Dialect;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimDialect;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Anthropic: its spend cap halts the route instead of being retried, and the route resumes once lifted.
 */
@Order(4) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
class AnthropicDialectIT extends DialectItBase {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldHaltAnAnthropicRouteAtItsSpendLimitAndResumeWhenLifted() throws Exception {
        RetrySettings retry = RetrySettings.ofDefaults().withMaxAge(Duration.ofSeconds(3)).withHaltProbeInterval(Duration.ofSeconds(2));
        try (ProviderSimulator anthropic = sim(SimDialect.ANTHROPIC, 6_000, 5);
             Pipeline pipeline = Pipeline.start(config("anthropic", retry, route("claude", anthropic, Dialect.ANTHROPIC, List.of())));
             OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of(), topics.prefix())) {
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
            System.out.printf("AnthropicDialectIT anthropic: %d calls refused at the spend limit while halted, then %d tickets classified%n",
                    refused, counter.classified());
        }
    }
}

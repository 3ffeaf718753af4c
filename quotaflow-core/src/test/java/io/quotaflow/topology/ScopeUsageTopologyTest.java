package io.quotaflow.topology;

import io.quotaflow.dispatch.DispatcherProcessor;
import io.quotaflow.quota.ScopeUsage;
import io.quotaflow.records.Priority;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a scope's next owner takes over ({@code qf-usage}): the time of its last admitted call, written
 * in the tick that admitted it, from which the next owner credits the provider's refill
 * (QuotaLimiter#takeOver).
 */
class ScopeUsageTopologyTest {

    @Test
    void shouldKeepTheTimeOfTheScopesLastAdmittedCall() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            KeyValueStore<String, ScopeUsage> usage = h.driver().getKeyValueStore(DispatcherProcessor.USAGE_STORE);
            String scope = Fixtures.settings().routing().defaultRouteSettings().scope();
            h.advance(Duration.ofSeconds(5));
            assertThat(usage.get(scope)).as("nothing admitted yet").isNull();

            h.pipe(Priority.INTERACTIVE, "T-1", Fixtures.ticket("T-1"));
            h.advance(Duration.ofSeconds(2));
            assertThat(client.requests()).hasSize(1);
            ScopeUsage first = usage.get(scope);
            assertThat(first).isNotNull();
            assertThat(first.lastAdmittedMs()).isBetween(PipelineHarness.START.toEpochMilli() + 5_000, h.now().toEpochMilli());

            h.advance(Duration.ofSeconds(10));
            h.pipe(Priority.INTERACTIVE, "T-2", Fixtures.ticket("T-2"));
            h.advance(Duration.ofSeconds(2));
            assertThat(client.requests()).hasSize(2);
            assertThat(usage.get(scope).lastAdmittedMs()).isGreaterThanOrEqualTo(first.lastAdmittedMs() + 10_000)
                    .isLessThanOrEqualTo(h.now().toEpochMilli());
        }
    }

    @Test
    void shouldBoundTheCreditByTheGroupsSessionTimeout() {
        assertThat(DispatcherProcessor.sessionTimeout(java.util.Map.of("session.timeout.ms", "6000"))).isEqualTo(Duration.ofSeconds(6));
        assertThat(DispatcherProcessor.sessionTimeout(java.util.Map.of("session.timeout.ms", "6000",
                "main.consumer.session.timeout.ms", "10000"))).as("the main consumer's wins").isEqualTo(Duration.ofSeconds(10));
        assertThat(DispatcherProcessor.sessionTimeout(java.util.Map.of("consumer.session.timeout.ms", 8000)))
                .isEqualTo(Duration.ofSeconds(8));
        assertThat(DispatcherProcessor.sessionTimeout(java.util.Map.of())).as("Kafka's default").isEqualTo(Duration.ofSeconds(45));
        assertThat(DispatcherProcessor.sessionTimeout(java.util.Map.of("group.protocol", "streams", "session.timeout.ms", "6000")))
                .as("the broker sets the session").isZero();
        assertThat(DispatcherProcessor.sessionTimeout(java.util.Map.of("session.timeout.ms", "soon"))).isZero();
        assertThat(DispatcherProcessor.sessionTimeout(java.util.Map.of("session.timeout.ms", "6000",
                DispatcherProcessor.TAKEOVER_CREDIT_CONFIG, "off"))).as("instance.takeover-credit=off").isZero();
    }
}

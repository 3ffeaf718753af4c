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
}

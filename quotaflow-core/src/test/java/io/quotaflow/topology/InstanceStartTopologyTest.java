package io.quotaflow.topology;

import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.records.Priority;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.LimitOrigin;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.testing.DelayedBucketProvider;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import io.quotaflow.tracing.Tracing;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scope without a usage record credits the refill since its instance started, not since its task was assigned
 * (docs/design.md, "Limiter"): instances starting together rebalance until the last one is in, and a backlog published
 * right after waited for each key's whole burst to build again. A key under a configured limit (a ceiling: 2 s of local
 * burst, then the limit × 0.98) against a provider bucket of 5 s that starts full, as a key nobody used does.
 */
class InstanceStartTopologyTest {

    private static final long TPM = 60_000;

    /** Tokens the provider admitted in the first {@code windowMs} of a backlog piped as the task is assigned. */
    private static long admittedFirst(Duration instanceUp, long windowMs) {
        PipelineHarness[] harness = new PipelineHarness[1];
        DelayedBucketProvider provider = new DelayedBucketProvider(TPM, 5, () -> harness[0].now().toEpochMilli());
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(), QuotaSettings.ofDefaults()
                .withRpm(1_000, LimitOrigin.SET).withTpm((int) TPM, LimitOrigin.SET), BatchSettings.ofDefaults(),
                RetrySettings.ofDefaults()).build();
        try (PipelineHarness h = new PipelineHarness(settings, ModelClients.of(provider), DispatcherListener.NONE, Tracing.NOOP,
                PipelineHarness.START, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class, instanceUp)) {
            harness[0] = h;
            IntStream.range(0, 200).forEach(i -> h.pipe(Priority.BULK, "T-" + i, Fixtures.ticket("T-" + i, "default", "Parcel " + i
                    + " is late and the tracking page has said the same thing for a week now, nobody answers")));
            long start = h.now().toEpochMilli();
            while (h.now().toEpochMilli() < start + 20_000) {
                h.advance(Duration.ofMillis(50));
                provider.release();
                h.classified();
            }
            assertThat(provider.refused()).as("no 429").isZero();
            return provider.tokensBetween(start, start + windowMs);
        }
    }

    @Test
    void shouldSpendTheBurstOfAnInstanceStartedBeforeItsTaskWasAssigned() {
        long rate = TPM * 98 / 100 / 60;
        long assignedAtStart = admittedFirst(Duration.ZERO, 1_000);
        long assignedLater = admittedFirst(Duration.ofSeconds(5), 1_000);
        // started with the task: its first second's refill, at most
        assertThat(assignedAtStart).isLessThanOrEqualTo(rate);
        // started 5 s before: the 2 s burst (1 960 tokens) goes at once, on top of the second's refill
        assertThat(assignedLater).as("first second, against %d assigned at start", assignedAtStart).isGreaterThan(assignedAtStart + rate);
        // and over 20 s, neither is above the ceiling: 2 s of burst plus 20 s at the limit × 0.98
        assertThat(admittedFirst(Duration.ofSeconds(5), 20_000)).isLessThanOrEqualTo(22 * rate);
    }
}

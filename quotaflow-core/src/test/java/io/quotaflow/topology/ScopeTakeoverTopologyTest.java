package io.quotaflow.topology;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.records.Priority;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.testing.DelayedBucketProvider;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import io.quotaflow.testing.SharedMemoryStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scope's next owner after a crash (docs/design.md, "Limiter"): the previous owner's stores, with its
 * calls still out and its last admission, are restored by a second pipeline 8 s after the first one
 * stopped, as a moved task is after its owner's session expired. The restored scope runs at its key's
 * full rate at once against a provider that reports its bucket in its headers.
 */
class ScopeTakeoverTopologyTest {

    private static final long TPM = 60_000;
    private static final double PROVIDER_BURST_SECONDS = 5;

    /**
     * A provider's token bucket on the harness's clock: {@value #TPM} tokens a minute, {@value #PROVIDER_BURST_SECONDS} s of
     * them at most, starting full; it charges a call its prompt and {@code max_tokens} at admission and takes its headers
     * then, and refuses with a 429 what the bucket does not hold.
     */
    private static final class BucketProvider implements Function<ModelRequest, ModelOutcome> {
        private final LongSupplier clockMs;
        private final double capacity = TPM * PROVIDER_BURST_SECONDS / 60.0;
        private double level = capacity;
        private long lastMs = -1;
        /** Admission times (ms) and charges. */
        final List<long[]> admitted = new ArrayList<>();
        int refused;

        BucketProvider(LongSupplier clockMs) {
            this.clockMs = clockMs;
        }

        @Override
        public synchronized ModelOutcome apply(ModelRequest r) {
            long now = clockMs.getAsLong();
            if (lastMs >= 0) {
                level = Math.min(capacity, level + (now - lastMs) * TPM / 60_000.0);
            }
            lastMs = now;
            long cost = r.prompt().promptTokens() + r.prompt().maxTokens();
            if (level < cost) {
                refused++;
                return new ModelOutcome.RateLimited(Optional.of(Duration.ofSeconds(1)), "Rate limit reached", Optional.empty(),
                        Optional.of(cost), headers(), 20);
            }
            level -= cost;
            admitted.add(new long[] {now, cost});
            Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
            for (ModelItem item : r.items()) {
                labels.put(item.id(), new ModelOutcome.Label("billing", "low"));
            }
            return new ModelOutcome.Answered(labels, Map.of(), "stop", r.prompt().promptTokens(), 12L * labels.size(), headers(), 40);
        }

        private RateLimitInfo headers() {
            return new RateLimitInfo(OptionalLong.of(100_000), OptionalLong.of(TPM), OptionalLong.of(99_000),
                    OptionalLong.of((long) Math.floor(level)), Optional.empty(), Optional.empty(), Optional.empty());
        }

        /** Tokens admitted in {@code [fromMs, toMs)}. */
        synchronized long tokensBetween(long fromMs, long toMs) {
            return admitted.stream().filter(a -> a[0] >= fromMs && a[0] < toMs).mapToLong(a -> a[1]).sum();
        }
    }

    @BeforeEach
    @AfterEach
    void forgetStores() {
        SharedMemoryStores.forget();
    }

    private static DispatcherSettings settings() {
        return DispatcherSettings.builder(Fixtures.model(), QuotaSettings.ofDefaults().withRpm(100_000).withTpm((int) TPM),
                BatchSettings.ofDefaults(), RetrySettings.ofDefaults()).build();
    }

    private static byte[] ticket(String id) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            body.append("word").append(i % 89).append(' ');
        }
        return Fixtures.ticket(id, "default", body.toString().strip());
    }

    @Test
    void shouldAdmitAtTheKeysFullRateAtOnceWhenAScopeIsRestoredWithThePreviousOwnersCallsStillOut() {
        // the previous owner: a backlog, and calls out when it stops (they are never answered)
        FakeModelClient first = FakeModelClient.labellingAll("billing", "low").hold();
        Instant stoppedAt;
        try (PipelineHarness h = new PipelineHarness(settings(), ModelClients.of(first), DispatcherListener.NONE,
                PipelineHarness.START, SharedMemoryStores.class)) {
            for (int i = 0; i < 800; i++) {
                h.pipe(Priority.BULK, "T-" + i, ticket("T-" + i));
            }
            h.advance(Duration.ofSeconds(8));
            stoppedAt = h.now();
        }
        assertThat(first.requests()).as("the previous owner left calls out").hasSizeGreaterThanOrEqualTo(2);
        long outTokens = first.requests().stream().mapToLong(r -> r.prompt().promptTokens() + r.prompt().maxTokens()).sum();
        assertThat(outTokens).as("worth more than a second of the key").isGreaterThan(TPM / 60);

        // its next owner, once the session (6 s) has expired and the task restored: 8 s later
        Instant restoredAt = stoppedAt.plusSeconds(8);
        PipelineHarness[] harness = new PipelineHarness[1];
        BucketProvider provider = new BucketProvider(() -> harness[0] == null ? restoredAt.toEpochMilli() : harness[0].now().toEpochMilli());
        FakeModelClient second = new FakeModelClient(provider);
        try (PipelineHarness h = new PipelineHarness(settings(), ModelClients.of(second), DispatcherListener.NONE, restoredAt,
                SharedMemoryStores.class)) {
            harness[0] = h;
            h.advance(Duration.ofSeconds(40));
            long start = restoredAt.toEpochMilli();
            double perSecond = TPM / 60.0;
            assertThat(provider.refused).as("no 429").isZero();
            // its first call goes within a second; from then on the provider's bucket is what binds
            assertThat(provider.admitted).isNotEmpty();
            assertThat(provider.admitted.get(0)[0]).isLessThanOrEqualTo(start + 1_000);
            for (long from = start; from + 10_000 <= start + 40_000; from += 5_000) {
                assertThat(provider.tokensBetween(from, from + 10_000))
                        .as("tokens admitted in the 10 s from %d s after the restore", (from - start) / 1000)
                        .isGreaterThanOrEqualTo((long) (0.9 * perSecond * 10));
            }
        }
    }

    /**
     * Limits left to the headers (the built-in 500 RPM and 200 000 TPM until an answer says the key's): the previous
     * owner learned the key's 60 000 TPM, and its record says so; the next owner, which skips the first-calls guard since
     * the record says the provider sends rate-limit headers, starts at that limit, not at two seconds of the default.
     */
    @Test
    void shouldStartANextOwnerAtTheLimitsThePreviousOneLearnedFromTheHeaders() {
        DispatcherSettings learned = DispatcherSettings.builder(Fixtures.model(), QuotaSettings.ofDefaults(), BatchSettings.ofDefaults(),
                RetrySettings.ofDefaults()).build();
        PipelineHarness[] harness = new PipelineHarness[1];
        DelayedBucketProvider before = new DelayedBucketProvider(TPM, PROVIDER_BURST_SECONDS, () -> harness[0].now().toEpochMilli());
        Instant stoppedAt;
        try (PipelineHarness h = new PipelineHarness(learned, ModelClients.of(before), DispatcherListener.NONE,
                PipelineHarness.START, SharedMemoryStores.class)) {
            harness[0] = h;
            for (int i = 0; i < 800; i++) {
                h.pipe(Priority.BULK, "T-" + i, ticket("T-" + i));
            }
            runFor(h, before, Duration.ofSeconds(20));
            stoppedAt = h.now();
        }
        assertThat(before.tokensBetween(0, Long.MAX_VALUE)).as("the first owner learned the key from its answers").isGreaterThan(TPM / 6);

        Instant restoredAt = stoppedAt.plusSeconds(8);
        harness[0] = null;
        DelayedBucketProvider provider = new DelayedBucketProvider(TPM, PROVIDER_BURST_SECONDS,
                () -> harness[0] == null ? restoredAt.toEpochMilli() : harness[0].now().toEpochMilli());
        try (PipelineHarness h = new PipelineHarness(learned, ModelClients.of(provider), DispatcherListener.NONE, restoredAt,
                SharedMemoryStores.class)) {
            harness[0] = h;
            runFor(h, provider, Duration.ofSeconds(30));
            long start = restoredAt.toEpochMilli();
            // two seconds of the default 200 000 TPM spent before the first answer: 429s on a key whose bucket holds 5 000
            assertThat(provider.refused()).as("no 429").isZero();
            for (long from = start + 5_000; from + 10_000 <= start + 30_000; from += 5_000) {
                assertThat(provider.tokensBetween(from, from + 10_000))
                        .as("tokens admitted in the 10 s from %d s after the restore", (from - start) / 1000)
                        .isGreaterThanOrEqualTo((long) (0.9 * TPM / 6));
            }
        }
    }

    private static void runFor(PipelineHarness h, DelayedBucketProvider provider, Duration duration) {
        Instant end = h.now().plus(duration);
        while (h.now().isBefore(end)) {
            h.advance(Duration.ofMillis(50));
            provider.release();
            h.classified();
        }
    }
}

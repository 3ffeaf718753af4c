package io.quotaflow.quota;

import io.quotaflow.settings.DailyLimits;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The limit shapes beyond RPM and TPM: daily budgets and separate input and output buckets, on an injected epoch clock. */
class QuotaLimiterShapesTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    /** Generous RPM and TPM (100 requests/s, 10 000 tokens/s, 2 s of burst at safety 1): they never bind here. */
    private static final QuotaSettings WIDE = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(600_000).withSafetyFactor(1.0)
            .withBurstSeconds(2);

    private static long nanos(String instant) {
        return Instant.parse(instant).toEpochMilli() * MS;
    }

    private static long millis(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    @Test
    void shouldMakeExactlyRpdCallsADayAndReportOutForTheDayUntilTheReset() {
        long start = nanos("2026-12-01T10:00:00Z");
        QuotaLimiter limiter = new QuotaLimiter(WIDE, new DailyLimits(3, 0, 7), 0, 0, start);
        int admitted = 0;
        for (long t = start + 2 * SECOND; t < start + 60 * SECOND; t += 100 * MS) {
            if (limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(100, 20), t)) {
                admitted++;
            }
        }
        long now = start + 60 * SECOND;
        assertThat(admitted).isEqualTo(3);
        assertThat(limiter.outForDayUntil(now)).hasValue(millis("2026-12-02T07:00:00Z"));
        assertThat(limiter.nanosUntilAdmissible(Priority.INTERACTIVE, Charge.call(100, 20), now))
                .isEqualTo(nanos("2026-12-02T07:00:00Z") - now);
        assertThat(limiter.levels(now).get(QuotaDimension.REQUESTS_PER_DAY)).isEqualTo(new QuotaLevel(3, 0));
        long reset = nanos("2026-12-02T07:00:00Z");
        assertThat(limiter.outForDayUntil(reset)).isEmpty();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(100, 20), reset)).isTrue();
        assertThat(limiter.levels(reset).get(QuotaDimension.REQUESTS_PER_DAY)).isEqualTo(new QuotaLevel(3, 2));
    }

    @Test
    void shouldGiveTheDaysRequestBackWhenARefusedCallIsRefunded() {
        long t = nanos("2026-12-01T10:00:00Z") + 2 * SECOND;
        QuotaLimiter limiter = new QuotaLimiter(WIDE, new DailyLimits(1, 0, 0), 0, 0, t - 2 * SECOND);
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(100, 20), t)).isTrue();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(100, 20), t + MS)).isFalse();
        assertThat(limiter.outForDayUntil(t + MS)).isPresent();
        // the way the dispatcher refunds: by the admitted cost and the time it was sent
        limiter.refund(Charge.call(100, 20), t, t + 500 * MS);
        assertThat(limiter.outForDayUntil(t + 500 * MS)).isEmpty();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(100, 20), t + 500 * MS)).isTrue();
    }

    @Test
    void shouldSpendTheTokensPerDayChargeTheProvidersLargerCountAndRefund() {
        long t = nanos("2026-12-01T10:00:00Z") + 2 * SECOND;
        QuotaLimiter limiter = new QuotaLimiter(WIDE, new DailyLimits(0, 1_000, 0), 0, 0, t - 2 * SECOND);
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(400, 100), t)).isTrue();
        assertThat(limiter.levels(t).get(QuotaDimension.TOKENS_PER_DAY)).isEqualTo(new QuotaLevel(1_000, 500));
        limiter.reconcile(400, 700, t + SECOND);
        assertThat(limiter.levels(t + SECOND).get(QuotaDimension.TOKENS_PER_DAY).available()).as("300 more counted").isEqualTo(200);
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(200, 100), t + SECOND)).isFalse();
        assertThat(limiter.outForDayUntil(t + SECOND)).hasValue(millis("2026-12-02T00:00:00Z"));
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(150, 50), t + SECOND)).isTrue();
        assertThat(limiter.levels(t + SECOND).get(QuotaDimension.TOKENS_PER_DAY).available()).isZero();
        limiter.refund(Charge.call(150, 50), t + SECOND, t + 2 * SECOND);
        assertThat(limiter.levels(t + 2 * SECOND).get(QuotaDimension.TOKENS_PER_DAY).available()).isEqualTo(200);
        assertThat(limiter.outForDayUntil(t + 2 * SECOND)).isEmpty();
    }

    @Test
    void shouldBeOutForTheDayWhenTheProviderSaysTheDayIsSpent() {
        long start = nanos("2026-12-01T10:00:00Z");
        QuotaLimiter limiter = new QuotaLimiter(WIDE, new DailyLimits(10_000, 0, 7), 0, 0, start);
        long t = start + 2 * SECOND;
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(100, 20), t)).isTrue();
        limiter.dayExhausted(t + SECOND);
        assertThat(limiter.outForDayUntil(t + SECOND)).hasValue(millis("2026-12-02T07:00:00Z"));
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(100, 20), t + 2 * SECOND)).isFalse();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(100, 20), nanos("2026-12-02T07:00:00Z"))).isTrue();
        QuotaLimiter none = TestLimiters.of(WIDE).startingAt(start);
        assertThat(none.outForDayUntil(t)).isEmpty();
        none.dayExhausted(t);
        // no daily limit configured: the provider's own per-day quota (Gemini's) still ends the day, until midnight UTC
        assertThat(none.outForDayUntil(t)).hasValue(millis("2026-12-02T00:00:00Z"));
        assertThat(none.tryAcquire(Priority.INTERACTIVE, Charge.call(100, 20), t + SECOND)).isFalse();
        assertThat(none.nanosUntilAdmissible(Priority.INTERACTIVE, Charge.call(100, 20), t + SECOND))
                .isEqualTo(nanos("2026-12-02T00:00:00Z") - t - SECOND);
        assertThat(none.tryAcquire(Priority.INTERACTIVE, Charge.call(100, 20), nanos("2026-12-02T00:00:01Z"))).isTrue();
        assertThat(none.outForDayUntil(nanos("2026-12-02T00:00:01Z"))).isEmpty();
    }

    @Test
    void shouldLetTheInputBucketBindAloneAndRefillContinuously() {
        long start = nanos("2026-12-01T10:00:00Z");
        // 6 000 input tokens/min at safety 1: 100/s, 200 of burst; output generous
        QuotaLimiter limiter = new QuotaLimiter(WIDE, DailyLimits.NONE, 6_000, 600_000, start);
        long full = start + 2 * SECOND;
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(150, 100), full)).isTrue();
        assertThat(limiter.levels(full).get(QuotaDimension.INPUT_TOKENS).available()).isEqualTo(50);
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(150, 100), full)).as("50 input tokens left").isFalse();
        assertThat(limiter.nanosUntilAdmissible(Priority.INTERACTIVE, Charge.call(150, 100), full)).isEqualTo(SECOND);
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(150, 100), full + 990 * MS)).isFalse();
        assertThat(limiter.levels(full + 990 * MS).get(QuotaDimension.INPUT_TOKENS).available()).isCloseTo(149,
                org.assertj.core.data.Offset.offset(1e-6));
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(150, 100), full + SECOND)).isTrue();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(15, 1_000), full + SECOND + 100 * MS)).isFalse();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(5, 1_000), full + SECOND + 100 * MS))
                .as("a small prompt with a large completion budget is not held by the input bucket").isTrue();
        assertThat(limiter.maxRegularPrompt(Priority.INTERACTIVE)).isEqualTo(200);
    }

    @Test
    void shouldLetTheOutputBucketBindAloneAndRefillContinuously() {
        long start = nanos("2026-12-01T10:00:00Z");
        // 60 000 output tokens/min at safety 1: 1 000/s, 2 000 of burst; input generous
        QuotaLimiter limiter = new QuotaLimiter(WIDE, DailyLimits.NONE, 600_000, 60_000, start);
        long full = start + 2 * SECOND;
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(10, 1_500), full)).isTrue();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(10, 1_500), full)).as("500 output tokens left").isFalse();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(3_000, 400), full))
                .as("a large prompt with a small completion budget is not held by the output bucket").isTrue();
        assertThat(limiter.levels(full).get(QuotaDimension.OUTPUT_TOKENS).available()).isEqualTo(100);
        assertThat(limiter.nanosUntilAdmissible(Priority.INTERACTIVE, Charge.call(10, 1_500), full)).isEqualTo(1_400 * MS);
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(10, 1_500), full + 1_399 * MS)).isFalse();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(10, 1_500), full + 1_400 * MS)).isTrue();
        assertThat(limiter.maxRegularPrompt(Priority.INTERACTIVE)).isEqualTo(20_000);
    }

    @Test
    void shouldChargeEachOfInputAndOutputTheWholeCostWhenTheSplitIsUnknown() {
        long start = nanos("2026-12-01T10:00:00Z");
        QuotaLimiter limiter = new QuotaLimiter(WIDE, DailyLimits.NONE, 60_000, 60_000, start);
        long full = start + 2 * SECOND;
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(1_500), full)).isTrue();
        assertThat(limiter.levels(full).get(QuotaDimension.INPUT_TOKENS).available()).isEqualTo(500);
        assertThat(limiter.levels(full).get(QuotaDimension.OUTPUT_TOKENS).available()).isEqualTo(500);
        assertThat(limiter.levels(full).get(QuotaDimension.TOKENS).available()).isEqualTo(18_500);
        assertThat(limiter.levels(full)).doesNotContainKeys(QuotaDimension.REQUESTS_PER_DAY, QuotaDimension.TOKENS_PER_DAY);
    }

    @Test
    void shouldLowerTheInputAndOutputBucketsToTheProvidersSeparateHeaders() {
        long start = nanos("2026-12-01T10:00:00Z");
        QuotaLimiter limiter = new QuotaLimiter(WIDE, DailyLimits.NONE, 60_000, 60_000, start);
        long sent = start + 2 * SECOND;
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(100, 100), sent)).isTrue();
        long first = limiter.lastAdmission();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(300, 200), sent)).isTrue();
        RateLimitInfo.Split split = new RateLimitInfo.Split(OptionalLong.of(60_000), OptionalLong.of(700),
                OptionalLong.of(60_000), OptionalLong.of(1_200));
        RateLimitInfo info = new RateLimitInfo(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), split);
        limiter.answered(first, sent);
        limiter.reseed(info, first, sent, sent);
        // what the provider reported, minus the second call it may not have counted yet
        assertThat(limiter.levels(sent).get(QuotaDimension.INPUT_TOKENS).available()).isEqualTo(400);
        assertThat(limiter.levels(sent).get(QuotaDimension.OUTPUT_TOKENS).available()).isEqualTo(1_000);
        assertThat(limiter.levels(sent).get(QuotaDimension.TOKENS).available()).as("no tokens header: unchanged").isEqualTo(19_300);
    }

    @Test
    void shouldEmptyTheInputAndOutputBucketsInACooldown() {
        long start = nanos("2026-12-01T10:00:00Z");
        QuotaLimiter limiter = new QuotaLimiter(WIDE, DailyLimits.NONE, 60_000, 60_000, start);
        long t = start + 2 * SECOND;
        limiter.rateLimited(java.time.Duration.ofSeconds(1), t);
        assertThat(limiter.levels(t).get(QuotaDimension.INPUT_TOKENS).available()).isZero();
        assertThat(limiter.levels(t).get(QuotaDimension.OUTPUT_TOKENS).available()).isZero();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(10, 10), t + 500 * MS)).isFalse();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(10, 10), t + SECOND)).isTrue();
    }
}

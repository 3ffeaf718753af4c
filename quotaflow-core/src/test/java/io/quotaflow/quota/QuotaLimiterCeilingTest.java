package io.quotaflow.quota;

import io.quotaflow.records.Priority;
import io.quotaflow.settings.LimitOrigin;
import io.quotaflow.settings.QuotaSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A limit the operator set is a ceiling: the provider's headers may lower it, never raise it; a
 * default or {@code auto} limit learns from them both ways (docs/configuration.md, "Limits: ceilings
 * and learning"). The limiter alone, on an injected clock, against a provider that answers every
 * call at once and announces its own limit with a full bucket.
 */
class QuotaLimiterCeilingTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MINUTE = 60 * SECOND;
    private static final long COST = 500;

    /** Admissions of one run: when, how many tokens. */
    private record Run(List<long[]> admitted) {

        /** The most tokens admitted in any 60-second window. */
        long mostInAnyMinute() {
            long most = 0;
            long sum = 0;
            int from = 0;
            for (long[] a : admitted) {
                sum += a[1];
                while (admitted.get(from)[0] <= a[0] - MINUTE) {
                    sum -= admitted.get(from++)[1];
                }
                most = Math.max(most, sum);
            }
            return most;
        }

        long between(long fromNanos, long toNanos) {
            return admitted.stream().filter(a -> a[0] >= fromNanos && a[0] < toNanos).mapToLong(a -> a[1]).sum();
        }
    }

    /**
     * Offers a {@value #COST}-token call every 10 ms for {@code nanos}; every admitted call is answered at once with
     * headers announcing {@code announcedTpm} and {@code remainingTpm} left (a provider whose bucket is that full).
     */
    private static Run hammer(QuotaLimiter limiter, long announcedTpm, long remainingTpm, long nanos) {
        List<long[]> admitted = new ArrayList<>();
        RateLimitInfo info = new RateLimitInfo(OptionalLong.of(100_000), OptionalLong.of(announcedTpm), OptionalLong.of(99_999),
                OptionalLong.of(remainingTpm), Optional.empty(), Optional.empty(), Optional.empty());
        for (long t = 0; t <= nanos; t += SECOND / 100) {
            if (limiter.tryAcquire(Priority.STANDARD, Charge.unsplit(COST), t)) {
                admitted.add(new long[] {t, COST});
                long call = limiter.lastAdmission();
                limiter.answered(call, t);
                limiter.reseed(info, call, t, t);
            }
        }
        return new Run(admitted);
    }

    private static QuotaSettings tpm(int tpm, LimitOrigin origin) {
        return QuotaSettings.ofDefaults().withRpm(100_000, LimitOrigin.SET).withTpm(tpm, origin);
    }

    @Test
    void shouldNeverRaiseASetLimitAboveItsValueWhenTheProviderAnnouncesMore() {
        QuotaLimiter limiter = TestLimiters.of(tpm(20_000, LimitOrigin.SET)).startingAt(0);

        Run run = hammer(limiter, 200_000, 199_000, 3 * MINUTE);

        // 20 000 × 0.98 a minute plus 2 s of local burst (654), within the check's 22 000 (10 % over the limit)
        assertThat(run.mostInAnyMinute()).isLessThanOrEqualTo(19_600 + 654).isGreaterThan(19_000);
        assertThat(limiter.levels(3 * MINUTE).get(QuotaDimension.TOKENS).limit()).isEqualTo(20_000);
        assertThat(limiter.tokenCapacity()).isLessThanOrEqualTo(20_000 * 0.98 / 60 * 2 + 1e-6);
    }

    @ParameterizedTest
    @EnumSource(value = LimitOrigin.class, names = {"DEFAULT", "AUTO"})
    void shouldLearnALimitThatWasNotSetUpToTheAnnouncedOne(LimitOrigin origin) {
        QuotaLimiter limiter = TestLimiters.of(tpm(20_000, origin)).startingAt(0);

        Run run = hammer(limiter, 200_000, 199_000, MINUTE);

        // 100 calls a second of 500 tokens is all the test offers: 50 000 a second, well above 20 000 a minute
        assertThat(run.between(0, MINUTE)).isGreaterThan(1_000_000);
        assertThat(limiter.levels(MINUTE).get(QuotaDimension.TOKENS).limit()).isEqualTo(200_000);
    }

    @Test
    void shouldLowerASetLimitToALowerAnnouncedOne() {
        QuotaLimiter limiter = TestLimiters.of(tpm(20_000, LimitOrigin.SET)).startingAt(0);

        // the provider allows 10 000 and says its bucket holds all of it
        Run run = hammer(limiter, 10_000, 10_000, 3 * MINUTE);

        assertThat(limiter.levels(3 * MINUTE).get(QuotaDimension.TOKENS).limit()).isEqualTo(10_000);
        // after the first answer the refill is 10 000 × 0.98 a minute, the burst 2 s of it
        assertThat(run.between(MINUTE, 2 * MINUTE)).isLessThanOrEqualTo(10_000).isGreaterThan(9_000);
        assertThat(run.between(2 * MINUTE, 3 * MINUTE)).isLessThanOrEqualTo(10_000);
    }

    @Test
    void shouldLowerALearnedLimitToALowerAnnouncedOne() {
        QuotaLimiter limiter = TestLimiters.of(QuotaSettings.ofDefaults()).startingAt(0);

        hammer(limiter, 30_000, 1_000, MINUTE);

        assertThat(limiter.levels(MINUTE).get(QuotaDimension.TOKENS).limit()).isEqualTo(30_000);
    }
}

package io.quotaflow.quota;

import io.quotaflow.records.Priority;
import io.quotaflow.settings.QuotaSettings;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class ScopeUsageTest {

    private static final long MS = 1_000_000L;
    private static final long TIMEOUT = 60_000 * MS;

    @Test
    void shouldCountAPreviousOwnersCallsOnlyUntilATransitAndTheClockMarginAfterItsLastAdmission() {
        ScopeUsage previous = new ScopeUsage(10_000, null);
        // a crash: the task moved once the session (6 s) expired, long after the calls reached the provider
        assertThat(ScopeUsage.inheritedUntil(previous, 17_000 * MS, TIMEOUT)).isEqualTo(11_500 * MS).isLessThan(17_000 * MS);
        // a clean hand-over a moment after the last admission: they may still be on their way
        assertThat(ScopeUsage.inheritedUntil(previous, 10_200 * MS, TIMEOUT)).isEqualTo(11_500 * MS).isGreaterThan(10_200 * MS);
    }

    @Test
    void shouldCountThemUntilTheRequestTimeoutWithoutARecordOfTheLastAdmission() {
        assertThat(ScopeUsage.inheritedUntil(null, 17_000 * MS, TIMEOUT)).isEqualTo(77_000 * MS);
        assertThat(ScopeUsage.inheritedUntil(new ScopeUsage(0, null), 17_000 * MS, TIMEOUT)).isEqualTo(77_000 * MS);
    }

    @Test
    void shouldLetTheFirstReseedFollowTheProviderWhenTheInheritedCallsSurelyReachedIt() {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(30_000).withSafetyFactor(1.0)
                .withBurstSeconds(2).withReserveFraction(0);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(17_000 * MS);
        // two calls of 3 000 tokens out when the previous owner last admitted, at 10 s; taken over at 17 s
        limiter.inherit(2, 3_000, 17_000 * MS, ScopeUsage.inheritedUntil(new ScopeUsage(10_000, null), 17_000 * MS, TIMEOUT));
        long t = 19_000 * MS;
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(500), t)).isTrue();
        long ours = limiter.lastAdmission();
        limiter.answered(ours, t);
        RateLimitInfo info = new RateLimitInfo(OptionalLong.of(6_000), OptionalLong.of(30_000), OptionalLong.of(5_990),
                OptionalLong.of(900), Optional.empty(), Optional.empty(), Optional.empty());
        limiter.reseed(info, ours, t, t);
        assertThat(limiter.availableTokens(t)).as("900 reported; the old owner's calls are in it").isEqualTo(900.0);
    }
}

package io.quotaflow.quota;

import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.records.Priority;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Properties of the limiter over random call sizes and arrival patterns, on an injected clock. */
class QuotaLimiterPropertiesTest {

    private static final long MS = 1_000_000L;

    /** An attempted call: after {@code gapMs}, at a priority, costing {@code cost} tokens. */
    record Attempt(int gapMs, Priority priority, int cost) {
    }

    @Provide
    Arbitrary<List<Attempt>> arrivals() {
        Arbitrary<Attempt> attempt = Combinators.combine(
                Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(0, 5)),
                        net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(5, 200)),
                        net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(200, 3_000))),
                Arbitraries.of(Priority.class),
                Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(8, Arbitraries.integers().between(50, 2_000)),
                        net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(2_000, 12_000))))
                .as(Attempt::new);
        return attempt.list().ofMinSize(50).ofMaxSize(600);
    }

    @Property(tries = 200)
    void shouldNeverAdmitMoreThanBurstPlusRateTimesWindow(@ForAll("arrivals") List<Attempt> attempts,
                                                          @ForAll @IntRange(min = 30, max = 600) int rpm,
                                                          @ForAll @IntRange(min = 10_000, max = 400_000) int tpm) {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(rpm).withTpm(tpm);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        List<long[]> admitted = new ArrayList<>();
        long now = 0;
        for (Attempt a : attempts) {
            now += a.gapMs() * MS;
            if (limiter.tryAcquire(a.priority(), Charge.unsplit(a.cost()), now)) {
                admitted.add(new long[] {now, a.cost()});
            }
        }
        double tokenRate = tpm * settings.safetyFactor() / 60.0;
        double requestRate = rpm * settings.safetyFactor() / 60.0;
        double tokenBurst = limiter.tokenCapacity();
        double requestBurst = limiter.requestCapacity();
        // every window [admitted_i, admitted_j]: what was admitted in it, minus the one oversized call
        // a full bucket may let into debt, stays within burst + rate × W
        for (int i = 0; i < admitted.size(); i++) {
            long tokens = 0;
            long largest = 0;
            for (int j = i; j < admitted.size(); j++) {
                tokens += admitted.get(j)[1];
                largest = Math.max(largest, admitted.get(j)[1]);
                double window = (admitted.get(j)[0] - admitted.get(i)[0]) / 1e9;
                long oversized = largest > tokenBurst ? largest : 0;
                assertThat(tokens - oversized).as("tokens in a %.3f s window", window)
                        .isLessThanOrEqualTo((long) Math.ceil(tokenBurst + tokenRate * window) + 1);
                assertThat(j - i + 1).as("requests in a %.3f s window", window)
                        .isLessThanOrEqualTo((int) Math.floor(requestBurst + requestRate * window + 1e-9) + 1);
            }
        }
    }

    @Property(tries = 200)
    void shouldAdmitNothingDuringACooldown(@ForAll("arrivals") List<Attempt> attempts,
                                           @ForAll @IntRange(min = 1, max = 120) int cooldownSeconds,
                                           @ForAll @IntRange(min = 0, max = 60_000) int cooldownAtMs) {
        QuotaLimiter limiter = TestLimiters.of(QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000)).startingAt(0);
        long start = cooldownAtMs * MS;
        long end = start + Duration.ofSeconds(cooldownSeconds).toNanos();
        boolean cooled = false;
        long now = 0;
        for (Attempt a : attempts) {
            now += a.gapMs() * MS;
            if (!cooled && now >= start) {
                limiter.rateLimited(Duration.ofSeconds(cooldownSeconds), start);
                cooled = true;
            }
            boolean admitted = limiter.tryAcquire(a.priority(), Charge.unsplit(a.cost()), now);
            if (cooled && now < end) {
                assertThat(admitted).as("admitted at %d ms inside a cooldown ending at %d ms", now / MS, end / MS).isFalse();
            }
        }
    }

    @Property(tries = 300)
    void shouldNeverLetReseedingExceedTheProvidersView(@ForAll("arrivals") List<Attempt> attempts,
                                                       @ForAll @IntRange(min = 0, max = 20_000) int remainingTokens,
                                                       @ForAll @IntRange(min = 0, max = 100) int remainingRequests,
                                                       @ForAll @IntRange(min = 0, max = 599) int sentIndex) {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(600).withTpm(200_000);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        List<long[]> admitted = new ArrayList<>();
        long now = 0;
        for (Attempt a : attempts) {
            now += a.gapMs() * MS;
            if (limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(a.cost()), now)) {
                admitted.add(new long[] {now, a.cost()});
            }
        }
        if (admitted.isEmpty()) {
            return;
        }
        long[] sent = admitted.get(Math.min(sentIndex, admitted.size() - 1));
        long later = 0;
        long laterCalls = 0;
        for (long[] a : admitted) {
            if (a[0] > sent[0]) {
                later += a[1];
                laterCalls++;
            }
        }
        long answerAt = now + 300 * MS;
        RateLimitInfo info = new RateLimitInfo(OptionalLong.of(600), OptionalLong.of(200_000), OptionalLong.of(remainingRequests),
                OptionalLong.of(remainingTokens), Optional.empty(), Optional.empty(), Optional.empty());
        double before = limiter.availableTokens(answerAt);
        limiter.reseed(info, sent[0], answerAt);
        double elapsed = (answerAt - sent[0]) / 1e9;
        // refill since the answer at the limiter's own, safety-scaled rate
        double providerTokens = remainingTokens + 200_000 * settings.safetyFactor() / 60.0 * elapsed - later;
        double providerRequests = remainingRequests + 600 * settings.safetyFactor() / 60.0 * elapsed - laterCalls;
        double after = limiter.availableTokens(answerAt);
        if (before > providerTokens) {
            // lowered to the provider's view
            assertThat(after).isCloseTo(providerTokens, org.assertj.core.data.Offset.offset(1e-6));
        } else {
            // raised at most to it, and never above the reported limit (× the safety factor) minus later admissions
            assertThat(after).isGreaterThanOrEqualTo(before - 1e-6).isLessThanOrEqualTo(providerTokens + 1e-6)
                    .isLessThanOrEqualTo(200_000 * settings.safetyFactor() + 1e-6);
        }
        assertThat(limiter.availableRequests(answerAt)).isLessThanOrEqualTo(Math.max(providerRequests, 0) + 1e-6 + 0)
                .isLessThanOrEqualTo(600 * settings.safetyFactor() + 1e-6);
    }

    /**
     * A provider bucket with the same rule (capacity + rate × W), that refuses a share of calls
     * before admitting them (context length, auth): a refunded call costs neither side anything,
     * so what the provider admitted in any window still fits its bucket.
     */
    @Property(tries = 200)
    void shouldNeverLetRefundsAdmitMoreThanTheProviderAllowed(@ForAll("arrivals") List<Attempt> attempts,
                                                             @ForAll @IntRange(min = 0, max = 90) int refusedPercent,
                                                             @ForAll @IntRange(min = 10_000, max = 400_000) int tpm) {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(tpm);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        java.util.SplittableRandom random = new java.util.SplittableRandom(attempts.size() * 31L + refusedPercent);
        List<long[]> charged = new ArrayList<>();
        long now = 0;
        for (Attempt a : attempts) {
            now += a.gapMs() * MS;
            if (limiter.tryAcquire(a.priority(), Charge.unsplit(a.cost()), now)) {
                if (random.nextInt(100) < refusedPercent) {
                    limiter.refund(Charge.unsplit(a.cost()), now, now + 50 * MS);
                } else {
                    charged.add(new long[] {now, a.cost()});
                }
            }
        }
        double rate = tpm * settings.safetyFactor() / 60.0;
        double burst = limiter.tokenCapacity();
        for (int i = 0; i < charged.size(); i++) {
            long tokens = 0;
            long largest = 0;
            for (int j = i; j < charged.size(); j++) {
                tokens += charged.get(j)[1];
                largest = Math.max(largest, charged.get(j)[1]);
                double window = (charged.get(j)[0] - charged.get(i)[0]) / 1e9;
                long oversized = largest > burst ? largest : 0;
                // a refund lands 50 ms after the call: the bucket may hold that much refill more
                assertThat(tokens - oversized).isLessThanOrEqualTo((long) Math.ceil(burst + rate * (window + 0.05)) + 1);
            }
        }
    }

    @Property(tries = 200)
    void shouldUseAFullMinuteBucketThatTheProviderReports(@ForAll @IntRange(min = 1_000, max = 60_000) int remaining) {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(500).withTpm(60_000);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        long t = 10_000 * MS;
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(500), t)).isTrue();
        RateLimitInfo info = new RateLimitInfo(OptionalLong.of(500), OptionalLong.of(60_000), OptionalLong.of(499),
                OptionalLong.of(remaining), Optional.empty(), Optional.empty(), Optional.empty());
        double before = limiter.availableTokens(t + 200 * MS);
        double refill = 1_000 * settings.safetyFactor() * 0.2;
        limiter.reseed(info, t, t + 200 * MS);
        // lowered: to what it reported plus the refill since; raised: to what it reported, no refill on top (a bucket
        // that reported `remaining` may have been full at it, and a full bucket does not refill)
        double expected = remaining + refill < before ? remaining + refill
                : Math.max(before, Math.min(remaining, limiter.tokenCapacity()));
        assertThat(limiter.availableTokens(t + 200 * MS)).isCloseTo(expected, org.assertj.core.data.Offset.offset(1.0));
        assertThat(limiter.tokenCapacity()).isLessThanOrEqualTo(60_000 * settings.safetyFactor() + 1e-6)
                .isGreaterThanOrEqualTo(Math.min(60_000 * settings.safetyFactor(), remaining * settings.safetyFactor()) - 1e-6);
        // within a minute after a 429, nothing is raised
        limiter.rateLimited(Duration.ofSeconds(1), t + 300 * MS);
        double low = limiter.availableTokens(t + 1_400 * MS);
        limiter.reseed(info, t + 1_300 * MS, t + 1_400 * MS);
        assertThat(limiter.availableTokens(t + 1_400 * MS)).isLessThanOrEqualTo(low + 1e-6);
    }

    /**
     * Calls still unanswered when the provider answered one may not be in its count, whichever
     * order they arrived in: reseeding by admission subtracts every one of them.
     */
    @Property(tries = 200)
    void shouldSubtractEveryCallStillOutWhenReseedingByAdmission(@ForAll @IntRange(min = 2, max = 20) int calls,
                                                                @ForAll @IntRange(min = 0, max = 19) int answeredIndex,
                                                                @ForAll @IntRange(min = 0, max = 50_000) int remaining) {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(600_000).withBurstSeconds(10);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        long t = 30_000 * MS;
        List<Long> seqs = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            // all in one punctuation: the same instant
            assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(1_000), t)).isTrue();
            seqs.add(limiter.lastAdmission());
        }
        int answered = Math.min(answeredIndex, calls - 1);
        RateLimitInfo info = new RateLimitInfo(OptionalLong.of(6_000), OptionalLong.of(600_000), OptionalLong.of(5_000),
                OptionalLong.of(remaining), Optional.empty(), Optional.empty(), Optional.empty());
        limiter.reseed(info, seqs.get(answered), t, t);
        assertThat(limiter.availableTokens(t)).isLessThanOrEqualTo(remaining - 1_000.0 * (calls - 1) + 1e-6);
        limiter.answered(seqs.get(answered), 1);
    }
}

package io.quotaflow.quota;

import io.quotaflow.settings.LimitOrigin;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class QuotaLimiterTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void shouldStartEmptyAndRefillContinuously() {
        // 600 RPM, 60k TPM at safety 1: 10 requests/s, 1000 tokens/s, 2 s of burst
        QuotaLimiter limiter = TestLimiters.of(QuotaSettings.ofDefaults().withRpm(600).withTpm(60_000).withSafetyFactor(1.0)).startingAt(0);
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(100), 0)).isFalse();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(100), SECOND / 10)).isTrue();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(100), SECOND / 10)).isFalse();
    }

    @Test
    void shouldNeverAdmitMoreThanBurstPlusRateTimesWindow() {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(600).withTpm(60_000).withSafetyFactor(1.0).withBurstSeconds(2);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        long admitted = 0;
        long calls = 0;
        // hammer it every millisecond for 60 s with 250-token calls
        for (long t = 0; t <= 60 * SECOND; t += SECOND / 1000) {
            if (limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(250), t)) {
                admitted += 250;
                calls++;
            }
        }
        // burst 2000 + 1000/s × 60 s
        assertThat(admitted).isLessThanOrEqualTo(2_000 + 60_000).isGreaterThan(55_000);
        assertThat(calls).isLessThanOrEqualTo(20 + 600);
    }

    @Test
    void shouldKeepTheReserveForInteractiveWork() {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(60_000).withSafetyFactor(1.0)
                .withBurstSeconds(2).withReserveFraction(0.5);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        long full = 2 * SECOND; // bucket full: 2000 tokens
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(900), full)).isTrue();
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(200), full)).as("would dig into the reserve").isFalse();
        assertThat(limiter.tryAcquire(Priority.STANDARD, Charge.unsplit(200), full)).isFalse();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(1_000), full)).isTrue();
    }

    /**
     * A backlog's last calls, told what waits behind them: with no interactive work admitted in the last five
     * minutes the reserve is held back only from work still waiting, so the last call spends it; while interactive
     * work is about, or when the caller does not say what waits, it holds.
     */
    @Test
    void shouldLetABacklogsLastCallsSpendTheReserveOnlyWhileNoInteractiveWorkIsAbout() {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(60_000).withSafetyFactor(1.0)
                .withBurstSeconds(2).withReserveFraction(0.5);
        long t = 1_900_000_000L; // 1 900 tokens of a 2 000 capacity (a full bucket admits any call), 1 000 the reserve
        Charge last = Charge.unsplit(1_800);
        Charge nothing = Charge.NONE;
        assertThat(TestLimiters.of(settings).startingAt(0).tryAcquire(Priority.BULK, last, nothing, t))
                .as("the last call, nothing behind it").isTrue();
        assertThat(TestLimiters.of(settings).startingAt(0).tryAcquire(Priority.BULK, last, Charge.unsplit(400), t))
                .as("400 behind it: 400 of the reserve held").isFalse();
        assertThat(TestLimiters.of(settings).startingAt(0).tryAcquire(Priority.BULK, Charge.unsplit(1_400), Charge.unsplit(400), t))
                .isTrue();
        assertThat(TestLimiters.of(settings).startingAt(0).tryAcquire(Priority.BULK, last, t)).as("what waits not told").isFalse();

        QuotaLimiter interactive = TestLimiters.of(settings).startingAt(0);
        assertThat(interactive.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(10), SECOND)).isTrue();
        long later = 4 * 60 * SECOND; // the bucket full again, the interactive call four minutes ago
        assertThat(interactive.tryAcquire(Priority.BULK, Charge.unsplit(100), later)).isTrue();
        assertThat(interactive.tryAcquire(Priority.BULK, last, nothing, later)).as("interactive work about").isFalse();
        assertThat(interactive.nanosUntilAdmissible(Priority.BULK, last, nothing, later)).isPositive();
        long quiet = SECOND + QuotaLimiter.INTERACTIVE_ABOUT_NANOS + SECOND;
        assertThat(interactive.tryAcquire(Priority.BULK, Charge.unsplit(100), quiet)).isTrue();
        assertThat(interactive.nanosUntilAdmissible(Priority.BULK, last, nothing, quiet)).isZero();
        assertThat(interactive.tryAcquire(Priority.BULK, last, nothing, quiet)).as("five minutes without interactive work").isTrue();
    }

    @Test
    void shouldHoldBackOnlyTheLocalBurstsReserveWhenTheProviderHoldsAFullMinute() {
        // 30k TPM at safety 1 with 2 s of local burst (1000 tokens), reserve a quarter of it (250)
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(30_000).withSafetyFactor(1.0)
                .withBurstSeconds(2).withReserveFraction(0.25);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        long t = 2 * SECOND;
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(700), t)).isTrue();
        long first = limiter.lastAdmission();
        limiter.answered(first, 1);
        // the provider holds a full minute and has 29 300 left after that call
        RateLimitInfo info = new RateLimitInfo(OptionalLong.of(6_000), OptionalLong.of(30_000), OptionalLong.of(5_999),
                OptionalLong.of(29_300), Optional.empty(), Optional.empty(), Optional.empty());
        limiter.reseed(info, first, t, t);
        assertThat(limiter.tokenCapacity()).isEqualTo(29_300.0);
        // bulk may spend all of it but the local burst's reserve: 29 300 - 250
        long bulk = 0;
        while (limiter.tryAcquire(Priority.BULK, Charge.unsplit(50), t)) {
            bulk += 50;
        }
        assertThat(bulk).isEqualTo(29_050);
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(250), t)).as("the reserve is still there for interactive").isTrue();
    }

    @Test
    void shouldCountAPreviousOwnersCallsAsUnchargedUntilTheyExpire() {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(30_000).withSafetyFactor(1.0)
                .withBurstSeconds(2).withReserveFraction(0);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        // the previous owner had two calls out, 3 000 tokens in all; they may reach the provider after ours
        limiter.inherit(2, 3_000, 0, 60 * SECOND);
        long t = 2 * SECOND;
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(500), t)).isTrue();
        long ours = limiter.lastAdmission();
        limiter.answered(ours, 1);
        RateLimitInfo info = new RateLimitInfo(OptionalLong.of(6_000), OptionalLong.of(30_000), OptionalLong.of(5_990),
                OptionalLong.of(20_000), Optional.empty(), Optional.empty(), Optional.empty());
        limiter.reseed(info, ours, t, t);
        assertThat(limiter.availableTokens(t)).as("20 000 reported, 3 000 of the old owner's not yet in it").isEqualTo(17_000.0);
        // once the request timeout has passed they were charged or never will be
        long later = 61 * SECOND;
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(1), later)).isTrue();
        long next = limiter.lastAdmission();
        limiter.answered(next, 1);
        limiter.reseed(info, next, later, later);
        assertThat(limiter.availableTokens(later)).isEqualTo(20_000.0);
    }

    @Test
    void shouldNotRaiseOverACallThatOvertookTheAnsweredOneOnTheWay() {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(120_000).withSafetyFactor(1.0)
                .withBurstSeconds(2).withReserveFraction(0);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        long t = 2 * SECOND; // full: 4 000 tokens
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(2_000), t)).isTrue();
        long a = limiter.lastAdmission();
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(1_000), t)).isTrue();
        long b = limiter.lastAdmission();
        // b reached the provider first (it then had 9 000 left), a after it (7 000 left); a's answer comes back first
        RateLimitInfo afterB = new RateLimitInfo(OptionalLong.of(6_000), OptionalLong.of(120_000), OptionalLong.of(5_998),
                OptionalLong.of(9_000), Optional.empty(), Optional.empty(), Optional.empty());
        RateLimitInfo afterA = new RateLimitInfo(OptionalLong.of(6_000), OptionalLong.of(120_000), OptionalLong.of(5_997),
                OptionalLong.of(7_000), Optional.empty(), Optional.empty(), Optional.empty());
        long answer = t + SECOND / 1000; // 1 ms later: 2 tokens of refill
        limiter.reseed(afterA, a, answer, answer);
        limiter.answered(a, answer);
        assertThat(limiter.availableTokens(answer)).as("7 000 left, b (1 000) not yet answered").isEqualTo(6_000.0);
        limiter.reseed(afterB, b, answer, answer);
        limiter.answered(b, answer);
        assertThat(limiter.availableTokens(answer)).as("b's 9 000 may not hold a, answered after b was sent").isEqualTo(7_000.0);
    }

    /**
     * b's headers were taken between its send and its receipt. Taken after a's answer, they hold a;
     * taken before, they may not, but the provider has refilled since: the raise takes the lower of
     * the two cases, not both penalties at once (a subtracted and no refill credited).
     */
    @Test
    void shouldCreditRefillSinceTheMomentACallAnsweredMeanwhileMayNotBeCounted() {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(60_000).withSafetyFactor(1.0)
                .withBurstSeconds(2).withReserveFraction(0);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        long ms = SECOND / 1000;
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(1_000), 2_000 * ms)).isTrue();
        long z = limiter.lastAdmission();
        // z's answer: the provider holds at least 3 000
        limiter.reseed(tokens(3_000), z, 2_100 * ms, 2_100 * ms);
        limiter.answered(z, 2_100 * ms);
        assertThat(limiter.availableTokens(2_100 * ms)).isEqualTo(3_000.0);
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(1_500), 2_100 * ms)).isTrue();
        long a = limiter.lastAdmission();
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(1_000), 2_600 * ms)).isTrue();
        long b = limiter.lastAdmission();
        // a's answer says nothing is left: lowered to 0 minus b, which it may not hold
        limiter.reseed(tokens(0), a, 3_600 * ms, 3_600 * ms);
        limiter.answered(a, 3_600 * ms);
        assertThat(limiter.availableTokens(3_600 * ms)).isEqualTo(-1_000.0);
        // b's answer at 4.1 s: 2 500 left. Taken at 4.1 s: a is in it, 2 500. Taken just before a's answer (3.6 s): a
        // may be missing (-1 500), 0.5 s of refill (+500) within the 3 000 the provider was seen to hold: 1 500.
        limiter.reseed(tokens(2_500), b, 4_100 * ms, 4_100 * ms);
        limiter.answered(b, 4_100 * ms);
        assertThat(limiter.availableTokens(4_100 * ms)).as("the lower case, not 2 500 - 1 500 = 1 000").isEqualTo(1_500.0);
    }

    /**
     * The provider takes its headers when it admits a call. A large call a went out a second before
     * a small one b; b comes back first, a is still out. a reached the provider long before b, so b's
     * headers (taken at b's admission) count it: the lowering must not subtract it again.
     */
    @Test
    void shouldNotSubtractAgainACallSentWellBeforeTheAnsweredOneThatIsStillOut() {
        QuotaLimiter limiter = twoThousandPerSecond();
        long ms = SECOND / 1000;
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(2_000), 2_000 * ms)).isTrue();
        long a = limiter.lastAdmission();
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(500), 3_000 * ms)).isTrue();
        long b = limiter.lastAdmission();
        // local: 4 000 - 2 000, +2 000 of refill (full again), -500 = 3 500; the provider said the same at b's admission
        assertThat(limiter.availableTokens(3_000 * ms)).isEqualTo(3_500.0);

        limiter.reseed(tokens120k(3_000), b, 3_500 * ms, 3_500 * ms);

        assertThat(limiter.availableTokens(3_500 * ms)).as("3 000 reported, a already in it").isEqualTo(3_000.0);
    }

    /** A call sent just before the answered one may have reached the provider after it: still subtracted. */
    @Test
    void shouldSubtractACallSentJustBeforeTheAnsweredOneThatMayHaveArrivedAfterIt() {
        QuotaLimiter limiter = twoThousandPerSecond();
        long ms = SECOND / 1000;
        // no round trip seen yet: the transit is at its bound
        long transitMs = TransitBound.MAX_NANOS / ms;
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(2_000), 2_000 * ms)).isTrue();
        long a = limiter.lastAdmission();
        long sentB = (2_000 + transitMs / 2) * ms;
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(500), sentB)).isTrue();
        long b = limiter.lastAdmission();

        limiter.reseed(tokens120k(3_000), b, sentB, sentB);

        assertThat(limiter.availableTokens(sentB)).as("a (2 000) may not be in b's 3 000").isEqualTo(1_000.0);
        assertThat(a).isLessThan(b);
    }

    /**
     * On a provider that answers in 200 ms a call cannot take 300 ms to get there: one sent 300 ms
     * before the answered one, still out, is in its headers (with no round trip seen, it would be
     * subtracted: 500 ms is the transit's bound).
     */
    @Test
    void shouldBoundTheTransitByTheQuickestRoundTrip() {
        QuotaLimiter limiter = twoThousandPerSecond();
        long ms = SECOND / 1000;
        for (long t = 2_000 * ms; t < 3_000 * ms; t += 250 * ms) {
            assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(10), t)).isTrue();
            long quick = limiter.lastAdmission();
            limiter.reseed(tokens120k(3_000), quick, t + 200 * ms, t + 200 * ms);
            limiter.answered(quick, t + 200 * ms);
        }
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(2_000), 3_000 * ms)).isTrue();
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(500), 3_300 * ms)).isTrue();
        long b = limiter.lastAdmission();

        limiter.reseed(tokens120k(1_000), b, 3_500 * ms, 3_500 * ms);

        assertThat(limiter.availableTokens(3_500 * ms)).as("1 000 reported, the call sent 300 ms before already in it").isEqualTo(1_000.0);
    }

    /**
     * Bulk has spent the bucket down to its reserve while slow bulk calls are out; a quick call's
     * answer re-seeds the level from a snapshot taken at its admission, which already counts them.
     * The reserve is still there for an interactive ticket, which goes at once.
     */
    @Test
    void shouldKeepTheInteractiveReserveThroughAReseedWhileSlowCallsAreOut() {
        // 120k TPM at safety 1: 2 000 tokens/s, 2 s of burst (4 000), a quarter of it (1 000) reserved
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(120_000).withSafetyFactor(1.0)
                .withBurstSeconds(2).withReserveFraction(0.25);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        long ms = SECOND / 1000;
        long t = 2_000 * ms;
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(1_500), t)).isTrue();
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(1_500), t)).isTrue();
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(100), t)).as("the reserve is bulk's floor").isFalse();
        long quickSent = t + 1_000 * ms;
        // a second of refill (2 000), then a quick bulk call spends it down to the reserve again
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(2_000), quickSent)).isTrue();
        long quick = limiter.lastAdmission();
        assertThat(limiter.availableTokens(quickSent)).isEqualTo(1_000.0);
        // the provider's bucket is ours: 1 000 left at the quick call's admission, the two slow calls in it
        long answer = quickSent + 200 * ms;
        limiter.reseed(tokens120k(1_000), quick, answer, answer);
        limiter.answered(quick, answer);

        assertThat(limiter.availableTokens(answer)).as("not 1 000 - 3 000 for the slow calls out").isEqualTo(1_000.0);
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(1_000), answer)).as("the reserve holds").isTrue();
    }

    /**
     * A re-seed takes the level into the reserve while interactive work is about (the headers'
     * snapshot is subtracted with a margin, so this happens under load): from then on bulk leaves
     * what the lowering took on top of the reserve, so that the next such lowering leaves interactive
     * work its reserve; what it leaves halves every minute. Without interactive work nothing changes.
     */
    @ParameterizedTest(name = "interactive work about: {0}")
    @ValueSource(booleans = {true, false})
    void shouldMakeBulkLeaveWhatALoweringTookOfTheReserveWhileInteractiveWorkIsAbout(boolean interactive) {
        QuotaLimiter limiter = loweredIntoTheReserve(interactive ? Priority.INTERACTIVE : Priority.BULK);
        long t = 4 * SECOND;

        // two seconds later the bucket holds 3 100; bulk may spend it down to the reserve, plus what was taken
        long later = t + 2 * SECOND;
        double extra = interactive ? 1_900 * Math.pow(0.5, 2 / 60.0) : 0;
        long bulkRoom = (long) Math.floor(3_100 - 1_000 - extra);
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(bulkRoom + 2), later)).isFalse();
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(bulkRoom - 1), later)).isTrue();
        assertThat(limiter.availableTokens(later)).isCloseTo(1_000 + extra, within(2.0));

        // a minute on, what the lowering took is half forgotten
        long minute = later + 60 * SECOND;
        assertThat(limiter.nanosUntilAdmissible(Priority.BULK, Charge.unsplit(1), minute)).isZero();
        assertThat(limiter.maxRegularCost(Priority.BULK)).isCloseTo((long) (8_000 - 1_000 - extra / 2), within(1L));
    }

    /**
     * The same lowering with interactive work about: bulk leaves what it took on top of the reserve
     * only as far as more work waits behind the call; the last calls of a backlog may spend it, never
     * the reserve itself, and a caller that does not say what waits leaves all of it.
     */
    @Test
    void shouldLetTheLastCallsOfABacklogSpendWhatALoweringAddedButNeverTheReserve() {
        QuotaLimiter limiter = loweredIntoTheReserve(Priority.INTERACTIVE);
        long t = 4 * SECOND;
        long later = t + 2 * SECOND;
        // 3 100 in the bucket, 1 000 of it the reserve: 2 100 above it, 1 900 × 0.5^(2/60) of that what the lowering took
        Charge call = Charge.unsplit(1_500);

        assertThat(limiter.nanosUntilAdmissible(Priority.BULK, call, later)).as("nothing said of what waits: the whole floor").isPositive();
        assertThat(limiter.nanosUntilAdmissible(Priority.BULK, call, Charge.unsplit(1_000), later))
                .as("1 000 waits behind it: bulk leaves that much of the extra").isPositive();
        assertThat(limiter.nanosUntilAdmissible(Priority.BULK, call, Charge.unsplit(600), later)).isZero();
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(2_101), Charge.NONE, later))
                .as("the last call of a backlog never takes the reserve").isFalse();
        assertThat(limiter.tryAcquire(Priority.BULK, call, Charge.NONE, later)).as("the last call spends the extra").isTrue();
        assertThat(limiter.availableTokens(later)).isEqualTo(1_600.0);
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(601), Charge.NONE, later)).isFalse();
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(600), Charge.NONE, later)).isTrue();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(1_000), later)).as("the reserve is left").isTrue();
    }

    /**
     * A limiter of 120k TPM at safety 1 (2 000 tokens/s, 4 s of burst: 8 000, an eighth of it, 1 000,
     * reserved) whose level a re-seed at 4 s lowered 1 900 into the reserve, to -900, with calls of
     * {@code small} on either side of a bulk call.
     */
    private static QuotaLimiter loweredIntoTheReserve(Priority small) {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(120_000).withSafetyFactor(1.0)
                .withBurstSeconds(4).withReserveFraction(0.125);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        long t = 4 * SECOND;
        assertThat(limiter.tryAcquire(small, Charge.unsplit(100), t)).isTrue();
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(6_100), t)).isTrue();
        long bulk = limiter.lastAdmission();
        assertThat(limiter.tryAcquire(small, Charge.unsplit(800), t)).isTrue();
        assertThat(limiter.availableTokens(t)).as("bulk's floor").isEqualTo(1_000.0);
        // the provider had nothing left when it admitted the bulk call; the call after it and the one sent
        // with it may not be counted yet: 1 900 taken from the reserve
        limiter.reseed(tokens120k(0), bulk, t, t);
        limiter.answered(bulk, t);
        assertThat(limiter.availableTokens(t)).isEqualTo(-900.0);
        return limiter;
    }

    @Test
    void shouldGiveBackWhatTheProviderCountedLessThanEstimatedButNeverTakeMore() {
        QuotaLimiter limiter = twoThousandPerSecond();
        long t = 2 * SECOND;
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.call(1_100, 100), t)).isTrue();
        assertThat(limiter.availableTokens(t)).isEqualTo(2_800.0);

        limiter.overestimated(1_100, 1_000, t);
        assertThat(limiter.availableTokens(t)).as("the provider charged 1 000 + 100").isEqualTo(2_900.0);
        limiter.overestimated(1_000, 1_200, t);
        assertThat(limiter.availableTokens(t)).as("a larger count is reconcile's").isEqualTo(2_900.0);
        limiter.overestimated(1_000, 0, t);
        assertThat(limiter.availableTokens(t)).as("no count: nothing to go by").isEqualTo(2_900.0);
    }

    /**
     * A provider whose headers are snapshots taken at admission, with calls of two seconds and half a
     * second in turn: once the limiter has learned the moment, an answer credits the refill since the
     * call's admission (less a transit), where the view "anywhere in between" credits none of it.
     */
    @Test
    void shouldCreditRefillSinceAdmissionOnceItLearnedTheHeadersAreTakenThen() {
        assertThat(new AdmissionTimed().taught().headerMoment()).isEqualTo(HeaderTiming.Moment.ADMISSION);
    }

    /**
     * Two calls started in one tick, answered by a provider whose headers are admission snapshots:
     * charged in the order sent, the second's answer already counts the first, and the level follows
     * the provider (less the refill of the first 500 ms, the transit margin) instead of subtracting
     * the first again; charged the other way round (the first overtaken on the way), the second's
     * answer does not count the first, and the level stays at or below the provider's (here the pair
     * of answers also contradicts admission snapshots, and {@link HeaderTiming} forgets the moment;
     * {@code AdmissionLogTest} holds the ordering rule itself to such a call).
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void shouldOrderCallsOfOneTickByTheirOwnHeaders(boolean inOrder) {
        long ms = SECOND / 1000;
        AdmissionTimed provider = new AdmissionTimed();
        QuotaLimiter limiter = provider.taught();
        assertThat(limiter.headerMoment()).isEqualTo(HeaderTiming.Moment.ADMISSION);
        long t = provider.now + 1_000 * ms;
        double level = provider.level + 2_000 * (t - provider.now) / (double) SECOND;
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(700), t)).isTrue();
        long first = limiter.lastAdmission();
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(700), t + ms)).isTrue();
        long second = limiter.lastAdmission();
        // both reach the provider within 20 ms: no refill to speak of in between
        double firstLeft = inOrder ? level - 700 : level - 1_400;
        double secondLeft = inOrder ? level - 1_400 : level - 700;
        long answers = t + 300 * ms;
        limiter.reseed(tokens120k((long) firstLeft), first, answers, answers);
        limiter.answered(first, answers);
        limiter.reseed(tokens120k((long) secondLeft), second, answers + 10 * ms, answers + 10 * ms);
        limiter.answered(second, answers + 10 * ms);

        double truth = level - 1_400 + 2_000 * 0.31;
        assertThat(limiter.availableTokens(answers + 10 * ms)).as("the provider holds %.0f", truth)
                .isLessThanOrEqualTo(truth);
        if (inOrder) {
            assertThat(limiter.headerMoment()).as("still known as admission snapshots").isEqualTo(HeaderTiming.Moment.ADMISSION);
            // at most the first 500 ms of refill (1 000 tokens) not credited; not the first call's 700 subtracted again too
            assertThat(limiter.availableTokens(answers + 10 * ms)).isGreaterThan(truth - 1_000);
        }
    }

    /**
     * A provider of 2 000 tokens/s whose headers are admission snapshots (a 20 s bucket starting at
     * 10 000), and a limiter taught by 18 s of 500-token calls every 250 ms, two seconds and half a
     * second in turn, all answered.
     */
    private static final class AdmissionTimed {
        double level = 10_000;
        long now;

        QuotaLimiter taught() {
            QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(120_000).withSafetyFactor(1.0)
                    .withBurstSeconds(2).withReserveFraction(0);
            QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
            long ms = SECOND / 1000;
            java.util.List<long[]> out = new java.util.ArrayList<>();
            for (now = 2_000 * ms; now < 20_000 * ms || !out.isEmpty(); now += 250 * ms) {
                level += 2_000 * 0.25;
                for (java.util.Iterator<long[]> it = out.iterator(); it.hasNext(); ) {
                    long[] c = it.next();
                    if (c[2] <= now) {
                        limiter.reseed(tokens120k(c[3]), c[0], c[2], now);
                        limiter.answered(c[0], now);
                        it.remove();
                    }
                }
                if (now < 20_000 * ms && limiter.tryAcquire(Priority.BULK, Charge.unsplit(500), now)) {
                    level -= 500;
                    long latency = out.size() % 2 == 0 ? 2_000 : 500;
                    out.add(new long[] {limiter.lastAdmission(), now, now + latency * ms, (long) level});
                }
            }
            now -= 250 * ms;
            return limiter;
        }
    }

    @Test
    void shouldCreditANewOwnerTheRefillSinceThePreviousOwnersLastAdmissionUpToTheSession() {
        long sixSeconds = 6 * SECOND;
        // the previous owner admitted its last call 1 s ago: 1 s of refill, 2 000 tokens, is certain
        assertAdmitsThenRefuses(takenOver(99_000, sixSeconds, 0, 0), 1_900, 200);
        // 30 s ago, but a call it never committed may have gone out as late as a session (6 s) ago:
        // 12 000 tokens, capped at the 4 000 the bucket holds
        assertAdmitsThenRefuses(takenOver(70_000, sixSeconds, 0, 0), 4_000, 100);
        // with a 1 s session only 1 s of refill is certain, however long ago the last recorded call
        assertAdmitsThenRefuses(takenOver(70_000, SECOND, 0, 0), 1_900, 200);
        // its calls still out count as charged after it: 2 s of refill less 3 000 tokens
        assertAdmitsThenRefuses(takenOver(98_000, sixSeconds, 3, 3_000), 900, 200);
    }

    /** A limiter at 100 s that took over from an owner whose last call was at {@code lastAdmittedMs}. */
    private static QuotaLimiter takenOver(long lastAdmittedMs, long boundNanos, int calls, long tokens) {
        QuotaLimiter limiter = twoThousandPerSecondFrom(100 * SECOND);
        limiter.takeOver(new ScopeUsage(lastAdmittedMs, null, true, 6_000, 120_000), boundNanos, calls, tokens, 0, 100 * SECOND);
        return limiter;
    }

    private static void assertAdmitsThenRefuses(QuotaLimiter limiter, long fits, long more) {
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(fits), 100 * SECOND)).as("%d tokens at once", fits).isTrue();
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(more), 100 * SECOND)).as("%d more", more).isFalse();
    }

    @Test
    void shouldCreditWithoutARecordOnlyTheRefillSinceThisInstanceStartedUpToTheSession() {
        long now = 100 * SECOND;
        QuotaLimiter assignedAtStart = startedAgo(0, 6 * SECOND);
        assertThat(assignedAtStart.tryAcquire(Priority.BULK, Charge.unsplit(100), now)).as("started just now: another client may have used the key").isFalse();

        // a task assigned 1.5 s after the instance started (the rebalance of a second instance joining): 3 000 tokens of refill
        assertAdmitsThenRefuses(startedAgo(1_500, 6 * SECOND), 2_900, 200);
        // started a minute ago: the bucket's 4 000, as for a task assigned at start
        assertAdmitsThenRefuses(startedAgo(60_000, 6 * SECOND), 4_000, 100);
        // a 1 s session bounds it as it bounds a record's
        assertAdmitsThenRefuses(startedAgo(60_000, SECOND), 1_900, 200);

        QuotaLimiter never = TestLimiters.of(QuotaSettings.ofDefaults().withRpm(6_000, LimitOrigin.SET).withTpm(120_000, LimitOrigin.SET).withSafetyFactor(1.0)
                .withBurstSeconds(2).withReserveFraction(0)).startingAt(now);
        never.takeOver(new ScopeUsage(0, null), 6 * SECOND, 0, 0, now - SECOND, now);
        assertThat(never.tryAcquire(Priority.BULK, Charge.unsplit(1_900), now)).as("a record without an admission: as none").isTrue();
    }

    @Test
    void shouldAdoptTheLimitsARecordCarriesAndCreditNoRefillToALimitStillToBeLearned() {
        long now = 100 * SECOND;
        // limits left to the headers: the built-in defaults, 500 RPM and 200 000 TPM, until an answer says the key's
        QuotaSettings learned = QuotaSettings.ofDefaults().withSafetyFactor(1.0).withBurstSeconds(2).withReserveFraction(0);
        QuotaLimiter unknown = TestLimiters.of(learned).startingAt(now);
        unknown.takeOver(new ScopeUsage(99_000, null, true), 6 * SECOND, 0, 0, 0, now);
        assertThat(unknown.tryAcquire(Priority.BULK, Charge.unsplit(100), now)).as("a default limit earns its burst from empty").isFalse();
        QuotaLimiter started = TestLimiters.of(learned).startingAt(now);
        started.takeOver(null, 6 * SECOND, 0, 0, 0, now);
        assertThat(started.tryAcquire(Priority.BULK, Charge.unsplit(100), now)).as("nor since the instance started").isFalse();

        // the previous owner had learned 120 000 TPM: adopted, and 1 s of its refill credited (2 000), not 1 s of the default's
        QuotaLimiter recorded = TestLimiters.of(learned).startingAt(now);
        recorded.takeOver(new ScopeUsage(99_000, null, true, 6_000, 120_000), 6 * SECOND, 0, 0, 0, now);
        assertThat(recorded.usage(now, true).tokenLimit()).isEqualTo(120_000);
        assertAdmitsThenRefuses(recorded, 1_900, 200);
        // 30 s ago: the local burst of the recorded limit (4 000), not a minute of it
        QuotaLimiter longAgo = TestLimiters.of(learned).startingAt(now);
        longAgo.takeOver(new ScopeUsage(70_000, null, true, 6_000, 120_000), 6 * SECOND, 0, 0, 0, now);
        assertAdmitsThenRefuses(longAgo, 4_000, 100);
    }

    @Test
    void shouldCreditNothingWithoutASessionToBoundIt() {
        long now = 100 * SECOND;
        QuotaLimiter streamsProtocol = twoThousandPerSecondFrom(now);
        streamsProtocol.takeOver(new ScopeUsage(70_000, null), 0, 0, 0, 0, now);
        assertThat(streamsProtocol.tryAcquire(Priority.BULK, Charge.unsplit(100), now)).isFalse();

        QuotaLimiter noRecord = twoThousandPerSecondFrom(now);
        noRecord.takeOver(null, 0, 0, 0, 0, now);
        assertThat(noRecord.tryAcquire(Priority.BULK, Charge.unsplit(100), now)).as("started long ago, no session to bound it").isFalse();
    }

    @Test
    void shouldKeepACeilingTheOperatorRaisedAboveTheLimitTheRecordCarries() {
        long now = 100 * SECOND;
        // a roll-out raised tpm from 60 000 to 120 000 (a new tier): the record still says 60 000
        QuotaLimiter raised = TestLimiters.of(QuotaSettings.ofDefaults().withRpm(6_000, LimitOrigin.SET).withTpm(120_000, LimitOrigin.SET)
                .withSafetyFactor(1.0).withBurstSeconds(2).withReserveFraction(0)).startingAt(now);
        raised.takeOver(new ScopeUsage(99_000, null, true, 3_000, 60_000), 6 * SECOND, 0, 0, 0, now);
        assertThat(raised.usage(now, true).tokenLimit()).as("the configured ceiling, not the old record").isEqualTo(120_000);
        // 1 s of refill at 120 000 a minute: 2 000 tokens
        assertAdmitsThenRefuses(raised, 1_900, 200);
    }

    /** A limiter at 100 s under configured limits (ceilings), without a record, in an instance started {@code agoMs} before. */
    private static QuotaLimiter startedAgo(long agoMs, long boundNanos) {
        QuotaLimiter limiter = TestLimiters.of(QuotaSettings.ofDefaults().withRpm(6_000, LimitOrigin.SET).withTpm(120_000, LimitOrigin.SET)
                .withSafetyFactor(1.0).withBurstSeconds(2).withReserveFraction(0)).startingAt(100 * SECOND);
        limiter.takeOver(null, boundNanos, 0, 0, 100 * SECOND - agoMs * (SECOND / 1000), 100 * SECOND);
        return limiter;
    }

    @Test
    void shouldRecordItsLastAdmissionForTheNextOwner() {
        long now = 100 * SECOND;
        QuotaLimiter limiter = twoThousandPerSecondFrom(now);
        assertThat(limiter.usage(now, false).lastAdmittedMs()).isZero();
        limiter.takeOver(new ScopeUsage(97_000, null), 6 * SECOND, 0, 0, now, now);
        assertThat(limiter.usage(now, false).lastAdmittedMs()).as("what it took over, until its own first call").isEqualTo(97_000);
        assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(1_000), now + SECOND / 2)).isTrue();
        assertThat(limiter.usage(now + SECOND, false).lastAdmittedMs()).isEqualTo(100_500);
        assertThat(limiter.usage(now, false).day()).as("no daily limits").isNull();
    }

    /** 120k TPM at safety 1: 2 000 tokens/s, 2 s of burst (4 000), no reserve. */
    private static QuotaLimiter twoThousandPerSecondFrom(long nowNanos) {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(120_000).withSafetyFactor(1.0)
                .withBurstSeconds(2).withReserveFraction(0);
        return TestLimiters.of(settings).startingAt(nowNanos);
    }

    private static QuotaLimiter twoThousandPerSecond() {
        return twoThousandPerSecondFrom(0);
    }

    private static RateLimitInfo tokens120k(long remaining) {
        return new RateLimitInfo(OptionalLong.of(6_000), OptionalLong.of(120_000), OptionalLong.of(5_000),
                OptionalLong.of(remaining), Optional.empty(), Optional.empty(), Optional.empty());
    }

    private static RateLimitInfo tokens(long remaining) {
        return new RateLimitInfo(OptionalLong.of(6_000), OptionalLong.of(60_000), OptionalLong.of(5_000),
                OptionalLong.of(remaining), Optional.empty(), Optional.empty(), Optional.empty());
    }

    @Test
    void shouldAdmitNothingDuringACooldown() {
        QuotaLimiter limiter = TestLimiters.of(QuotaSettings.ofDefaults().withRpm(600).withTpm(60_000)).startingAt(0);
        limiter.coolDown(Duration.ofSeconds(5), 3 * SECOND);
        for (long t = 3 * SECOND; t < 8 * SECOND; t += SECOND / 20) {
            assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(1), t)).isFalse();
        }
        assertThat(limiter.inCooldown(8 * SECOND - 1)).isTrue();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(1), 8 * SECOND)).isTrue();
    }

    @Test
    void shouldAdmitAnOversizedCallOnlyFromAFullBucket() {
        QuotaLimiter limiter = TestLimiters.of(QuotaSettings.ofDefaults().withRpm(600).withTpm(60_000).withSafetyFactor(1.0)).startingAt(0);
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(5_000), SECOND)).isFalse();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(5_000), 2 * SECOND)).isTrue();
        // in debt now: 2000 - 5000 = -3000, back to 100 after 3.1 s
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(100), 5 * SECOND)).isFalse();
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(100), 5 * SECOND + SECOND / 5)).isTrue();
    }

    @Test
    void shouldChargeAPromptLargerThanEstimated() {
        QuotaLimiter limiter = TestLimiters.of(QuotaSettings.ofDefaults().withRpm(600).withTpm(60_000).withSafetyFactor(1.0)).startingAt(0);
        assertThat(limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(1_000), 2 * SECOND)).isTrue();
        limiter.reconcile(800, 900, 2 * SECOND);
        assertThat(limiter.availableTokens(2 * SECOND)).isEqualTo(900.0);
        limiter.reconcile(800, 700, 2 * SECOND);
        assertThat(limiter.availableTokens(2 * SECOND)).as("no refund").isEqualTo(900.0);
    }

    @Test
    void shouldNeverHoldBackADimensionWithoutALimit() {
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(QuotaSettings.NONE).withTpm(QuotaSettings.NONE);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        // a thousand 100 000-token calls in one instant: a self-hosted engine's concurrency is bounded elsewhere
        for (int i = 0; i < 1_000; i++) {
            assertThat(limiter.tryAcquire(Priority.BULK, Charge.unsplit(100_000), 0)).isTrue();
        }
        assertThat(limiter.availableRequests(0)).isInfinite();
        assertThat(limiter.availableTokens(0)).isInfinite();
        assertThat(limiter.maxRegularCost(Priority.BULK)).isEqualTo(Long.MAX_VALUE);
        assertThat(limiter.levels(0)).isEmpty();

        // only the request limit set: the tokens never bind, the requests do
        QuotaLimiter requestsOnly = TestLimiters.of(QuotaSettings.ofDefaults().withRpm(600).withTpm(QuotaSettings.NONE)
                .withSafetyFactor(1.0).withBurstSeconds(2)).startingAt(0);
        long calls = 0;
        for (long t = 0; t <= 10 * SECOND; t += SECOND / 1000) {
            if (requestsOnly.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(1_000_000), t)) {
                calls++;
            }
        }
        assertThat(calls).isBetween(90L, 20L + 100);
    }
}

package io.quotaflow.quota;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The indexed admission log answers as the linear walk over the whole log did, on random histories. */
class AdmissionLogTest {

    private static final long MS = 1_000_000L;

    /** One step of a history: what to do, after {@code gapMs}, with two free parameters. */
    record Step(int kind, int gapMs, int a, int b) {
    }

    @Provide
    Arbitrary<List<Step>> histories() {
        Arbitrary<Integer> gap = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(0, 3)),
                net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(3, 2_000)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(2_000, 70_000)));
        Arbitrary<Step> step = Combinators.combine(Arbitraries.integers().between(0, 99), gap,
                Arbitraries.integers().between(0, 10_000), Arbitraries.integers().between(0, 10_000)).as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(400);
    }

    @Property(tries = 500)
    void shouldAnswerAsTheLinearLogOnRandomHistories(@ForAll("histories") List<Step> steps) {
        AdmissionLog indexed = new AdmissionLog();
        LinearAdmissionLog linear = new LinearAdmissionLog();
        List<long[]> sent = new ArrayList<>();
        long now = 0;
        for (Step s : steps) {
            now += s.gapMs() * MS;
            long last = linear.last();
            int kind = s.kind();
            if (kind < 35) {
                Charge charge = Charge.call(1 + s.a() % 3_000, 1 + s.b() % 400);
                assertThat(indexed.add(now, charge)).isEqualTo(linear.add(now, charge));
                sent.add(new long[] {now, charge.tokens()});
            } else if (kind < 60) {
                long admission = 1 + s.a() % Math.max(1, last + 1);
                long at = s.b() % 10 == 0 ? now - s.b() * MS : now;
                indexed.answered(admission, at);
                linear.answered(admission, at);
            } else if (kind < 63 && !sent.isEmpty()) {
                long[] call = sent.get(s.a() % sent.size());
                long tokens = s.b() % 4 == 0 ? call[1] + 1 : call[1];
                indexed.remove(call[0], tokens);
                linear.remove(call[0], tokens);
            } else if (kind < 65) {
                int calls = 1 + s.a() % 5;
                long expires = now + (s.b() % 120) * 1_000 * MS;
                indexed.inherit(calls, 100L + s.a(), now, expires);
                linear.inherit(calls, 100L + s.a(), now, expires);
            } else if (kind < 75) {
                indexed.purge(now);
                linear.purge(now);
            } else {
                compare(indexed, linear, s, sent, now);
            }
        }
        for (long admission = 0; admission <= linear.last() + 1; admission++) {
            assertThat(indexed.around(admission, now)).isEqualTo(linear.around(admission, now));
            assertThat(indexed.sentAt(admission)).isEqualTo(linear.sentAt(admission));
            for (long transit : new long[] {0, 500 * MS, 5_000 * MS}) {
                assertThat(indexed.lowering(admission, transit, false)).isEqualTo(linear.lowering(admission, transit, false));
                assertThat(indexed.lowering(admission, transit, true)).isEqualTo(linear.lowering(admission, transit, true));
            }
        }
    }

    /** One query of step {@code s} (kind 75 and above), asked of both logs. */
    private static void compare(AdmissionLog indexed, LinearAdmissionLog linear, Step s, List<long[]> sent, long now) {
        long last = linear.last();
        int kind = s.kind();
        if (kind < 80) {
            long sentAt = sent.isEmpty() || s.b() % 3 == 0 ? now - s.b() * MS : sent.get(s.a() % sent.size())[0];
            assertThat(indexed.after(sentAt)).isEqualTo(linear.after(sentAt));
        } else if (kind < 88) {
            long admission = s.a() % (last + 3);
            long received = s.b() % 2 == 0 ? now : now - (s.b() % 5_000) * MS;
            assertThat(indexed.around(admission, received)).isEqualTo(linear.around(admission, received));
        } else if (kind < 94) {
            long admission = s.a() % (last + 3);
            long transit = (s.b() % 3_000) * MS;
            boolean answeredToo = s.b() % 2 == 0;
            assertThat(indexed.lowering(admission, transit, answeredToo)).isEqualTo(linear.lowering(admission, transit, answeredToo));
        } else if (kind < 97) {
            long from = now - (s.a() % 10_000) * MS;
            long to = now - (s.b() % 10_000) * MS;
            assertThat(indexed.sentBetween(from, to)).isEqualTo(linear.sentBetween(from, to));
        } else {
            long admission = s.a() % (last + 3);
            assertThat(indexed.sentAt(admission)).isEqualTo(linear.sentAt(admission));
        }
    }

    @Test
    void shouldKeepTwoMinutesOfAdmissions() {
        AdmissionLog log = new AdmissionLog();
        long now = 0;
        for (int i = 0; i < 60_000; i++) {
            now += 10 * MS;
            long admission = log.add(now, Charge.call(200, 20));
            log.answered(admission, now + 5 * MS);
            log.purge(now);
        }
        // 10 ms apart: two minutes hold 12,000 calls (and the one at the edge)
        assertThat(log.size()).isBetween(12_000, 12_001);
    }

    @Test
    void shouldListTheAnswersSeenWhileACallWasOut() {
        AdmissionLog log = new AdmissionLog();
        long first = log.add(0, Charge.call(100, 10));
        long second = log.add(1 * MS, Charge.call(200, 20));
        long third = log.add(2 * MS, Charge.call(300, 30));
        log.answered(second, 3 * MS);
        log.answered(first, 4 * MS);

        Uncounted uncounted = log.around(first, 4 * MS);

        // lowering: the calls admitted after it (the second, answered, and the third, still out)
        assertThat(uncounted.lower()).isEqualTo(new Charge(2, 550, 500, 50));
        assertThat(uncounted.raise()).containsExactly(
                new Uncounted.Snapshot(4 * MS, Charge.call(300, 30)),
                new Uncounted.Snapshot(3 * MS, new Charge(2, 550, 500, 50)));
        assertThat(third).isEqualTo(3);
    }

    /** The provider's reported limit: 10,000 tokens a minute (15,000 with the ordering's margin: 250 a second). */
    private static final long LIMIT = 10_000;

    @Test
    void shouldNotSubtractCallsWhoseOwnHeadersPlaceThemBefore() {
        AdmissionLog log = new AdmissionLog();
        // three calls of 1,000 tokens started in one tick: the provider charged them in that order
        long[] calls = oneTick(log, 3);
        long first = calls[0];
        long second = calls[1];
        long third = calls[2];
        long later = log.add(300 * MS, Charge.call(400, 100));
        log.reported(first, 8_000);
        log.answered(first, 400 * MS);
        log.reported(second, 7_000);
        log.answered(second, 410 * MS);

        // the third's answer reports 6,000: the first two, charged before it, are counted there; the later call is not
        assertThat(log.loweringAtAdmission(third, 500 * MS, 6_000, LIMIT)).isEqualTo(Charge.call(400, 100));
        // without the evidence every call sent within the transit counts
        assertThat(log.lowering(third, 500 * MS, true)).isEqualTo(new Charge(3, 2_500, 2_200, 300));
    }

    @Test
    void shouldSubtractCallsWhoseHeadersMayComeAfter() {
        AdmissionLog log = new AdmissionLog();
        long[] calls = oneTick(log, 3);
        long first = calls[0];
        long second = calls[1];
        long third = calls[2];
        // the first overtook nobody (8,000 left); the second reached the provider after the third:
        // it reports 5,000, what is left of the third's 6,000 once it charged its own 1,000
        log.reported(first, 8_000);
        log.answered(first, 400 * MS);
        log.reported(second, 5_000);
        log.answered(second, 410 * MS);

        assertThat(log.loweringAtAdmission(third, 500 * MS, 6_000, LIMIT)).isEqualTo(Charge.call(900, 100));
    }

    @Test
    void shouldSubtractCallsStillOutOrWithoutAFigure() {
        AdmissionLog log = new AdmissionLog();
        long[] calls = oneTick(log, 3);
        long first = calls[0];
        long second = calls[1];
        long third = calls[2];
        // the first is still out; the second's answer said 0 left, which may be a bucket in debt
        log.reported(second, 0);
        log.answered(second, 410 * MS);

        assertThat(log.loweringAtAdmission(third, 500 * MS, 6_000, LIMIT)).isEqualTo(new Charge(2, 2_000, 1_800, 200));
        // nor does a level of 0 in the answer itself order anything
        log.reported(first, 9_000);
        log.answered(first, 420 * MS);
        assertThat(log.loweringAtAdmission(third, 500 * MS, 0, LIMIT)).isEqualTo(log.lowering(third, 500 * MS, true));
    }

    @Test
    void shouldCreditTheRefillAClaimedLaterCallCouldHaveHad() {
        AdmissionLog log = new AdmissionLog();
        long first = log.add(0, Charge.call(900, 100));
        long third = log.add(2 * MS, Charge.call(900, 100));
        // answered 3 s later: charged after the third, it could have found 6,000 plus 3 s of refill
        // (500 tokens, 750 with the margin) and report up to 6,250 after its own 1,000 (500 counted)
        log.reported(first, 6_600);
        log.answered(first, 3_000 * MS);

        assertThat(log.loweringAtAdmission(third, 5_000 * MS, 6_000, LIMIT)).isEqualTo(Charge.NONE);
        log.reported(first, 6_200);
        assertThat(log.loweringAtAdmission(third, 5_000 * MS, 6_000, LIMIT)).isEqualTo(Charge.call(900, 100));
    }

    @Test
    void shouldNotSubtractACallAnsweredBeforeTheOtherWasSent() {
        AdmissionLog log = new AdmissionLog();
        long first = log.add(0, Charge.call(900, 100));
        // answered 200 ms later, reporting less than the next call will: its figure orders nothing,
        // its answer does (it was charged before the next call was even sent)
        log.reported(first, 2_000);
        log.answered(first, 200 * MS);
        long next = log.add(300 * MS, Charge.call(900, 100));

        assertThat(log.loweringAtAdmission(next, 500 * MS, 3_600, LIMIT)).isEqualTo(Charge.NONE);
        assertThat(log.lowering(next, 500 * MS, true)).isEqualTo(Charge.call(900, 100));
        // without a limit to bound the refill by, nothing is ordered
        assertThat(log.loweringAtAdmission(next, 500 * MS, 3_600, 0)).isEqualTo(Charge.call(900, 100));
    }

    /** {@code n} calls of 1,000 tokens started 1 ms apart from 0: their admissions. */
    private static long[] oneTick(AdmissionLog log, int n) {
        long[] admissions = new long[n];
        for (int i = 0; i < n; i++) {
            admissions[i] = log.add(i * MS, Charge.call(900, 100));
        }
        return admissions;
    }
}

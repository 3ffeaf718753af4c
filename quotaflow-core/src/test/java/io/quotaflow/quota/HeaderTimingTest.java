package io.quotaflow.quota;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Learning when a provider takes its headers, from a provider bucket simulated by hand. */
class HeaderTimingTest {

    private static final long MS = 1_000_000L;
    /** 120 000 TPM: 2 000 tokens a second. */
    private static final double RATE = 2_000;

    /** One call: sent, received, and its cost. */
    private record Call(long sentNanos, long receivedNanos, long cost) {
    }

    /**
     * Calls of 1 000 tokens every 400 ms, answered after 500 ms or 1 900 ms in turn (so answers overtake
     * each other); the provider's level starts at 4 000 of a 20 000 bucket and never fills.
     */
    private static List<Call> calls() {
        List<Call> calls = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            long sent = i * 400 * MS;
            calls.add(new Call(sent, sent + (i % 2 == 0 ? 500 : 1_900) * MS, 1_000));
        }
        return calls;
    }

    /** The provider's level at {@code atNanos} after the calls sent up to then (inclusive). */
    private static long level(List<Call> calls, long atNanos) {
        double level = 4_000 + RATE * atNanos / 1e9;
        for (Call c : calls) {
            if (c.sentNanos() <= atNanos) {
                level -= c.cost();
            }
        }
        return (long) Math.floor(level);
    }

    private static HeaderTiming.Moment learn(boolean atAdmission) {
        List<Call> calls = calls();
        HeaderTiming.Admitted admitted = (from, to) -> calls.stream()
                .filter(c -> c.sentNanos() > from && c.sentNanos() <= to).mapToLong(Call::cost).sum();
        HeaderTiming timing = new HeaderTiming();
        List<Call> byReceipt = new ArrayList<>(calls);
        byReceipt.sort((a, b) -> Long.compare(a.receivedNanos(), b.receivedNanos()));
        for (Call c : byReceipt) {
            long remaining = level(calls, atAdmission ? c.sentNanos() : c.receivedNanos());
            timing.observe(new HeaderTiming.Answer(remaining, c.sentNanos(), c.receivedNanos()), admitted, RATE);
        }
        return timing.moment();
    }

    @Test
    void shouldLearnThatTheHeadersWereTakenAtAdmission() {
        assertThat(learn(true)).isEqualTo(HeaderTiming.Moment.ADMISSION);
    }

    @Test
    void shouldLearnThatTheHeadersWereTakenAtTheAnswer() {
        assertThat(learn(false)).isEqualTo(HeaderTiming.Moment.ANSWER);
    }

    @Test
    void shouldNotDecideBeforeEnoughPairsNorFromEmptyLevels() {
        List<Call> calls = calls();
        HeaderTiming.Admitted admitted = (from, to) -> calls.stream()
                .filter(c -> c.sentNanos() > from && c.sentNanos() <= to).mapToLong(Call::cost).sum();
        HeaderTiming timing = new HeaderTiming();
        for (Call c : calls.subList(0, HeaderTiming.MIN_PAIRS)) {
            timing.observe(new HeaderTiming.Answer(level(calls, c.sentNanos()), c.sentNanos(), c.receivedNanos()), admitted, RATE);
        }
        assertThat(timing.moment()).as("one answer short of enough pairs").isEqualTo(HeaderTiming.Moment.UNKNOWN);

        HeaderTiming empty = new HeaderTiming();
        calls.forEach(c -> empty.observe(new HeaderTiming.Answer(0, c.sentNanos(), c.receivedNanos()), admitted, RATE));
        assertThat(empty.moment()).as("a bucket in debt reports 0 whatever happens").isEqualTo(HeaderTiming.Moment.UNKNOWN);
    }

    @Test
    void shouldForgetWhatItLearnedAfterA429() {
        HeaderTiming timing = new HeaderTiming();
        List<Call> calls = calls();
        HeaderTiming.Admitted admitted = (from, to) -> calls.stream()
                .filter(c -> c.sentNanos() > from && c.sentNanos() <= to).mapToLong(Call::cost).sum();
        calls.stream().sorted((a, b) -> Long.compare(a.receivedNanos(), b.receivedNanos())).forEach(c -> timing.observe(
                new HeaderTiming.Answer(level(calls, c.sentNanos()), c.sentNanos(), c.receivedNanos()), admitted, RATE));
        assertThat(timing.moment()).isEqualTo(HeaderTiming.Moment.ADMISSION);

        timing.forget();

        assertThat(timing.moment()).isEqualTo(HeaderTiming.Moment.UNKNOWN);
    }
}

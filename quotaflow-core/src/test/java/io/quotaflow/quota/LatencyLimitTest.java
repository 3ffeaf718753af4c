package io.quotaflow.quota;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The latency-driven limit against a synthetic engine: a call sent while {@code n} run takes
 * base × max(1, n / K) ± jitter. Simulated time; nothing waits.
 */
class LatencyLimitTest {

    private static final long MS = 1_000_000L;

    /** A discrete-event engine kept busy at the limit's concurrency (an endless queue). */
    private static final class Engine {
        private record Call(long sentNanos, int outAtSend, long tokens, long doneNanos) {
        }

        /** Changed by a test: another client takes part of the engine, or calls become larger. */
        int saturation;
        long baseMs;
        /** What the calls sent from now on are charged; 0: the limit is told no size. */
        long tokens;
        final double jitter;
        final Random random = new Random(7);
        final PriorityQueue<Call> running = new PriorityQueue<>((a, b) -> Long.compare(a.doneNanos, b.doneNanos));
        long now = 1_000 * MS;
        final List<Long> latencies = new ArrayList<>();
        final List<Integer> limits = new ArrayList<>();
        long completed;

        Engine(int saturation, long baseMs, double jitter) {
            this.saturation = saturation;
            this.baseMs = baseMs;
            this.jitter = jitter;
        }

        /** Runs {@code limit} for {@code seconds} of simulated time, recording what happened. */
        void run(LatencyLimit limit, double seconds) {
            long end = now + (long) (seconds * 1e9);
            fill(limit);
            while (now < end) {
                Call done = running.poll();
                now = done.doneNanos;
                long latencyMs = (now - done.sentNanos) / MS;
                latencies.add(latencyMs);
                completed++;
                if (done.tokens == 0) {
                    limit.answered(done.sentNanos, done.outAtSend, latencyMs, now);
                } else {
                    limit.answered(done.sentNanos, done.outAtSend, done.tokens, latencyMs, now);
                }
                limits.add(limit.limit());
                fill(limit);
            }
        }

        void fill(LatencyLimit limit) {
            while (running.size() < limit.limit()) {
                int out = running.size() + 1;
                double factor = Math.max(1.0, out / (double) saturation) * (1 + jitter * (2 * random.nextDouble() - 1));
                running.add(new Call(now, out, tokens, now + (long) (baseMs * factor * MS)));
            }
        }

        void reset() {
            latencies.clear();
            limits.clear();
            completed = 0;
        }

        double median() {
            List<Long> sorted = new ArrayList<>(latencies);
            Collections.sort(sorted);
            return sorted.get(sorted.size() / 2);
        }

        double meanLimit() {
            return limits.stream().mapToInt(Integer::intValue).average().orElse(0);
        }
    }

    @Test
    void shouldFindTheKneeAndStayJustBelowIt() {
        Engine engine = new Engine(8, 500, 0.2);
        LatencyLimit limit = new LatencyLimit(256, engine.now);
        engine.run(limit, 15);
        engine.reset();
        engine.run(limit, 60);
        // at the engine's most throughput (K / base = 16 calls/s) with calls no slower than 1.5 × unloaded
        assertThat(engine.completed / 60.0).isGreaterThanOrEqualTo(0.9 * 8 / 0.5);
        assertThat(engine.median()).isLessThan(1.5 * 500);
        assertThat(engine.limits).allSatisfy(l -> assertThat(l).isBetween(6, 10));
        assertThat(engine.meanLimit()).isBetween(7.5, 9.5);
        assertThat(limit.baselineMs(0)).isBetween(430.0, 570.0);
    }

    @Test
    void shouldFindALargerKneeWithinAFewSteps() {
        Engine engine = new Engine(48, 800, 0.2);
        LatencyLimit limit = new LatencyLimit(256, engine.now);
        engine.run(limit, 40);
        engine.reset();
        engine.run(limit, 60);
        assertThat(engine.completed / 60.0).isGreaterThanOrEqualTo(0.9 * 48 / 0.8);
        assertThat(engine.median()).isLessThan(1.5 * 800);
        assertThat(engine.meanLimit()).isBetween(46.0, 56.0);
    }

    @Test
    void shouldReachTheKneeWithinAFewSecondsFromTheStart() {
        Engine engine = new Engine(8, 500, 0.2);
        LatencyLimit limit = new LatencyLimit(256, engine.now);
        engine.run(limit, 10);
        // slow start 4 → 8 → 16 (twice as slow) → back to 8: past the knee once, then just below it
        assertThat(limit.slowStart()).isFalse();
        assertThat(limit.limit()).isBetween(7, 10);
    }

    @Test
    void shouldDropOnAnOverloadAndRecover() {
        Engine engine = new Engine(8, 500, 0.2);
        LatencyLimit limit = new LatencyLimit(256, engine.now);
        engine.run(limit, 20);
        int before = limit.limit();
        limit.overloaded(engine.now, engine.now);
        assertThat(limit.limit()).isLessThanOrEqualTo((int) Math.floor(before * LatencyLimit.OVERLOAD_BACKOFF));
        engine.run(limit, 20);
        assertThat(limit.limit()).isBetween(7, 10);
    }

    @Test
    void shouldDropOnceForRefusalsOfOneLimit() {
        LatencyLimit limit = new LatencyLimit(256, 0);
        // slow start to 16 on windows at the baseline
        feed(limit, 0, 100, 4, 16, 1);
        feed(limit, 1, 100, 8, 16, 2);
        assertThat(limit.limit()).isEqualTo(16);
        limit.overloaded(3 * MS, 4 * MS);
        assertThat(limit.limit()).isEqualTo(12);
        // a second refusal of a call sent before that drop says nothing new
        limit.overloaded(3 * MS, 5 * MS);
        assertThat(limit.limit()).isEqualTo(12);
        assertThat(limit.slowStart()).isFalse();
        // one of a call sent under the new limit does
        limit.overloaded(6 * MS, 7 * MS);
        assertThat(limit.limit()).isEqualTo(9);
    }

    @Test
    void shouldShrinkByTheLatencyRatioAtMostByHalf() {
        LatencyLimit limit = new LatencyLimit(256, 0);
        feed(limit, 0, 100, 4, 16, 1);
        feed(limit, 1, 100, 8, 16, 2);
        feed(limit, 2, 100, 16, 16, 3);
        assertThat(limit.limit()).isEqualTo(32);
        // 1.375 × the baseline: 32 × 1.1 / 1.375 = 25.6
        feed(limit, 3, 137.5, 32, 32, 4);
        assertThat(limit.limit()).isEqualTo(25);
        // ten times slower: no more than halved
        feed(limit, 4, 1000, 25, 25, 5);
        assertThat(limit.limit()).isEqualTo(12);
        // within the tolerance again: one at a time, slow start is over
        feed(limit, 5, 105, 12, 16, 6);
        assertThat(limit.limit()).isEqualTo(13);
    }

    @Test
    void shouldNotGrowWhileTheQueueDoesNotFillTheLimit() {
        LatencyLimit limit = new LatencyLimit(256, 0);
        for (int w = 0; w < 10; w++) {
            feed(limit, w, 100, 2, 16, w + 1);
        }
        assertThat(limit.limit()).isEqualTo(LatencyLimit.INITIAL);
    }

    @Test
    void shouldStayWithinItsCeiling() {
        LatencyLimit limit = new LatencyLimit(5, 0);
        for (int w = 0; w < 10; w++) {
            feed(limit, w, 100, 256, 256, w + 1);
        }
        assertThat(limit.limit()).isEqualTo(5);
    }

    @Test
    void shouldIgnoreAnswersOfCallsSentUnderAnOlderLimit() {
        LatencyLimit limit = new LatencyLimit(256, 10 * MS);
        for (int i = 0; i < 100; i++) {
            limit.answered(5 * MS, 4, 100, 11 * MS);
        }
        assertThat(limit.limit()).isEqualTo(LatencyLimit.INITIAL);
        assertThat(limit.baselineMs(0)).isNaN();
    }

    @Test
    void shouldNotShrinkWhenFullBatchesFollowSingleTicketCalls() {
        // single-ticket calls of 400 tokens take 200 ms unloaded; then a backlog's full batches of 4 000 tokens take 1.5 s
        assertThat(afterBacklog(true).meanLimit()).as("told each call's size").isBetween(7.0, 11.0);
        // told no size, the batches read as 7.5 times overloaded and the limit halves window after window
        assertThat(afterBacklog(false).meanLimit()).as("told no size").isLessThan(3.0);
    }

    @Test
    void shouldStillShrinkOnRealOverloadOfFullBatches() {
        Engine engine = backlog(true);
        LatencyLimit limit = new LatencyLimit(256, engine.now);
        engine.run(limit, 20);
        engine.tokens = 4_000;
        engine.baseMs = 1_500;
        engine.run(limit, 60);
        assertThat(limit.limit()).isBetween(7, 11);
        // another client takes half the engine: the same batches take twice as long at the same limit
        engine.saturation = 4;
        engine.run(limit, 60);
        engine.reset();
        engine.run(limit, 60);
        assertThat(engine.meanLimit()).isBetween(3.0, 6.0);
        assertThat(engine.median()).isLessThan(1.5 * 1_500);
    }

    private static Engine backlog(boolean sized) {
        Engine engine = new Engine(8, 200, 0.1);
        engine.tokens = sized ? 400 : 0;
        return engine;
    }

    /** Single-ticket calls for 20 s, then full batches for 60 s: the engine measured over the last 30 s. */
    private static Engine afterBacklog(boolean sized) {
        Engine engine = backlog(sized);
        LatencyLimit limit = new LatencyLimit(256, engine.now);
        engine.run(limit, 20);
        engine.tokens = sized ? 4_000 : 0;
        engine.baseMs = 1_500;
        engine.run(limit, 30);
        engine.reset();
        engine.run(limit, 30);
        return engine;
    }

    /** {@code n} answers of {@code latencyMs}, sent at {@code sentMs} with {@code out} out, answered at {@code doneMs}. */
    private static void feed(LatencyLimit limit, long sentMs, double latencyMs, int out, int n, long doneMs) {
        for (int i = 0; i < n; i++) {
            limit.answered(sentMs * MS, out, Math.round(latencyMs), doneMs * MS);
        }
    }
}

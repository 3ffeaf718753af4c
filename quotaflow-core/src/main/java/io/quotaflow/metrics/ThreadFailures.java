package io.quotaflow.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stream threads that died (each is replaced) and what they mean for the health checks: not
 * ready for a while after one, not live when they keep failing ({@code quotaflow_stream_thread_failures_total}).
 */
final class ThreadFailures {

    /** How long a failed stream thread keeps the instance not ready. */
    static final Duration THREAD_FAILURE_NOT_READY = Duration.ofSeconds(60);
    /**
     * Stream-thread failures within {@link #THREAD_FAILURE_LOOP_WINDOW} that make the instance not live: a
     * thread replaced this often keeps failing (a replaced thread is alive, so the thread count cannot tell).
     */
    static final int THREAD_FAILURE_LOOP = 3;
    static final Duration THREAD_FAILURE_LOOP_WINDOW = Duration.ofMinutes(5);

    private final AtomicLong count = new AtomicLong();
    private final Counter counter;
    private volatile long lastThreadFailureMs = Long.MIN_VALUE;
    /** The times of the last {@link #THREAD_FAILURE_LOOP} stream-thread failures, oldest first. */
    private final ArrayDeque<Long> recentThreadFailures = new ArrayDeque<>();
    private volatile String lastThreadFailure;

    ThreadFailures(MeterRegistry registry) {
        counter = Counter.builder("quotaflow.stream.thread.failures")
                .description("stream threads that died (each is replaced)").register(registry);
    }

    long count() {
        return count.get();
    }

    /** A stream thread died (it is replaced): the instance reports not ready for a while. */
    void failed(Throwable cause, long nowMs) {
        count.incrementAndGet();
        lastThreadFailureMs = nowMs;
        lastThreadFailure = cause.getClass().getSimpleName();
        counter.increment();
        synchronized (recentThreadFailures) {
            recentThreadFailures.addLast(nowMs);
            while (recentThreadFailures.size() > THREAD_FAILURE_LOOP) {
                recentThreadFailures.removeFirst();
            }
        }
    }

    /**
     * Why the instance is not live although its streams run, or null: its stream threads failed
     * {@link #THREAD_FAILURE_LOOP} times within {@link #THREAD_FAILURE_LOOP_WINDOW}. Each was replaced, and
     * the replacement failed again; a restart is the next step, and it makes the loop visible.
     */
    String notLiveReason(long nowMs) {
        long oldest;
        synchronized (recentThreadFailures) {
            if (recentThreadFailures.size() < THREAD_FAILURE_LOOP) {
                return null;
            }
            oldest = recentThreadFailures.peekFirst();
        }
        if (nowMs - oldest >= THREAD_FAILURE_LOOP_WINDOW.toMillis()) {
            return null;
        }
        return "stream threads failed " + THREAD_FAILURE_LOOP + " times in " + Math.max(1, (nowMs - oldest) / 1000)
                + " s (last: " + lastThreadFailure + ", " + Math.max(0, (nowMs - lastThreadFailureMs) / 1000)
                + " s ago); each replacement failed again; see the log";
    }

    /** Why a recent stream-thread failure keeps the instance not ready, or null. */
    String notReadyReason(long nowMs) {
        if (lastThreadFailureMs != Long.MIN_VALUE && nowMs - lastThreadFailureMs < THREAD_FAILURE_NOT_READY.toMillis()) {
            return "a stream thread failed " + (nowMs - lastThreadFailureMs) / 1000 + " s ago (" + lastThreadFailure
                    + "); it was replaced; see the log";
        }
        return null;
    }
}

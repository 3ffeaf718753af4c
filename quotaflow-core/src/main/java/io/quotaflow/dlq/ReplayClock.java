package io.quotaflow.dlq;

import org.apache.kafka.common.utils.Time;

import java.util.Objects;

/**
 * The replay's one time source: a {@link Time}'s monotonic nanoseconds and the way to wait on them,
 * in one object. {@link Time#sleep} waits whole milliseconds, and a fast pace waits less, so the
 * wait is a {@link Sleeper} of nanoseconds. {@link #system()} is {@link Time#SYSTEM} and
 * {@link Thread#sleep}; a test gives a manual time whose sleeps move it, so pacing is checked
 * without real waiting.
 */
final class ReplayClock {

    /** Waits {@code nanos} nanoseconds (or, in a test, moves the clock by them). */
    @FunctionalInterface
    interface Sleeper {
        void sleepNanos(long nanos) throws InterruptedException;
    }

    /** Real sleeping: {@link Thread#sleep(long, int)}. */
    static final Sleeper THREAD_SLEEP = ReplayClock::threadSleep;

    private final Time time;
    private final Sleeper sleeper;

    private ReplayClock(Time time, Sleeper sleeper) {
        this.time = Objects.requireNonNull(time, "time");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /** The JVM's monotonic clock ({@link Time#SYSTEM}) and real sleeping. */
    static ReplayClock system() {
        return of(Time.SYSTEM, THREAD_SLEEP);
    }

    /** A clock reading {@code time} that waits with {@code sleeper}. */
    static ReplayClock of(Time time, Sleeper sleeper) {
        return new ReplayClock(time, sleeper);
    }

    /** Monotonic nanoseconds (arbitrary origin). */
    long nanos() {
        return time.nanoseconds();
    }

    /** Waits {@code waitNanos} (a positive number). */
    void sleepNanos(long waitNanos) throws InterruptedException {
        sleeper.sleepNanos(waitNanos);
    }

    private static void threadSleep(long nanos) throws InterruptedException {
        Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    }
}

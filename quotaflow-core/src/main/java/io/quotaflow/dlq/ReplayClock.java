package io.quotaflow.dlq;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The replay's one time source: a monotonic nanosecond clock and the way to wait on it, in one
 * object, like the simulator's clock and the limiter's {@code LongSupplier} in the topology.
 * {@link #system()} is {@code System::nanoTime} and {@link Thread#sleep}; a test gives a manual
 * clock whose sleeps move it, so pacing is checked without real waiting.
 */
final class ReplayClock {

    /** Waits {@code nanos} nanoseconds (or, in a test, moves the clock by them). */
    @FunctionalInterface
    interface Sleeper {
        void sleepNanos(long nanos) throws InterruptedException;
    }

    /** Real sleeping: {@link Thread#sleep(long, int)}. */
    static final Sleeper THREAD_SLEEP = ReplayClock::threadSleep;

    private final LongSupplier nanos;
    private final Sleeper sleeper;

    private ReplayClock(LongSupplier nanos, Sleeper sleeper) {
        this.nanos = Objects.requireNonNull(nanos, "nanos");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /** The JVM's monotonic clock and real sleeping. */
    static ReplayClock system() {
        return of(System::nanoTime, THREAD_SLEEP);
    }

    /** A clock reading {@code nanos} that waits with {@code sleeper}. */
    static ReplayClock of(LongSupplier nanos, Sleeper sleeper) {
        return new ReplayClock(nanos, sleeper);
    }

    /** Monotonic nanoseconds (arbitrary origin). */
    long nanos() {
        return nanos.getAsLong();
    }

    /** Waits {@code waitNanos} (a positive number). */
    void sleepNanos(long waitNanos) throws InterruptedException {
        sleeper.sleepNanos(waitNanos);
    }

    private static void threadSleep(long nanos) throws InterruptedException {
        Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    }
}

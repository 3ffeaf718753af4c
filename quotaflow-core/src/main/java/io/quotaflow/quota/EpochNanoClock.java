package io.quotaflow.quota;

import java.util.function.LongSupplier;

/**
 * The limiter's clock in production: nanoseconds since the epoch, read as the JVM's monotonic
 * {@link System#nanoTime()} anchored once to the wall clock. The per-minute buckets need the
 * monotonic differences (a wall-clock step must not credit or take refill); the daily budget needs
 * the day, which the anchor gives. Tests pass their own epoch-based clock instead.
 */
public final class EpochNanoClock implements LongSupplier {

    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final long anchorNanos;
    private final long anchorEpochNanos;

    private EpochNanoClock(long anchorNanos, long anchorEpochMs) {
        this.anchorNanos = anchorNanos;
        this.anchorEpochNanos = anchorEpochMs * NANOS_PER_MILLI;
    }

    /** Anchored to the wall clock now. */
    public static EpochNanoClock system() {
        return new EpochNanoClock(System.nanoTime(), System.currentTimeMillis());
    }

    @Override
    public long getAsLong() {
        return anchorEpochNanos + (System.nanoTime() - anchorNanos);
    }
}

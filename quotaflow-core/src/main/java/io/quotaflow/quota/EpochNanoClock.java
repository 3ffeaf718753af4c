package io.quotaflow.quota;

import org.apache.kafka.common.utils.Time;

import java.util.function.LongSupplier;

/**
 * The limiter's clock: nanoseconds since the epoch, read as a {@link Time}'s monotonic
 * {@link Time#nanoseconds()} anchored once to its wall clock. The per-minute buckets need the
 * monotonic differences (a wall-clock step must not credit or take refill); the daily budget needs
 * the day, which the anchor gives. Production reads {@link Time#SYSTEM}; tests pass a time they move.
 */
public final class EpochNanoClock implements LongSupplier {

    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final Time time;
    private final long anchorNanos;
    private final long anchorEpochNanos;

    private EpochNanoClock(Time time) {
        this.time = time;
        this.anchorNanos = time.nanoseconds();
        this.anchorEpochNanos = time.milliseconds() * NANOS_PER_MILLI;
    }

    /** {@code time}, anchored to its wall clock now. */
    public static EpochNanoClock of(Time time) {
        return new EpochNanoClock(time);
    }

    @Override
    public long getAsLong() {
        return anchorEpochNanos + (time.nanoseconds() - anchorNanos);
    }
}

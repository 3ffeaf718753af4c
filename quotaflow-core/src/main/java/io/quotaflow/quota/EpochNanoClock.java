package io.quotaflow.quota;

import org.apache.kafka.common.utils.Time;

/**
 * The limiter's view of a {@link Time}: nanoseconds since the epoch, read as the time's monotonic
 * {@link Time#nanoseconds()} anchored once to its wall clock. The per-minute buckets need the
 * monotonic differences (a wall-clock step must not credit or take refill); the daily budget needs
 * the day, which the anchor gives. Production reads {@link Time#SYSTEM}; tests pass a time they move.
 *
 * <p>It reads nothing but its {@code Time}.
 */
public final class EpochNanoClock {

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

    /** Nanoseconds since the epoch: the anchor plus the monotonic time elapsed since it. */
    public long epochNanos() {
        return anchorEpochNanos + (time.nanoseconds() - anchorNanos);
    }

}

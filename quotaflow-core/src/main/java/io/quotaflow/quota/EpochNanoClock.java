package io.quotaflow.quota;

import org.apache.kafka.common.utils.Time;

import java.util.function.LongSupplier;

/**
 * The limiter's view of a {@link Time}: nanoseconds since the epoch, read as the time's monotonic
 * {@link Time#nanoseconds()} anchored once to its wall clock. The per-minute buckets need the
 * monotonic differences (a wall-clock step must not credit or take refill); the daily budget needs
 * the day, which the anchor gives. Production reads {@link Time#SYSTEM}; tests pass a time they move.
 *
 * <p>It reads nothing but its {@code Time}. The {@link LongSupplier} it implements is the shape the
 * dispatcher's {@code ScopeDispatcher} and {@code ProviderModel} take the limiter's clock in; new
 * code reads {@link #epochNanos()}.
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

    /** Nanoseconds since the epoch: the anchor plus the monotonic time elapsed since it. */
    public long epochNanos() {
        return anchorEpochNanos + (time.nanoseconds() - anchorNanos);
    }

    /**
     * {@link #epochNanos()}, for the dispatcher classes that take the limiter's clock as a
     * {@link LongSupplier}.
     *
     * @deprecated read {@link #epochNanos()}; the {@code LongSupplier} shape goes when the
     *             dispatcher takes an {@code EpochNanoClock} (or a {@code Time})
     */
    @Deprecated
    @Override
    public long getAsLong() {
        return epochNanos();
    }
}

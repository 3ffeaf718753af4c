package io.quotaflow.simulator;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The simulator's one time source: a monotonic nanosecond clock, like the limiter's in the
 * topology ({@code System::nanoTime} in production, a manual one in tests), plus the wall-clock
 * time derived from it through a single anchor taken when the clock is made. The buckets, the
 * outage windows, the statistics' per-second series and the answers' {@code created} field all
 * read this clock, so a test that moves it moves everything at once.
 */
public final class SimClock {

    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final LongSupplier nanos;
    private final long anchorNanos;
    private final long anchorEpochMs;

    private SimClock(LongSupplier nanos, long anchorEpochMs) {
        this.nanos = Objects.requireNonNull(nanos, "nanos");
        this.anchorNanos = nanos.getAsLong();
        this.anchorEpochMs = anchorEpochMs;
    }

    /** The JVM's monotonic clock, anchored to the wall clock now: the clock of a real server. */
    public static SimClock system() {
        return anchored(System::nanoTime, System.currentTimeMillis());
    }

    /**
     * A clock reading {@code nanos}, whose current reading corresponds to {@code epochMsNow} on the
     * wall clock.
     */
    public static SimClock anchored(LongSupplier nanos, long epochMsNow) {
        return new SimClock(nanos, epochMsNow);
    }

    /** Monotonic nanoseconds (arbitrary origin). */
    public long nanos() {
        return nanos.getAsLong();
    }

    /** The monotonic clock itself, for parts that take a {@code LongSupplier} (the buckets). */
    public LongSupplier nanoSupplier() {
        return nanos;
    }

    /** Wall-clock epoch milliseconds, derived from the monotonic reading. */
    public long epochMs() {
        return anchorEpochMs + Math.floorDiv(nanos.getAsLong() - anchorNanos, NANOS_PER_MILLI);
    }

    /** Time elapsed since the monotonic reading {@code startNanos}. */
    public Duration since(long startNanos) {
        return Duration.ofNanos(nanos.getAsLong() - startNanos);
    }
}

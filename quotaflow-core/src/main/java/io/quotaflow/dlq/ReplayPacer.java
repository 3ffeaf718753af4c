package io.quotaflow.dlq;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Spaces writes {@code 1 / rate} seconds apart (no burst, and no catching up after a slow spell);
 * a rate of 0 never waits. Reads and waits on one {@link ReplayClock}. One thread.
 */
final class ReplayPacer {
    /** The longest single wait, so a stop request is seen within 100 ms. */
    static final long MAX_SLEEP_NANOS = 100_000_000L;

    private final long intervalNanos;
    private final ReplayClock clock;
    private long next;
    private boolean first = true;

    ReplayPacer(double ratePerSecond, ReplayClock clock) {
        this.intervalNanos = ratePerSecond == 0 ? 0 : (long) Math.ceil(1e9 / ratePerSecond);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Waits for the next slot; false when {@code stop} was set meanwhile. */
    boolean acquire(AtomicBoolean stop) throws InterruptedException {
        if (intervalNanos == 0) {
            return true;
        }
        long now = clock.nanos();
        if (first) {
            first = false;
            next = now;
        }
        while (now < next) {
            if (stop.get()) {
                return false;
            }
            clock.sleepNanos(Math.min(next - now, MAX_SLEEP_NANOS));
            now = clock.nanos();
        }
        next = Math.max(now, next) + intervalNanos;
        return true;
    }
}

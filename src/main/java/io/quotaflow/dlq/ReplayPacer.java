package io.quotaflow.dlq;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/** Spaces writes {@code 1 / rate} seconds apart (no burst); a rate of 0 never waits. One thread. */
final class ReplayPacer {
    private static final long MAX_SLEEP_NANOS = 100_000_000L;

    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private long next;
    private boolean first = true;

    ReplayPacer(double ratePerSecond, LongSupplier nanoClock) {
        this.intervalNanos = ratePerSecond == 0 ? 0 : (long) Math.ceil(1e9 / ratePerSecond);
        this.nanoClock = nanoClock;
    }

    /** Waits for the next slot; false when {@code stop} was set meanwhile. */
    boolean acquire(AtomicBoolean stop) throws InterruptedException {
        if (intervalNanos == 0) {
            return true;
        }
        long now = nanoClock.getAsLong();
        if (first) {
            first = false;
            next = now;
        }
        while (now < next) {
            if (stop.get()) {
                return false;
            }
            long waitNanos = Math.min(next - now, MAX_SLEEP_NANOS);
            Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
            now = nanoClock.getAsLong();
        }
        next = Math.max(now, next) + intervalNanos;
        return true;
    }
}

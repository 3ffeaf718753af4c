package io.quotaflow.quota;

/**
 * A bucket that refills continuously at {@code ratePerSecond} up to {@code capacity}: the
 * token-bucket form of GCRA. Unlike a fixed-window limiter (Resilience4j's {@code RateLimiter}
 * refreshes its permits at cycle boundaries, so a burst at the end of one cycle and another at
 * the start of the next can spend two cycles' worth in an instant) it never admits more than
 * {@code capacity + rate × W} in any window {@code W}, which is how providers meter per-minute
 * limits in per-second slices.
 *
 * <p>A cost larger than the capacity is admitted only from a full bucket and leaves it in debt,
 * so one oversized call cannot be starved forever yet still pays for itself before the next.
 *
 * <p>Not thread-safe: one stream task owns each bucket. Time is passed in (nanoseconds from any
 * fixed origin) so tests control it.
 */
public final class ContinuousBucket {

    private double ratePerNano;
    private double capacity;
    private double available;
    private long lastNanos;

    /**
     * @param ratePerSecond refill rate, units per second (> 0)
     * @param capacity      the most that can accumulate (> 0)
     * @param initial       the starting level, clamped to [0, capacity]
     * @param nowNanos      the current time
     */
    public ContinuousBucket(double ratePerSecond, double capacity, double initial, long nowNanos) {
        if (!(ratePerSecond > 0) || !(capacity > 0)) {
            throw new IllegalArgumentException("rate and capacity must be positive: rate=" + ratePerSecond + " capacity=" + capacity);
        }
        this.ratePerNano = ratePerSecond / 1e9;
        this.capacity = capacity;
        this.available = Math.max(0, Math.min(capacity, initial));
        this.lastNanos = nowNanos;
    }

    private void refill(long nowNanos) {
        if (nowNanos > lastNanos) {
            available = Math.min(capacity, available + (nowNanos - lastNanos) * ratePerNano);
            lastNanos = nowNanos;
        }
    }

    /** The level now (may be negative while in debt). */
    public double available(long nowNanos) {
        refill(nowNanos);
        return available;
    }

    public double capacity() {
        return capacity;
    }

    /** Whether {@code cost} could be taken now while leaving at least {@code floor} behind. */
    public boolean canTake(double cost, double floor, long nowNanos) {
        refill(nowNanos);
        if (cost > capacity - floor) {
            // oversized for this floor: only from a full bucket, or it could never run
            return available >= capacity - 1e-9;
        }
        return available - cost >= floor - 1e-9;
    }

    /** Takes {@code cost} unconditionally (callers check {@link #canTake} first). */
    public void take(double cost, long nowNanos) {
        refill(nowNanos);
        available -= cost;
    }

    /** Returns {@code amount} (for example an over-estimate), never above capacity. */
    public void giveBack(double amount, long nowNanos) {
        refill(nowNanos);
        available = Math.min(capacity, available + amount);
    }

    /** Lowers the level to at most {@code level} (re-seeding from a provider's view). */
    public void clampTo(double level, long nowNanos) {
        refill(nowNanos);
        available = Math.min(available, level);
    }

    /** Raises the level to at least {@code level}, never above capacity (re-seeding from a provider's view). */
    public void raiseTo(double level, long nowNanos) {
        refill(nowNanos);
        available = Math.max(available, Math.min(capacity, level));
    }

    /** Changes the refill rate from now on (a limit learned from the provider); what accrued so far stays. */
    public void setRate(double ratePerSecond, long nowNanos) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive");
        }
        refill(nowNanos);
        ratePerNano = ratePerSecond / 1e9;
    }

    /** Changes the capacity (shrinking the burst after a 429); the level is clamped to it. */
    public void setCapacity(double newCapacity, long nowNanos) {
        if (!(newCapacity > 0)) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        refill(nowNanos);
        capacity = newCapacity;
        available = Math.min(available, capacity);
    }

    /** Nanoseconds until {@code cost} could be taken leaving {@code floor}; 0 if it can now. */
    public long nanosUntil(double cost, double floor, long nowNanos) {
        refill(nowNanos);
        double target = cost > capacity - floor ? capacity : cost + floor;
        double missing = target - available;
        if (missing <= 0) {
            return 0;
        }
        return (long) Math.ceil(missing / ratePerNano);
    }
}

package io.quotaflow.simulator;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * One continuously refilling token bucket of the provider simulator, modelling how providers
 * enforce a per-minute limit in per-second slices: it refills at {@code limit / 60} units per
 * second up to a capacity of {@code limit × burstSeconds / 60}. It therefore never grants more than
 * {@code burstSeconds} of the minute at once; with {@code burstSeconds = 60} it holds the whole
 * minute, as some providers' buckets do.
 *
 * <p>It starts at {@code startLevel × capacity}: full by default ({@code startLevel = 1}), which is
 * what real providers do for a key that has been idle (a full-minute bucket then admits a whole
 * minute's budget at once); {@code startLevel = 0} starts it empty, so that the first
 * {@code burstSeconds} are paced by the refill alone. {@link #reset()} returns to that level.
 *
 * <p>A request larger than the capacity (but, as the caller must check, not larger than the
 * per-minute limit) is granted only when the bucket is full and drives the level negative; the
 * debt is repaid by the refill before anything else is granted. Long-run throughput thus never
 * exceeds the limit, and a legal request is never starved forever by a small burst window.
 *
 * <p>Thread-safe (every method synchronizes on the bucket). To check and debit several buckets
 * atomically, hold a common lock around the calls.
 */
public final class SimBucket {

    private static final double NANOS_PER_MINUTE = 60e9;
    /** Absorbs floating-point error so that waiting {@link #timeUntilAvailable} is always enough. */
    private static final double EPSILON = 1e-6;

    private final double limitPerMinute;
    private final double capacity;
    private final double refillPerNano;
    private final double startLevel;
    private final LongSupplier nanoClock;
    private double level;
    private long lastRefillNanos;

    /**
     * A bucket that starts full.
     *
     * @param limitPerMinute the per-minute limit, &gt; 0
     * @param burstSeconds   seconds of refill the bucket holds, &gt; 0
     * @param nanoClock      a monotonic nanosecond clock such as {@code System::nanoTime}
     */
    public SimBucket(double limitPerMinute, double burstSeconds, LongSupplier nanoClock) {
        this(limitPerMinute, burstSeconds, 1.0, nanoClock);
    }

    /**
     * @param limitPerMinute the per-minute limit, &gt; 0
     * @param burstSeconds   seconds of refill the bucket holds, &gt; 0
     * @param startLevel     the starting level as a fraction of the capacity, in [0, 1]: 1 = full
     * @param nanoClock      a monotonic nanosecond clock such as {@code System::nanoTime}
     */
    public SimBucket(double limitPerMinute, double burstSeconds, double startLevel, LongSupplier nanoClock) {
        if (!(limitPerMinute > 0) || Double.isInfinite(limitPerMinute)) {
            throw new IllegalArgumentException("limitPerMinute must be > 0: " + limitPerMinute);
        }
        if (!(burstSeconds > 0) || Double.isInfinite(burstSeconds)) {
            throw new IllegalArgumentException("burstSeconds must be > 0: " + burstSeconds);
        }
        if (!(startLevel >= 0 && startLevel <= 1)) {
            throw new IllegalArgumentException("startLevel must be in [0, 1]: " + startLevel);
        }
        this.limitPerMinute = limitPerMinute;
        this.capacity = limitPerMinute * burstSeconds / 60.0;
        this.refillPerNano = limitPerMinute / NANOS_PER_MINUTE;
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.startLevel = startLevel;
        this.level = capacity * startLevel;
        this.lastRefillNanos = nanoClock.getAsLong();
    }

    public double limitPerMinute() {
        return limitPerMinute;
    }

    /** Maximum level: {@code limit × burstSeconds / 60}. */
    public double capacity() {
        return capacity;
    }

    /** The starting level as a fraction of the capacity (1 = starts full). */
    public double startLevel() {
        return startLevel;
    }

    /** The current level after refill; negative while repaying an oversize grant. */
    public synchronized double available() {
        refill();
        return level;
    }

    /** The current level rounded down to a whole unit and never negative: what a header reports. */
    public synchronized long remaining() {
        refill();
        return level <= 0 ? 0 : (long) Math.floor(level);
    }

    /**
     * Whether {@code amount} could be taken now: the level covers it, or the amount exceeds the
     * capacity and the bucket is full.
     */
    public synchronized boolean canTake(double amount) {
        refill();
        return level + EPSILON >= threshold(amount);
    }

    /** Takes {@code amount} if {@link #canTake(double)}; returns whether it did. */
    public synchronized boolean tryTake(double amount) {
        if (!canTake(amount)) {
            return false;
        }
        level -= amount;
        return true;
    }

    /** Time until {@link #canTake(double)} would be true; zero when it already is. */
    public synchronized Duration timeUntilAvailable(double amount) {
        refill();
        double deficit = threshold(amount) - level;
        return deficit <= EPSILON ? Duration.ZERO : nanosFor(deficit);
    }

    /** Time until the bucket is full again; zero when it is full. */
    public synchronized Duration timeUntilFull() {
        refill();
        return nanosFor(capacity - level);
    }

    /** Returns the bucket to its starting level (full by default) and restarts the refill clock. */
    public synchronized void reset() {
        level = capacity * startLevel;
        lastRefillNanos = nanoClock.getAsLong();
    }

    private double threshold(double amount) {
        if (amount < 0 || Double.isNaN(amount)) {
            throw new IllegalArgumentException("amount must be >= 0: " + amount);
        }
        return Math.min(amount, capacity);
    }

    private Duration nanosFor(double deficit) {
        if (deficit <= 0) {
            return Duration.ZERO;
        }
        return Duration.ofNanos((long) Math.ceil(deficit / refillPerNano));
    }

    private void refill() {
        long now = nanoClock.getAsLong();
        long elapsed = now - lastRefillNanos;
        if (elapsed > 0) {
            level = Math.min(capacity, level + elapsed * refillPerNano);
            lastRefillNanos = now;
        }
    }
}

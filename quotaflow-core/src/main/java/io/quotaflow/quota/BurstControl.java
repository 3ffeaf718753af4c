package io.quotaflow.quota;

import java.time.Duration;

/**
 * A {@link QuotaLimiter}'s answer to 429s: the cooldown that stops all admission, and the burst
 * allowance, halved by each 429 (down to a quarter) and grown back by an eighth after every clean
 * minute. Owned by its limiter; not thread-safe.
 */
final class BurstControl {

    static final double MIN_BURST_SCALE = 0.25;
    static final long CLEAN_PERIOD_NANOS = Duration.ofSeconds(60).toNanos();

    private long cooldownUntilNanos;
    private double scale = 1.0;
    private long lastRateLimitNanos;
    private long lastGrowthNanos;

    BurstControl(long nowNanos) {
        this.cooldownUntilNanos = nowNanos;
        this.lastRateLimitNanos = nowNanos - CLEAN_PERIOD_NANOS;
        this.lastGrowthNanos = nowNanos;
    }

    /** The share of each bucket's burst allowed now. */
    double scale() {
        return scale;
    }

    boolean cooling(long nowNanos) {
        return nowNanos < cooldownUntilNanos;
    }

    /** Nanoseconds until the cooldown ends; zero or negative when none runs. */
    long cooldownLeft(long nowNanos) {
        return cooldownUntilNanos - nowNanos;
    }

    /** No admission before {@code untilNanos} (a running cooldown is never shortened). */
    void coolDownUntil(long untilNanos) {
        cooldownUntilNanos = Math.max(cooldownUntilNanos, untilNanos);
    }

    /** A 429 at {@code nowNanos}: the allowance halves, and the clean minute starts again. */
    void rateLimited(long nowNanos) {
        scale = Math.max(MIN_BURST_SCALE, scale / 2);
        lastRateLimitNanos = nowNanos;
        lastGrowthNanos = nowNanos;
    }

    /** Whether a minute has passed since the last 429 (re-seeds may raise levels again). */
    boolean clean(long nowNanos) {
        return nowNanos - lastRateLimitNanos >= CLEAN_PERIOD_NANOS;
    }

    /** Grows the allowance by an eighth after a clean minute since the last 429 and the last growth; whether it grew. */
    boolean grow(long nowNanos) {
        if (scale < 1.0 && clean(nowNanos) && nowNanos - lastGrowthNanos >= CLEAN_PERIOD_NANOS) {
            scale = Math.min(1.0, scale + 0.125);
            lastGrowthNanos = nowNanos;
            return true;
        }
        return false;
    }
}

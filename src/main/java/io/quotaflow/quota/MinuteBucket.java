package io.quotaflow.quota;

import io.quotaflow.config.QuotaSettings;
import io.quotaflow.ticket.Priority;

/**
 * One per-minute limit of a scope (requests, tokens, or separate input or output tokens): a
 * {@link ContinuousBucket} refilled at the limit × the safety factor, holding
 * {@code quota.burst-seconds} of refill, starting empty, with the interactive reserve and the
 * provider-following re-seed every per-minute dimension shares (docs/design.md, "Limiter").
 */
final class MinuteBucket {

    private final QuotaDimension dimension;
    private final long limit;
    private final QuotaSettings settings;
    private final double baseCapacity;
    private final ContinuousBucket bucket;

    MinuteBucket(QuotaDimension dimension, long limitPerMinute, QuotaSettings settings, long nowNanos) {
        this.dimension = dimension;
        this.limit = limitPerMinute;
        this.settings = settings;
        double rate = limitPerMinute * settings.safetyFactor();
        // at least one unit of capacity, or a low limit could never admit anything
        this.baseCapacity = Math.max(1.0, rate * settings.burstSeconds() / 60.0);
        this.bucket = new ContinuousBucket(rate / 60.0, baseCapacity, 0, nowNanos);
    }

    QuotaDimension dimension() {
        return dimension;
    }

    long limit() {
        return limit;
    }

    /**
     * The level below which only interactive work may spend: a fraction of the local burst (a few
     * seconds of refill), which is what an interactive ticket would otherwise wait for. A capacity
     * raised to what the provider holds (a full minute, say) does not raise the reserve with it:
     * a quarter of a minute held back for interactive tickets that may never come is a quarter of
     * the provider's starting level left unused over a whole run.
     */
    double floor(Priority priority, double burstScale) {
        if (priority == Priority.INTERACTIVE) {
            return 0;
        }
        return Math.min(bucket.capacity(), Math.max(1.0, baseCapacity * burstScale)) * settings.reserveFraction();
    }

    boolean canTake(Charge charge, Priority priority, double burstScale, long nowNanos) {
        return bucket.canTake(dimension.of(charge), floor(priority, burstScale), nowNanos);
    }

    void take(Charge charge, long nowNanos) {
        bucket.take(dimension.of(charge), nowNanos);
    }

    void giveBack(Charge charge, long nowNanos) {
        bucket.giveBack(dimension.of(charge), nowNanos);
    }

    long nanosUntil(Charge charge, Priority priority, double burstScale, long nowNanos) {
        return bucket.nanosUntil(dimension.of(charge), floor(priority, burstScale), nowNanos);
    }

    /** The largest cost {@code priority} can take without waiting for a completely full bucket. */
    long maxRegular(Priority priority, double burstScale) {
        return (long) Math.floor(bucket.capacity() - floor(priority, burstScale));
    }

    void empty(long nowNanos) {
        bucket.clampTo(0, nowNanos);
    }

    void scaleBurst(double burstScale, long nowNanos) {
        bucket.setCapacity(Math.max(1.0, baseCapacity * burstScale), nowNanos);
    }

    double available(long nowNanos) {
        return bucket.available(nowNanos);
    }

    double capacity() {
        return bucket.capacity();
    }

    /**
     * Moves the level to the provider's {@code remaining} (of {@code reportedLimit}), reported
     * {@code elapsedSeconds} ago: lowered to it plus refill minus {@code laterLowering}, or raised
     * (when {@code mayRaise}) to it plus refill minus {@code laterRaising}, within a capacity that
     * grows to what the provider was seen to hold, never above its limit × the safety factor.
     */
    void follow(long remaining, long reportedLimit, double elapsedSeconds, long laterLowering, long laterRaising,
                boolean mayRaise, double burstScale, long nowNanos) {
        // refill since the provider's answer at our own (safety-scaled) rate: the answer left it a
        // little before we measured, so its full rate would over-count that moment
        double refilled = remaining + reportedLimit * settings.safetyFactor() / 60.0 * elapsedSeconds;
        double lower = refilled - laterLowering;
        if (lower < bucket.available(nowNanos)) {
            bucket.clampTo(lower, nowNanos);
            return;
        }
        if (!mayRaise) {
            return;
        }
        double ceiling = Math.max(baseCapacity * burstScale, reportedLimit * settings.safetyFactor());
        // the provider's bucket holds at least what it reported remaining
        double capacity = Math.min(ceiling, Math.max(bucket.capacity(), remaining * settings.safetyFactor()));
        if (capacity > bucket.capacity()) {
            bucket.setCapacity(capacity, nowNanos);
        }
        bucket.raiseTo(Math.min(refilled - laterRaising, bucket.capacity()), nowNanos);
    }
}

package io.quotaflow.quota;

import io.quotaflow.config.QuotaSettings;
import io.quotaflow.ticket.Priority;

import java.time.Duration;

/**
 * Admits calls of one quota scope against two continuously refilled budgets, requests per minute
 * and tokens per minute, each scaled by the safety factor and holding only a few seconds of burst.
 * Classes below interactive may spend each bucket only down to a reserve, so interactive work never
 * waits for a refill that bulk work used up. A cooldown (after a 429) stops all admission.
 *
 * <p>Both buckets start empty: a new owner of the scope (a restart, a task moved to another
 * instance) cannot know what the previous owner spent, so it earns its burst back at the refill rate.
 *
 * <p>Owned by one stream task; not thread-safe. Time comes in as nanoseconds.
 */
public final class QuotaLimiter {

    private final QuotaSettings settings;
    private final ContinuousBucket requests;
    private final ContinuousBucket tokens;
    private long cooldownUntilNanos;
    private long admittedCalls;
    private long admittedTokens;

    public QuotaLimiter(QuotaSettings settings, long nowNanos) {
        this.settings = settings;
        double rpm = settings.rpm() * settings.safetyFactor();
        double tpm = settings.tpm() * settings.safetyFactor();
        // at least one call's worth of request capacity, or a low RPM could never admit anything
        double requestCapacity = Math.max(1.0, rpm * settings.burstSeconds() / 60.0);
        double tokenCapacity = Math.max(1.0, tpm * settings.burstSeconds() / 60.0);
        this.requests = new ContinuousBucket(rpm / 60.0, requestCapacity, 0, nowNanos);
        this.tokens = new ContinuousBucket(tpm / 60.0, tokenCapacity, 0, nowNanos);
        this.cooldownUntilNanos = nowNanos;
    }

    public QuotaSettings settings() {
        return settings;
    }

    private double floor(ContinuousBucket bucket, Priority priority) {
        return priority == Priority.INTERACTIVE ? 0 : bucket.capacity() * settings.reserveFraction();
    }

    /** Whether a call costing {@code cost} tokens may start now at {@code priority}; takes it if so. */
    public boolean tryAcquire(Priority priority, long cost, long nowNanos) {
        if (nowNanos < cooldownUntilNanos) {
            return false;
        }
        if (!requests.canTake(1, floor(requests, priority), nowNanos) || !tokens.canTake(cost, floor(tokens, priority), nowNanos)) {
            return false;
        }
        requests.take(1, nowNanos);
        tokens.take(cost, nowNanos);
        admittedCalls++;
        admittedTokens += cost;
        return true;
    }

    /**
     * The largest call {@code priority} can start without waiting for a completely full bucket:
     * batches are sized to fit it.
     */
    public long maxRegularCost(Priority priority) {
        return (long) Math.floor(tokens.capacity() - floor(tokens, priority));
    }

    /** Nanoseconds until a call of {@code cost} at {@code priority} could be admitted. */
    public long nanosUntilAdmissible(Priority priority, long cost, long nowNanos) {
        long wait = Math.max(requests.nanosUntil(1, floor(requests, priority), nowNanos),
                tokens.nanosUntil(cost, floor(tokens, priority), nowNanos));
        return Math.max(wait, cooldownUntilNanos - nowNanos);
    }

    /**
     * Corrects a reservation once the provider reported what it counted: a prompt larger than the
     * estimate is charged; a smaller one is not refunded (providers do not refund at admission).
     */
    public void reconcile(long estimatedPromptTokens, long actualPromptTokens, long nowNanos) {
        long extra = actualPromptTokens - estimatedPromptTokens;
        if (extra > 0) {
            tokens.take(extra, nowNanos);
        }
    }

    /**
     * Lowers the local view to the provider's: {@code remaining} less what calls still in flight
     * will be charged when they arrive. Never raises it.
     */
    public void reseed(Long remainingRequests, Long remainingTokens, long inFlightCalls, long inFlightTokens, long nowNanos) {
        if (remainingRequests != null) {
            requests.clampTo(remainingRequests * settings.safetyFactor() - inFlightCalls, nowNanos);
        }
        if (remainingTokens != null) {
            tokens.clampTo(remainingTokens * settings.safetyFactor() - inFlightTokens, nowNanos);
        }
    }

    /** Stops all admission for {@code duration}; both buckets restart empty afterwards. */
    public void coolDown(Duration duration, long nowNanos) {
        long until = nowNanos + Math.max(0, duration.toNanos());
        cooldownUntilNanos = Math.max(cooldownUntilNanos, until);
        requests.clampTo(0, nowNanos);
        tokens.clampTo(0, nowNanos);
    }

    public boolean inCooldown(long nowNanos) {
        return nowNanos < cooldownUntilNanos;
    }

    public long cooldownRemainingNanos(long nowNanos) {
        return Math.max(0, cooldownUntilNanos - nowNanos);
    }

    public double availableTokens(long nowNanos) {
        return tokens.available(nowNanos);
    }

    public double availableRequests(long nowNanos) {
        return requests.available(nowNanos);
    }

    public double tokenCapacity() {
        return tokens.capacity();
    }

    public double requestCapacity() {
        return requests.capacity();
    }

    public long admittedCalls() {
        return admittedCalls;
    }

    public long admittedTokens() {
        return admittedTokens;
    }
}

package io.quotaflow.quota;

import io.quotaflow.config.QuotaSettings;
import io.quotaflow.ticket.Priority;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * Admits calls of one quota scope against two continuously refilled budgets, requests per minute
 * and tokens per minute, each scaled by the safety factor and holding only a few seconds of burst.
 * Classes below interactive may spend each bucket only down to a reserve, so interactive work never
 * waits for a refill that bulk work used up. A cooldown (after a 429) stops all admission.
 *
 * <p>Both buckets start empty: a new owner of the scope (a restart, a task moved to another
 * instance) cannot know what the previous owner spent, so it earns its burst at the refill rate.
 *
 * <p>It listens to the provider: {@link #reseed} moves the local view to what the provider's
 * {@code remaining} headers imply, down and (outside a minute after a 429) up: a provider whose
 * bucket holds more than our few seconds (a full minute, say) is used as far as it says, never
 * above its reported limit; one that enforces short slices reports small levels and is never
 * exceeded. A refused call ({@link #refund}) gives its reservation back. Each 429 halves the burst
 * allowance, forgets what was learned of the provider's bucket, and the allowance grows back by an
 * eighth after every clean minute.
 *
 * <p>Owned by one stream task; not thread-safe. Time comes in as nanoseconds.
 */
public final class QuotaLimiter {

    static final double MIN_BURST_SCALE = 0.25;
    static final long CLEAN_PERIOD_NANOS = Duration.ofSeconds(60).toNanos();
    private static final long ADMISSION_LOG_NANOS = Duration.ofMinutes(2).toNanos();

    private final QuotaSettings settings;
    private final ContinuousBucket requests;
    private final ContinuousBucket tokens;
    private final double baseRequestCapacity;
    private final double baseTokenCapacity;
    /**
     * Recent admissions {sequence, nanos, tokens, answered (0/1), expires (nanos; 0 for our own)},
     * oldest first: what the provider may not have counted yet when it answered an earlier call.
     */
    private final ArrayDeque<long[]> admissions = new ArrayDeque<>();
    private long sequence;
    /** When the inherited calls stop counting (0: none held). */
    private long inheritedUntilNanos;
    private long cooldownUntilNanos;
    private double burstScale = 1.0;
    private long lastRateLimitNanos;
    private long lastGrowthNanos;

    public QuotaLimiter(QuotaSettings settings, long nowNanos) {
        this.settings = settings;
        double rpm = settings.rpm() * settings.safetyFactor();
        double tpm = settings.tpm() * settings.safetyFactor();
        // at least one call's worth of request capacity, or a low RPM could never admit anything
        this.baseRequestCapacity = Math.max(1.0, rpm * settings.burstSeconds() / 60.0);
        this.baseTokenCapacity = Math.max(1.0, tpm * settings.burstSeconds() / 60.0);
        this.requests = new ContinuousBucket(rpm / 60.0, baseRequestCapacity, 0, nowNanos);
        this.tokens = new ContinuousBucket(tpm / 60.0, baseTokenCapacity, 0, nowNanos);
        this.cooldownUntilNanos = nowNanos;
        this.lastRateLimitNanos = nowNanos - CLEAN_PERIOD_NANOS;
        this.lastGrowthNanos = nowNanos;
    }

    public QuotaSettings settings() {
        return settings;
    }

    /**
     * The level below which only interactive work may spend: a fraction of the local burst (a few
     * seconds of refill), which is what an interactive ticket would otherwise wait for. A capacity
     * raised to what the provider holds (a full minute, say) does not raise the reserve with it:
     * a quarter of a minute held back for interactive tickets that may never come is a quarter of
     * the provider's starting level left unused over a whole run.
     */
    private double floor(ContinuousBucket bucket, double baseCapacity, Priority priority) {
        if (priority == Priority.INTERACTIVE) {
            return 0;
        }
        return Math.min(bucket.capacity(), Math.max(1.0, baseCapacity * burstScale)) * settings.reserveFraction();
    }

    private double tokenFloor(Priority priority) {
        return floor(tokens, baseTokenCapacity, priority);
    }

    private double requestFloor(Priority priority) {
        return floor(requests, baseRequestCapacity, priority);
    }

    /** Whether a call costing {@code cost} tokens may start now at {@code priority}; takes it if so. */
    public boolean tryAcquire(Priority priority, long cost, long nowNanos) {
        maintain(nowNanos);
        if (nowNanos < cooldownUntilNanos) {
            return false;
        }
        if (!requests.canTake(1, requestFloor(priority), nowNanos) || !tokens.canTake(cost, tokenFloor(priority), nowNanos)) {
            return false;
        }
        requests.take(1, nowNanos);
        tokens.take(cost, nowNanos);
        admissions.addLast(new long[] {++sequence, nowNanos, cost, 0, 0});
        return true;
    }

    /**
     * Calls a previous owner of the scope had out when this one took over ({@code calls} of
     * {@code tokens} in all). Their answers will never reach us, and under load some may reach the
     * provider only after our first call does, so the level it reports then does not hold them
     * yet: until {@code expiresNanos} (the request timeout), every re-seed counts them as not yet
     * charged, as it does our own unanswered calls. They do not enter the local buckets, which
     * start empty anyway.
     */
    public void inherit(int calls, long tokens, long nowNanos, long expiresNanos) {
        if (calls <= 0) {
            return;
        }
        inheritedUntilNanos = Math.max(inheritedUntilNanos, expiresNanos);
        long each = tokens / calls;
        for (int i = 0; i < calls; i++) {
            admissions.addLast(new long[] {++sequence, nowNanos, i == 0 ? tokens - each * (calls - 1) : each, 0, expiresNanos});
        }
    }

    /**
     * The largest call {@code priority} can start without waiting for a completely full bucket:
     * batches are sized to fit it.
     */
    public long maxRegularCost(Priority priority) {
        return (long) Math.floor(tokens.capacity() - tokenFloor(priority));
    }

    /** Nanoseconds until a call of {@code cost} at {@code priority} could be admitted. */
    public long nanosUntilAdmissible(Priority priority, long cost, long nowNanos) {
        long wait = Math.max(requests.nanosUntil(1, requestFloor(priority), nowNanos),
                tokens.nanosUntil(cost, tokenFloor(priority), nowNanos));
        return Math.max(wait, cooldownUntilNanos - nowNanos);
    }

    /**
     * Gives back the reservation of a call the provider refused before admitting it (400 context
     * length or invalid request, 401/403/404): it counted nothing, so neither do we.
     */
    public void refund(long cost, long sentAtNanos, long nowNanos) {
        tokens.giveBack(cost, nowNanos);
        requests.giveBack(1, nowNanos);
        for (Iterator<long[]> it = admissions.descendingIterator(); it.hasNext(); ) {
            long[] a = it.next();
            if (a[1] == sentAtNanos && a[2] == cost) {
                it.remove();
                break;
            }
            if (a[1] < sentAtNanos) {
                break;
            }
        }
    }

    /** The sequence number of the last call admitted (to name it in {@link #answered} and {@link #reseed(RateLimitInfo, long, long, long)}). */
    public long lastAdmission() {
        return sequence;
    }

    /**
     * The call admitted as {@code admission} has its answer: the provider has counted it. Without
     * the time of the answer it counts as answered long ago (see {@link #answered(long, long)}).
     */
    public void answered(long admission) {
        answered(admission, 1);
    }

    /** The call admitted as {@code admission} had its answer at {@code nowNanos}: the provider has counted it. */
    public void answered(long admission, long nowNanos) {
        for (Iterator<long[]> it = admissions.descendingIterator(); it.hasNext(); ) {
            long[] a = it.next();
            if (a[0] == admission) {
                a[3] = Math.max(1, nowNanos);
                return;
            }
            if (a[0] < admission) {
                return;
            }
        }
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
     * Moves the local view to the provider's. The provider computed {@code remaining} when it
     * admitted the call we sent at {@code sentAtNanos}; since then it has refilled at its own rate,
     * and every call we admitted after that one is charged there too (or will be on arrival). A
     * level above that view is lowered to it; one below is raised to it (the provider said it has
     * room), within a capacity that grows to what the provider was seen to hold, never above its
     * reported limit × the safety factor, and not within a minute after a 429.
     */
    public void reseed(RateLimitInfo info, long sentAtNanos, long nowNanos) {
        if (info == null) {
            return;
        }
        long laterCalls = 0;
        long laterTokens = 0;
        for (Iterator<long[]> it = admissions.descendingIterator(); it.hasNext(); ) {
            long[] a = it.next();
            if (a[1] <= sentAtNanos) {
                break;
            }
            laterCalls++;
            laterTokens += a[2];
        }
        reseed(info, sentAtNanos, new Uncounted(laterCalls, laterTokens, laterCalls, laterTokens), nowNanos);
    }

    /** Calls and tokens the provider's answer may not hold yet: what a lowering subtracts, and what a raise does. */
    private record Uncounted(long lowerCalls, long lowerTokens, long raiseCalls, long raiseTokens) {
    }

    /** When the call admitted as {@code admission} was admitted (the newest end of the log is searched first). */
    private long admittedAt(long admission) {
        for (Iterator<long[]> it = admissions.descendingIterator(); it.hasNext(); ) {
            long[] a = it.next();
            if (a[0] <= admission) {
                return a[0] == admission ? a[1] : Long.MAX_VALUE;
            }
        }
        return Long.MAX_VALUE;
    }

    /**
     * As {@link #reseed(RateLimitInfo, long, long)}, for the call admitted as {@code admission}.
     * Lowering: the provider may not have counted any other call still unanswered when it answered
     * this one, whether admitted after it or (arriving out of order) before it, so every such call
     * is subtracted. Raising needs more care, since requests overtake each other on the way: a call
     * sent before this one and answered already may still have reached the provider after it (then
     * this answer's {@code remaining} does not hold it), so a raise subtracts every other call but
     * those answered before this one was sent, which certainly arrived first.
     */
    public void reseed(RateLimitInfo info, long admission, long sentAtNanos, long nowNanos) {
        if (info == null) {
            return;
        }
        long sentAt = admittedAt(admission);
        long lowerCalls = 0;
        long lowerTokens = 0;
        long raiseCalls = 0;
        long raiseTokens = 0;
        for (long[] a : admissions) {
            if (a[0] == admission) {
                continue;
            }
            if (a[0] > admission || a[3] == 0) {
                lowerCalls++;
                lowerTokens += a[2];
            }
            if (a[3] == 0 || a[3] > sentAt) {
                raiseCalls++;
                raiseTokens += a[2];
            }
        }
        reseed(info, sentAtNanos, new Uncounted(lowerCalls, lowerTokens, raiseCalls, raiseTokens), nowNanos);
    }

    private void reseed(RateLimitInfo info, long sentAtNanos, Uncounted later, long nowNanos) {
        double elapsedSeconds = Math.max(0, nowNanos - sentAtNanos) / 1e9;
        boolean mayRaise = nowNanos - lastRateLimitNanos >= CLEAN_PERIOD_NANOS;
        if (info.remainingRequests().isPresent()) {
            long limit = info.limitRequests().orElse(settings.rpm());
            follow(requests, baseRequestCapacity, info.remainingRequests().getAsLong(), limit, elapsedSeconds,
                    later.lowerCalls(), later.raiseCalls(), mayRaise, nowNanos);
        }
        if (info.remainingTokens().isPresent()) {
            long limit = info.limitTokens().orElse(settings.tpm());
            follow(tokens, baseTokenCapacity, info.remainingTokens().getAsLong(), limit, elapsedSeconds,
                    later.lowerTokens(), later.raiseTokens(), mayRaise, nowNanos);
        }
    }

    private void follow(ContinuousBucket bucket, double baseCapacity, long remaining, long limit, double elapsedSeconds,
                        long laterLowering, long laterRaising, boolean mayRaise, long nowNanos) {
        // refill since the provider's answer at our own (safety-scaled) rate: the answer left it a
        // little before we measured, so its full rate would over-count that moment
        double refilled = remaining + limit * settings.safetyFactor() / 60.0 * elapsedSeconds;
        double lower = refilled - laterLowering;
        if (lower < bucket.available(nowNanos)) {
            bucket.clampTo(lower, nowNanos);
            return;
        }
        if (!mayRaise) {
            return;
        }
        double ceiling = Math.max(baseCapacity * burstScale, limit * settings.safetyFactor());
        // the provider's bucket holds at least what it reported remaining
        double capacity = Math.min(ceiling, Math.max(bucket.capacity(), remaining * settings.safetyFactor()));
        if (capacity > bucket.capacity()) {
            bucket.setCapacity(capacity, nowNanos);
        }
        bucket.raiseTo(Math.min(refilled - laterRaising, bucket.capacity()), nowNanos);
    }

    /**
     * A 429: stops all admission for {@code duration} and halves the burst allowance (down to a
     * quarter), so the next minute runs clean. The buckets refill during the cooldown, as the
     * provider's do.
     */
    public void rateLimited(Duration duration, long nowNanos) {
        coolDown(duration, nowNanos);
        burstScale = Math.max(MIN_BURST_SCALE, burstScale / 2);
        applyBurstScale(nowNanos);
        lastRateLimitNanos = nowNanos;
        lastGrowthNanos = nowNanos;
    }

    /** Stops all admission for {@code duration}; the levels drop to zero and refill meanwhile. */
    public void coolDown(Duration duration, long nowNanos) {
        long until = nowNanos + Math.max(0, duration.toNanos());
        cooldownUntilNanos = Math.max(cooldownUntilNanos, until);
        requests.clampTo(0, nowNanos);
        tokens.clampTo(0, nowNanos);
    }

    private void maintain(long nowNanos) {
        while (!admissions.isEmpty() && admissions.peekFirst()[1] < nowNanos - ADMISSION_LOG_NANOS) {
            admissions.pollFirst();
        }
        if (inheritedUntilNanos != 0 && nowNanos >= inheritedUntilNanos) {
            admissions.removeIf(a -> a[4] != 0);
            inheritedUntilNanos = 0;
        }
        if (burstScale < 1.0 && nowNanos - lastRateLimitNanos >= CLEAN_PERIOD_NANOS
                && nowNanos - lastGrowthNanos >= CLEAN_PERIOD_NANOS) {
            burstScale = Math.min(1.0, burstScale + 0.125);
            lastGrowthNanos = nowNanos;
            applyBurstScale(nowNanos);
        }
    }

    private void applyBurstScale(long nowNanos) {
        requests.setCapacity(Math.max(1.0, baseRequestCapacity * burstScale), nowNanos);
        tokens.setCapacity(Math.max(1.0, baseTokenCapacity * burstScale), nowNanos);
    }

    public double burstScale() {
        return burstScale;
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
}

package io.quotaflow.quota;

import io.quotaflow.settings.DailyLimits;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * A route's daily limits ({@code route.<name>.rpd}, {@code .tpd}): the day's requests and tokens,
 * counted exactly (a day has no per-second slices to guard against, so no safety factor), starting
 * again every day at {@code daily-reset-hour-utc}:00 UTC. A call is charged its admission cost; a
 * refused call sent the same day is refunded. Once the day's budget cannot take the calls it is
 * asked for, the route is out for the day until the next reset ({@link #outUntil}).
 *
 * <p>The day is computed from the epoch milliseconds passed in (the limiter's one clock). Owned by
 * one stream task; not thread-safe.
 */
final class DailyBudget {

    static final long DAY_MS = Duration.ofDays(1).toMillis();
    private static final long HOUR_MS = Duration.ofHours(1).toMillis();

    private final DailyLimits limits;
    private long dayStartMs = Long.MIN_VALUE;
    private long usedRequests;
    private long usedTokens;
    /** A call was refused today for lack of tokens (and nothing was given back since). */
    private boolean shortOfTokens;
    /** The provider said the day is spent (a 429 about a daily limit): nothing more goes until the reset. */
    private boolean spent;

    DailyBudget(DailyLimits limits) {
        this.limits = limits;
    }

    DailyLimits limits() {
        return limits;
    }

    /** The start of the budget day holding {@code epochMs}: the latest reset hour at or before it. */
    static long dayStart(long epochMs, int resetHourUtc) {
        long offset = resetHourUtc * HOUR_MS;
        return Math.floorDiv(epochMs - offset, DAY_MS) * DAY_MS + offset;
    }

    /** The next reset after {@code epochMs}. */
    long nextReset(long epochMs) {
        return dayStart(epochMs, limits.resetHourUtc()) + DAY_MS;
    }

    private void roll(long nowMs) {
        long start = dayStart(nowMs, limits.resetHourUtc());
        if (start > dayStartMs) {
            dayStartMs = start;
            usedRequests = 0;
            usedTokens = 0;
            shortOfTokens = false;
            spent = false;
        }
    }

    private boolean requestsFit(Charge charge) {
        return limits.rpd() == 0 || usedRequests + charge.requests() <= limits.rpd();
    }

    private boolean tokensFit(Charge charge) {
        if (limits.tpd() == 0) {
            return true;
        }
        // a call larger than the whole day's budget goes only from an untouched day, or it could never run
        return usedTokens + charge.tokens() <= limits.tpd() || (charge.tokens() > limits.tpd() && usedTokens == 0);
    }

    /** Whether the day's budget can take {@code charge} now (asking changes nothing). */
    boolean fits(Charge charge, long nowMs) {
        roll(nowMs);
        return !spent && tokensFit(charge) && requestsFit(charge);
    }

    /** Whether the day's budget can take {@code charge} now; a call it has no tokens for marks the day short. */
    boolean canTake(Charge charge, long nowMs) {
        heldBack(charge, nowMs);
        return fits(charge, nowMs);
    }

    /** A call of {@code charge} waits at {@code nowMs}: if the day has no tokens for it, the day is short until the reset. */
    void heldBack(Charge charge, long nowMs) {
        roll(nowMs);
        if (!tokensFit(charge)) {
            shortOfTokens = true;
        }
    }

    void take(Charge charge, long nowMs) {
        roll(nowMs);
        usedRequests += charge.requests();
        usedTokens += charge.tokens();
        // a call went: the day's tokens are not spent for the calls asked (a larger one may still wait)
        shortOfTokens = false;
    }

    /** Charges {@code extraTokens} more (the provider counted a larger prompt than estimated). */
    void charge(long extraTokens, long nowMs) {
        roll(nowMs);
        usedTokens += extraTokens;
    }

    /** The provider said the day's budget is gone (a 429 about a daily limit): spent until the next reset. */
    void exhaust(long nowMs) {
        roll(nowMs);
        usedRequests = Math.max(usedRequests, limits.rpd());
        usedTokens = Math.max(usedTokens, limits.tpd());
        spent = true;
    }

    /** Gives back the charge of a call sent at {@code sentAtMs} that the provider refused, if sent this budget day. */
    void giveBack(Charge charge, long sentAtMs, long nowMs) {
        roll(nowMs);
        if (sentAtMs < dayStartMs) {
            return;
        }
        usedRequests = Math.max(0, usedRequests - charge.requests());
        usedTokens = Math.max(0, usedTokens - charge.tokens());
        shortOfTokens = false;
    }

    /** Milliseconds until {@code charge} could be taken: 0 if now, else until the next reset. */
    long millisUntil(Charge charge, long nowMs) {
        return fits(charge, nowMs) ? 0 : nextReset(nowMs) - nowMs;
    }

    /**
     * When the day's budget is spent (no request left, no token left, or a call refused today for
     * lack of tokens): the next reset, in epoch milliseconds; empty while the route can still go.
     */
    OptionalLong outUntil(long nowMs) {
        roll(nowMs);
        boolean requestsSpent = limits.rpd() > 0 && usedRequests >= limits.rpd();
        boolean tokensSpent = limits.tpd() > 0 && (usedTokens >= limits.tpd() || shortOfTokens);
        return spent || requestsSpent || tokensSpent ? OptionalLong.of(nextReset(nowMs)) : OptionalLong.empty();
    }

    /** Requests left today (meaningful when {@code rpd} is set). */
    long remainingRequests(long nowMs) {
        roll(nowMs);
        return Math.max(0, limits.rpd() - usedRequests);
    }

    /** Tokens left today (meaningful when {@code tpd} is set). */
    long remainingTokens(long nowMs) {
        roll(nowMs);
        return Math.max(0, limits.tpd() - usedTokens);
    }

    /** What was spent in the budget day now running: for a new owner of the scope to take over. */
    DailyUsage usage(long nowMs) {
        roll(nowMs);
        return new DailyUsage(dayStartMs, usedRequests, usedTokens);
    }

    /** Takes over what a previous owner spent, if it was in the budget day now running. */
    void restore(DailyUsage usage, long nowMs) {
        roll(nowMs);
        if (usage.dayStartMs() == dayStartMs) {
            usedRequests = Math.max(usedRequests, usage.requests());
            usedTokens = Math.max(usedTokens, usage.tokens());
        }
    }
}

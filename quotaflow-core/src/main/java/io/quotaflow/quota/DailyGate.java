package io.quotaflow.quota;

import io.quotaflow.settings.DailyLimits;

import java.util.Map;
import java.util.OptionalLong;

/**
 * A {@link QuotaLimiter}'s daily budget, when it has one: from the route's daily limits, or from the
 * first 429 about a daily limit (none until then: every call fits, nothing is counted). Times are epoch
 * milliseconds. Owned by its limiter; not thread-safe.
 */
final class DailyGate {

    private final DailyLimits limits;
    /** Null while the route has no daily budget. */
    private DailyBudget budget;

    DailyGate(DailyLimits limits) {
        this.limits = limits;
        this.budget = limits.configured() ? new DailyBudget(limits) : null;
    }

    boolean canTake(Charge charge, long nowMs) {
        return budget == null || budget.canTake(charge, nowMs);
    }

    void take(Charge charge, long nowMs) {
        if (budget != null) {
            budget.take(charge, nowMs);
        }
    }

    /** Milliseconds until {@code charge} fits the day's budget (a reset included); 0 without one. */
    long millisUntil(Charge charge, long nowMs) {
        return budget == null ? 0 : budget.millisUntil(charge, nowMs);
    }

    void heldBack(Charge charge, long nowMs) {
        if (budget != null) {
            budget.heldBack(charge, nowMs);
        }
    }

    void giveBack(Charge charge, long sentAtMs, long nowMs) {
        if (budget != null) {
            budget.giveBack(charge, sentAtMs, nowMs);
        }
    }

    void charge(long extraTokens, long nowMs) {
        if (budget != null) {
            budget.charge(extraTokens, nowMs);
        }
    }

    OptionalLong outUntil(long nowMs) {
        return budget == null ? OptionalLong.empty() : budget.outUntil(nowMs);
    }

    /** The provider said the day is spent: a budget starts now if none was kept, and is spent until the reset. */
    void exhaust(long nowMs) {
        if (budget == null) {
            budget = new DailyBudget(limits);
        }
        budget.exhaust(nowMs);
    }

    /** Adds the day's request and token levels, where limited, to {@code out}. */
    void levels(Map<QuotaDimension, QuotaLevel> out, long nowMs) {
        if (budget == null) {
            return;
        }
        if (budget.limits().rpd() > 0) {
            out.put(QuotaDimension.REQUESTS_PER_DAY, new QuotaLevel(budget.limits().rpd(), budget.remainingRequests(nowMs)));
        }
        if (budget.limits().tpd() > 0) {
            out.put(QuotaDimension.TOKENS_PER_DAY, new QuotaLevel(budget.limits().tpd(), budget.remainingTokens(nowMs)));
        }
    }

    /** The day's usage; null without a budget. */
    DailyUsage usage(long nowMs) {
        return budget == null ? null : budget.usage(nowMs);
    }

    /** Carries on a previous owner's day ({@code usage} null: nothing recorded). */
    void restore(DailyUsage usage, long nowMs) {
        if (budget != null && usage != null) {
            budget.restore(usage, nowMs);
        }
    }
}

package io.quotaflow.quota;

/**
 * What a scope's next owner takes over from the last one (a changelogged store, written as it
 * changes): when the scope last admitted a call, from which the new owner credits the provider's
 * refill since ({@link QuotaLimiter#takeOver}), and, with daily limits, the day's usage, so a
 * restart or a moved task does not start the day at zero.
 *
 * @param lastAdmittedMs when the scope last admitted a call (epoch milliseconds; 0: never)
 * @param day            the budget day's usage; null without daily limits
 */
public record ScopeUsage(long lastAdmittedMs, DailyUsage day) {
}

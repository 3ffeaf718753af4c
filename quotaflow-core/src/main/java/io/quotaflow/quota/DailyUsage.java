package io.quotaflow.quota;

/**
 * What a scope spent of its daily limits in one budget day, to be kept (a changelogged store) and
 * restored by the scope's next owner, so a restart or a moved task does not start the day at zero.
 *
 * @param dayStartMs when that budget day started (epoch milliseconds, at the reset hour UTC)
 * @param requests   requests charged that day
 * @param tokens     tokens charged that day
 */
public record DailyUsage(long dayStartMs, long requests, long tokens) {
}

package io.quotaflow.quota;

/**
 * One limit of a scope as the limiter sees it now.
 *
 * @param limit     the configured limit (per minute, or per day for the daily dimensions)
 * @param available what the local bucket holds now (per minute), or what is left of the day's budget
 */
public record QuotaLevel(long limit, double available) {
}

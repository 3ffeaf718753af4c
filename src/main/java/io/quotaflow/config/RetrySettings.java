package io.quotaflow.config;

import java.time.Duration;

/**
 * Backoff for retryable failures: full jitter, {@code random(0, min(cap, base·2ⁿ))}.
 *
 * @param base        the first delay's upper bound
 * @param cap         the largest delay
 * @param maxAttempts attempts before a ticket is dead-lettered
 * @param maxAge      age after which a ticket is dead-lettered whatever its attempts
 */
public record RetrySettings(Duration base, Duration cap, int maxAttempts, Duration maxAge) {

    public RetrySettings {
        QuotaSettings.require(base != null && !base.isNegative(), "retry.base must be >= 0");
        QuotaSettings.require(cap != null && cap.compareTo(base) >= 0, "retry.cap must be >= retry.base");
        QuotaSettings.require(maxAttempts >= 1, "retry.max-attempts must be >= 1");
        QuotaSettings.require(maxAge != null && maxAge.toMillis() > 0, "retry.max-age must be > 0");
    }

    public static RetrySettings ofDefaults() {
        return new RetrySettings(Duration.ofSeconds(1), Duration.ofMinutes(5), 8, Duration.ofHours(1));
    }

    public RetrySettings withMaxAge(Duration value) {
        return new RetrySettings(base, cap, maxAttempts, value);
    }

    public RetrySettings withMaxAttempts(int value) {
        return new RetrySettings(base, cap, value, maxAge);
    }

    public RetrySettings withBase(Duration value) {
        return new RetrySettings(value, cap.compareTo(value) >= 0 ? cap : value, maxAttempts, maxAge);
    }
}

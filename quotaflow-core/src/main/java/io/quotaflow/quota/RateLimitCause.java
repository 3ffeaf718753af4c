package io.quotaflow.quota;

import java.util.Locale;

/**
 * Which limit a 429 hit, read from what the provider said: its message first ("tokens per min
 * (TPM)", "requests per min (RPM)", "too many concurrent requests"), then its headers (the
 * dimension whose remaining count is 0). {@link #QUOTA_EXHAUSTED} is a spent quota or spend limit
 * (a halt, not a rate limit); the caller that knows the outcome picks it.
 */
public enum RateLimitCause {

    TPM("tpm"),
    RPM("rpm"),
    CONCURRENCY("concurrency"),
    QUOTA_EXHAUSTED("quota-exhausted"),
    UNKNOWN("unknown");

    private final String label;

    RateLimitCause(String label) {
        this.label = label;
    }

    /** The metric label value. */
    public String label() {
        return label;
    }

    /** The cause of a rate-limit 429 (not a spent quota) from its message and headers. */
    public static RateLimitCause ofRateLimit(String message, RateLimitInfo headers) {
        if (RateLimitHeaders.aboutConcurrency(message)) {
            return CONCURRENCY;
        }
        if (RateLimitHeaders.aboutTokens(message)) {
            return TPM;
        }
        if (aboutRequests(message)) {
            return RPM;
        }
        RateLimitInfo h = headers == null ? RateLimitInfo.EMPTY : headers;
        if (h.remainingTokens().isPresent() && h.remainingTokens().getAsLong() == 0) {
            return TPM;
        }
        if (h.remainingRequests().isPresent() && h.remainingRequests().getAsLong() == 0) {
            return RPM;
        }
        return UNKNOWN;
    }

    private static boolean aboutRequests(String message) {
        if (message == null) {
            return false;
        }
        String m = message.toLowerCase(Locale.ROOT);
        return m.contains("(rpm)") || m.contains("requests per min");
    }

    @Override
    public String toString() {
        return label;
    }
}

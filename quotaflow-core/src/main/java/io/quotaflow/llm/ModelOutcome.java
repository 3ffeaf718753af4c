package io.quotaflow.llm;

import io.quotaflow.quota.RateLimitHeaders;
import io.quotaflow.quota.RateLimitInfo;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** What a model call came to: a value, never an exception. */
public sealed interface ModelOutcome permits ModelOutcome.Answered, ModelOutcome.RateLimited, ModelOutcome.Failed {

    /** Provider rate-limit state read from the answer's headers (may be empty). */
    RateLimitInfo rateLimits();

    /** How long the call took. */
    long latencyMs();

    /** A ticket's validated label. */
    record Label(String category, String urgency) {
    }

    /**
     * HTTP 200. {@code labels} holds every ticket whose answer was valid; {@code invalid} maps each
     * other ticket of the batch to why (missing, value outside the closed set, malformed answer).
     */
    record Answered(Map<String, Label> labels, Map<String, String> invalid, String finishReason,
                    long promptTokens, long completionTokens, RateLimitInfo rateLimits, long latencyMs) implements ModelOutcome {

        public boolean truncated() {
            return "length".equals(finishReason);
        }

        public Set<String> invalidIds() {
            return invalid.keySet();
        }
    }

    /**
     * HTTP 429 on a rate limit (not a spent quota): cool down and resend, no attempt consumed.
     *
     * @param retryAfter the provider's hint, if any
     * @param used       "Used X" from the body, if present
     * @param requested  "Requested Y" from the body, if present
     * @param perDay     the limit hit is a daily one (the route's day is over until its reset), as the dialect read it
     */
    record RateLimited(Optional<Duration> retryAfter, String message, Optional<Long> used, Optional<Long> requested,
                       RateLimitInfo rateLimits, long latencyMs, boolean perDay) implements ModelOutcome {

        /** A rate limit whose message says whether it is a daily one ("requests per day (RPD)"). */
        public RateLimited(Optional<Duration> retryAfter, String message, Optional<Long> used, Optional<Long> requested,
                           RateLimitInfo rateLimits, long latencyMs) {
            this(retryAfter, message, used, requested, rateLimits, latencyMs, RateLimitHeaders.aboutDay(message));
        }
    }

    /**
     * Any other failure, classified by what the dispatcher must do about it; {@code transport} names
     * why no answer came ({@link TransportCause}: {@code connection refused}, {@code timeout}, ...), null
     * when the provider answered.
     */
    record Failed(FailureKind kind, int status, String message, Optional<Duration> retryAfter,
                  RateLimitInfo rateLimits, long latencyMs, String transport) implements ModelOutcome {

        /** A failure the provider answered with (an HTTP status). */
        public Failed(FailureKind kind, int status, String message, Optional<Duration> retryAfter, RateLimitInfo rateLimits,
                      long latencyMs) {
            this(kind, status, message, retryAfter, rateLimits, latencyMs, null);
        }
    }

    /** Failure classes of the failure table (docs/design.md, Failures). */
    enum FailureKind {
        /** 408, 5xx, 529, connection error: retry with backoff. */
        TRANSIENT,
        /**
         * 429 without any rate-limit header saying the model is overloaded (TGI's "Model is
         * overloaded"): a self-hosted engine running as many calls as it can, not a quota. Sent again
         * with no attempt consumed and no pause; it lowers the in-flight limit instead.
         */
        OVERLOADED,
        /** No answer within the client's timeout: retried like {@link #TRANSIENT}, recorded as a timeout. */
        TIMEOUT,
        /** 400 context length exceeded: split the batch. */
        CONTEXT_LENGTH,
        /** 3xx (a base URL that redirects), 401, 403, 404 model, 429 insufficient_quota: halt the scope. */
        HALT,
        /** Any other 4xx: the request itself is wrong; dead-letter {@code non-retryable}. */
        NON_RETRYABLE
    }
}

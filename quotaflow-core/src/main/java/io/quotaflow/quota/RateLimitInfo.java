package io.quotaflow.quota;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The provider's view of the quota as its headers told it. Empty fields were absent or malformed.
 *
 * @param split the separate input and output token limits (Anthropic's
 *              {@code anthropic-ratelimit-{input,output}-tokens-*}), {@link Split#NONE} when absent
 */
public record RateLimitInfo(OptionalLong limitRequests, OptionalLong limitTokens,
                            OptionalLong remainingRequests, OptionalLong remainingTokens,
                            Optional<Duration> resetRequests, Optional<Duration> resetTokens,
                            Optional<Duration> retryAfter, Split split) {

    public static final RateLimitInfo EMPTY = new RateLimitInfo(OptionalLong.empty(), OptionalLong.empty(),
            OptionalLong.empty(), OptionalLong.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    /** Separate input and output token limits and what is left of them. */
    public record Split(OptionalLong limitInputTokens, OptionalLong remainingInputTokens,
                        OptionalLong limitOutputTokens, OptionalLong remainingOutputTokens) {

        public static final Split NONE = new Split(OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
                OptionalLong.empty());
    }

    public RateLimitInfo {
        split = split == null ? Split.NONE : split;
    }

    /** Without separate input and output limits. */
    public RateLimitInfo(OptionalLong limitRequests, OptionalLong limitTokens, OptionalLong remainingRequests,
                         OptionalLong remainingTokens, Optional<Duration> resetRequests, Optional<Duration> resetTokens,
                         Optional<Duration> retryAfter) {
        this(limitRequests, limitTokens, remainingRequests, remainingTokens, resetRequests, resetTokens, retryAfter, Split.NONE);
    }

    public boolean isEmpty() {
        return this.equals(EMPTY);
    }

    /** What the provider reported remaining of {@code dimension}'s per-minute limit. */
    public OptionalLong remaining(QuotaDimension dimension) {
        switch (dimension) {
            case REQUESTS:
                return remainingRequests;
            case TOKENS:
                return remainingTokens;
            case INPUT_TOKENS:
                return split.remainingInputTokens();
            case OUTPUT_TOKENS:
                return split.remainingOutputTokens();
            default:
                return OptionalLong.empty();
        }
    }

    /** The provider's reported per-minute limit of {@code dimension}. */
    public OptionalLong limit(QuotaDimension dimension) {
        switch (dimension) {
            case REQUESTS:
                return limitRequests;
            case TOKENS:
                return limitTokens;
            case INPUT_TOKENS:
                return split.limitInputTokens();
            case OUTPUT_TOKENS:
                return split.limitOutputTokens();
            default:
                return OptionalLong.empty();
        }
    }
}

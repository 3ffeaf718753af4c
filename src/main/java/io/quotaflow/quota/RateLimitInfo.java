package io.quotaflow.quota;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The provider's view of the quota as its headers told it. Empty fields were absent or malformed.
 */
public record RateLimitInfo(OptionalLong limitRequests, OptionalLong limitTokens,
                            OptionalLong remainingRequests, OptionalLong remainingTokens,
                            Optional<Duration> resetRequests, Optional<Duration> resetTokens,
                            Optional<Duration> retryAfter) {

    public static final RateLimitInfo EMPTY = new RateLimitInfo(OptionalLong.empty(), OptionalLong.empty(),
            OptionalLong.empty(), OptionalLong.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    public boolean isEmpty() {
        return this.equals(EMPTY);
    }
}

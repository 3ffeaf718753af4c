package io.quotaflow.failure;

import io.quotaflow.settings.RetrySettings;

import java.time.Duration;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * Full-jitter exponential backoff: attempt {@code n} waits {@code random(0, min(cap, base·2ⁿ))},
 * unless the provider gave a hint, which wins (never beyond the cap).
 */
public final class Backoff {

    private final RetrySettings settings;
    private final RandomGenerator random;

    public Backoff(RetrySettings settings, RandomGenerator random) {
        this.settings = settings;
        this.random = random;
    }

    /** The upper bound of attempt {@code n}'s delay: {@code min(cap, base·2ⁿ)}. */
    public Duration ceiling(int attempt) {
        long base = settings.base().toMillis();
        long cap = settings.cap().toMillis();
        int n = Math.max(0, Math.min(attempt, 40));
        double bound = base * Math.pow(2, n);
        return Duration.ofMillis((long) Math.min(cap, bound));
    }

    /** The delay before attempt {@code n}: the hint if given, else full jitter. */
    public Duration delay(int attempt, Optional<Duration> hint) {
        if (hint.isPresent() && !hint.get().isNegative()) {
            return hint.get().compareTo(settings.cap()) > 0 ? settings.cap() : hint.get();
        }
        long bound = ceiling(attempt).toMillis();
        return Duration.ofMillis(bound <= 0 ? 0 : random.nextLong(bound + 1));
    }
}

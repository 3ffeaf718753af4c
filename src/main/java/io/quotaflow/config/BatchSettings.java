package io.quotaflow.config;

import java.time.Duration;

/**
 * How the dispatcher groups tickets into calls.
 *
 * @param maxItems            most tickets in one call
 * @param maxPromptTokens     most prompt tokens in one call (a single larger ticket goes alone)
 * @param punctuateInterval   how often the dispatcher wakes up
 * @param completionTokensPerItem  {@code max_tokens} budget per ticket in a call
 */
public record BatchSettings(int maxItems, int maxPromptTokens, Duration punctuateInterval, int completionTokensPerItem) {

    public BatchSettings {
        QuotaSettings.require(maxItems > 0 && maxItems <= 100, "batch.max-items must be in [1, 100]");
        QuotaSettings.require(maxPromptTokens >= 256, "batch.max-prompt-tokens must be >= 256");
        QuotaSettings.require(punctuateInterval != null && !punctuateInterval.isNegative() && !punctuateInterval.isZero(),
                "batch.punctuate-interval must be positive");
        QuotaSettings.require(completionTokensPerItem >= 8, "batch.completion-tokens-per-item must be >= 8");
    }

    public static BatchSettings ofDefaults() {
        return new BatchSettings(10, 6_000, Duration.ofMillis(50), 28);
    }

    public BatchSettings withMaxItems(int value) {
        return new BatchSettings(value, maxPromptTokens, punctuateInterval, completionTokensPerItem);
    }

    public BatchSettings withMaxPromptTokens(int value) {
        return new BatchSettings(maxItems, value, punctuateInterval, completionTokensPerItem);
    }

    public BatchSettings withPunctuateInterval(Duration value) {
        return new BatchSettings(maxItems, maxPromptTokens, value, completionTokensPerItem);
    }

    /** {@code max_tokens} for a call of {@code items} tickets. */
    public int maxTokensFor(int items) {
        return 16 + items * completionTokensPerItem;
    }
}

package io.quotaflow.settings;

import java.time.Duration;

/**
 * How the dispatcher groups tickets into calls.
 *
 * @param maxItems            most tickets in one call
 * @param maxPromptTokens     most prompt tokens in one call (a single larger ticket goes alone)
 * @param punctuateInterval   how often the dispatcher wakes up
 * @param completionTokensPerItem  initial {@code max_tokens} budget per ticket (then learned from answers)
 * @param standardLinger      how long a standard batch may wait to fill up (interactive never waits)
 * @param bulkLinger          how long a bulk batch may wait to fill up
 */
public record BatchSettings(int maxItems, int maxPromptTokens, Duration punctuateInterval, int completionTokensPerItem,
                            Duration standardLinger, Duration bulkLinger) {

    public static final Duration DEFAULT_STANDARD_LINGER = Duration.ofMillis(100);
    public static final Duration DEFAULT_BULK_LINGER = Duration.ofSeconds(1);

    public BatchSettings(int maxItems, int maxPromptTokens, Duration punctuateInterval, int completionTokensPerItem) {
        this(maxItems, maxPromptTokens, punctuateInterval, completionTokensPerItem, DEFAULT_STANDARD_LINGER, DEFAULT_BULK_LINGER);
    }

    public BatchSettings {
        QuotaSettings.require(standardLinger != null && !standardLinger.isNegative(), "batch.standard-linger-ms must be >= 0");
        QuotaSettings.require(bulkLinger != null && !bulkLinger.isNegative(), "batch.bulk-linger-ms must be >= 0");
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
        return new BatchSettings(value, maxPromptTokens, punctuateInterval, completionTokensPerItem, standardLinger, bulkLinger);
    }

    public BatchSettings withMaxPromptTokens(int value) {
        return new BatchSettings(maxItems, value, punctuateInterval, completionTokensPerItem, standardLinger, bulkLinger);
    }

    public BatchSettings withPunctuateInterval(Duration value) {
        return new BatchSettings(maxItems, maxPromptTokens, value, completionTokensPerItem, standardLinger, bulkLinger);
    }

    public BatchSettings withLinger(Duration standard, Duration bulk) {
        return new BatchSettings(maxItems, maxPromptTokens, punctuateInterval, completionTokensPerItem, standard, bulk);
    }

    /** How long a batch of {@code priority} may wait to fill up. */
    public Duration linger(io.quotaflow.records.Priority priority) {
        return switch (priority) {
            case INTERACTIVE -> Duration.ZERO;
            case STANDARD -> standardLinger;
            case BULK -> bulkLinger;
        };
    }

    /** The initial {@code max_tokens} of a call of {@code items} tickets, before anything is learned. */
    public int maxTokensFor(int items) {
        return maxTokens(items, completionTokensPerItem);
    }

    /** Tokens of an answer besides its tickets' entries: the {@code {"results":[...]}} envelope. */
    public static final int COMPLETION_ENVELOPE = 8;

    /** {@code max_tokens} for {@code items} tickets at {@code perItem} tokens each, plus the envelope. */
    public static int maxTokens(int items, int perItem) {
        return COMPLETION_ENVELOPE + items * perItem;
    }
}

package io.quotaflow.dlq;

/** What a replay does with one dead letter ({@link ReplaySelector#decide}). */
public enum ReplayDecision {
    /** Written back to its origin topic. */
    REPLAY,
    /** Does not pass the filters. */
    FILTERED,
    /** Selected, but already replayed {@code maxReplays} times. */
    MAX_REPLAYS,
    /** Selected, but of a kind that fails again unchanged ({@link ForceRule}), and no {@code --force}. */
    NEEDS_FORCE,
    /** Selected, but truncated, and its origin topic no longer holds the whole record. */
    ORIGINAL_GONE
}

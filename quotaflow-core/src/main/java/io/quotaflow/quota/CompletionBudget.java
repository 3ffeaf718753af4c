package io.quotaflow.quota;

import java.util.Arrays;

/**
 * Learns how many completion tokens a ticket's answer takes and sizes {@code max_tokens} from it:
 * a high percentile of recent answers per ticket, plus a margin, within bounds. Providers admit a
 * request by its prompt plus {@code max_tokens}, so every unused token of a loose budget is quota
 * that could have classified another ticket. Answers cut at {@code max_tokens}
 * ({@code finish_reason=length}) are re-sent with a doubled budget by the dispatcher.
 *
 * <p>Owned by one stream task; not thread-safe.
 */
public final class CompletionBudget {

    /** Tokens of the answer's envelope, {@code {"results":[ ... ]}}, whatever the batch size. */
    static final int ENVELOPE = io.quotaflow.settings.BatchSettings.COMPLETION_ENVELOPE;
    private static final int WINDOW = 256;
    private static final double PERCENTILE = 0.99;
    private static final double MARGIN = 1.15;

    private final int minPerItem;
    private final int maxPerItem;
    private final double[] samples = new double[WINDOW];
    private int count;
    private int next;
    private int learnedPerItem;

    /**
     * @param initialPerItem the budget per ticket before anything was learned (the configured value)
     */
    public CompletionBudget(int initialPerItem) {
        this.minPerItem = Math.max(6, initialPerItem / 3);
        this.maxPerItem = initialPerItem * 4;
        this.learnedPerItem = initialPerItem;
    }

    /** Records a complete answer ({@code finish_reason=stop}) of {@code items} tickets. */
    public void record(int items, long completionTokens) {
        if (items <= 0 || completionTokens <= 0) {
            return;
        }
        samples[next] = Math.max(0, completionTokens - ENVELOPE) / (double) items;
        next = (next + 1) % WINDOW;
        count = Math.min(WINDOW, count + 1);
        if (count >= 8) {
            double[] sorted = Arrays.copyOf(samples, count);
            Arrays.sort(sorted);
            double p = sorted[Math.min(count - 1, (int) Math.ceil(PERCENTILE * count) - 1)];
            learnedPerItem = (int) Math.max(minPerItem, Math.min(maxPerItem, Math.ceil(p * MARGIN) + 1));
        }
    }

    /** Tokens per ticket currently budgeted. */
    public int perItem() {
        return learnedPerItem;
    }

    /** {@code max_tokens} for a call of {@code items} tickets, times {@code boost} after a truncation. */
    public int maxTokensFor(int items, int boost) {
        return maxTokens(items, learnedPerItem) * Math.max(1, boost);
    }

    /** The one {@code max_tokens} formula: the answer's envelope plus {@code perItem} per ticket. */
    public static int maxTokens(int items, int perItem) {
        return io.quotaflow.settings.BatchSettings.maxTokens(items, perItem);
    }
}

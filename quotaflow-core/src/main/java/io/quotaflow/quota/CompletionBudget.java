package io.quotaflow.quota;

import java.util.Arrays;

/**
 * Learns how many completion tokens a ticket's answer takes and sizes {@code max_tokens} from it.
 * Providers admit a request by its prompt plus {@code max_tokens}, so every unused token of a loose
 * budget is quota that could have classified another ticket (docs/design.md, "Lean prompts").
 *
 * <p>An answer's size hardly varies: one {@code {"id","category","urgency"}} entry per ticket, with
 * short ids and closed-set values. So the budget per ticket is the <em>largest</em> per-ticket size of
 * the last {@value #WINDOW} complete answers (its envelope, {@value #ENVELOPE} tokens, set apart) plus
 * {@value #MARGIN_PERCENT} %, within bounds; a call of {@code n} tickets gets the envelope plus
 * {@code n} times that, rounded up. Until {@value #MIN_SAMPLES} answers came back the configured value
 * stands. An answer cut at {@code max_tokens} ({@code finish_reason=length}) is a sample known to be too
 * small: it raises the budget at once to more than that call had ({@link #truncated}), and the
 * dispatcher re-sends its tickets with a doubled budget, without consuming an attempt.
 *
 * <p>Owned by one stream task; not thread-safe.
 */
public final class CompletionBudget {

    /** Tokens of the answer's envelope, {@code {"results":[ ... ]}}, whatever the batch size. */
    static final int ENVELOPE = io.quotaflow.settings.BatchSettings.COMPLETION_ENVELOPE;
    static final int WINDOW = 256;
    static final int MIN_SAMPLES = 8;
    static final int MARGIN_PERCENT = 3;
    private static final double MARGIN = 1 + MARGIN_PERCENT / 100.0;

    private final int minPerItem;
    private final int maxPerItem;
    private final double[] samples = new double[WINDOW];
    private int count;
    private int next;
    private double learnedPerItem;

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
        add(Math.max(0, completionTokens - ENVELOPE) / (double) items);
        if (count >= MIN_SAMPLES) {
            learnedPerItem = bounded(largest() * MARGIN);
        }
    }

    /**
     * Records an answer of {@code items} tickets cut at {@code maxTokens}: the answer needed more, so
     * the budget rises at once above what that call had per ticket (by the margin, and one token at least).
     */
    public void truncated(int items, int maxTokens) {
        if (items <= 0 || maxTokens <= 0) {
            return;
        }
        double had = Math.max(0, maxTokens - ENVELOPE) / (double) items;
        double needed = Math.max(had * MARGIN, had + 1);
        add(needed);
        learnedPerItem = bounded(Math.max(learnedPerItem, needed));
    }

    private void add(double perItem) {
        samples[next] = perItem;
        next = (next + 1) % WINDOW;
        count = Math.min(WINDOW, count + 1);
    }

    private double largest() {
        double max = 0;
        for (int i = 0; i < count; i++) {
            max = Math.max(max, samples[i]);
        }
        return max;
    }

    private double bounded(double perItem) {
        return Math.max(minPerItem, Math.min(maxPerItem, perItem));
    }

    /** Tokens per ticket currently budgeted, rounded up. */
    public int perItem() {
        return (int) Math.ceil(learnedPerItem);
    }

    /** {@code max_tokens} for a call of {@code items} tickets, times {@code boost} after a truncation. */
    public int maxTokensFor(int items, int boost) {
        return (ENVELOPE + (int) Math.ceil(items * learnedPerItem - 1e-9)) * Math.max(1, boost);
    }

    /** The configured formula: the answer's envelope plus {@code perItem} per ticket. */
    public static int maxTokens(int items, int perItem) {
        return io.quotaflow.settings.BatchSettings.maxTokens(items, perItem);
    }
}

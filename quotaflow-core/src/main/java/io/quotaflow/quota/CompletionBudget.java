package io.quotaflow.quota;


/**
 * Learns how many completion tokens a ticket's answer takes and sizes {@code max_tokens} from it.
 * Providers admit a request by its prompt plus {@code max_tokens}, so every unused token of a loose
 * budget is quota that could have classified another ticket (docs/design.md, "Lean prompts").
 *
 * <p>An answer's size hardly varies: one {@code {"id","category","urgency"}} entry per ticket, with
 * short ids and closed-set values. So the budget per ticket is the <em>largest</em> per-ticket size of
 * the last {@value #WINDOW} complete answers (its envelope, {@value #ENVELOPE} tokens, set apart) plus
 * {@value #MARGIN_PERCENT} %, within bounds; a call of {@code n} tickets gets the envelope plus
 * {@code n} times that, rounded up. Until {@value #MIN_SAMPLES} answers came back the budget only rises
 * from the configured value. An answer cut at {@code max_tokens} ({@code finish_reason=length}) is no
 * sample: the dispatcher re-sends its unanswered tickets at once with twice the budget, without
 * consuming an attempt, and that complete answer is the sample that raises the budget.
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
        double fromAnswers = bounded(largest() * MARGIN);
        // until enough answers came back, only upwards from the configured value
        learnedPerItem = count >= MIN_SAMPLES ? fromAnswers : Math.max(learnedPerItem, fromAnswers);
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

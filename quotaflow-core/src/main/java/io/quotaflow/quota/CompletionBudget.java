package io.quotaflow.quota;

import java.util.Arrays;

/**
 * Learns how many completion tokens an answer of {@code n} tickets takes and sizes {@code max_tokens}
 * from it. Providers admit a request by its prompt plus {@code max_tokens}, so every unused token of a
 * loose reservation is quota that could have classified another ticket (docs/design.md, "Lean prompts").
 *
 * <p>Per batch size: once {@value #MIN_SAME_SIZE} complete answers of {@code n} tickets came back, a
 * call of {@code n} reserves the {@value #QUANTILE_PERCENT}th percentile of the last
 * {@value #SIZE_WINDOW} such answers' completion tokens plus {@value #MARGIN_TOKENS} token. The sum of
 * {@code n} entries varies far less than {@code n} times the largest entry, so a full batch reserves
 * close to what it uses. A size without enough answers of its own reserves the envelope
 * ({@value #ENVELOPE} tokens) plus the larger of two figures from the last {@value #WINDOW} answers of
 * any size: {@code n} times the same percentile of their per-ticket sizes plus {@value #MARGIN_PERCENT} %
 * (plus {@value #COLD_MARGIN_PERCENT} % while fewer than {@value #MIN_SAMPLES} answers came back); and,
 * once {@value #MIN_SAMPLES} came back, {@code n} times their mean per ticket plus {@value #SPREAD_Z}
 * times {@code sqrt(n)} times the spread of one ticket's entry. An answer of {@code k} tickets shows
 * their mean, whose spread is a ticket's over {@code sqrt(k)}: percentiles of full batches' means
 * under-reserve a call of three, whose own sum spreads more (a cut costs the call's prompt again).
 * A size with fewer than {@value #FEW_SAME_SIZE} answers of its own reserves at least that second
 * figure too: the 98th percentile of a few answers is their largest. Before the first answer, the
 * configured budget per ticket. Every reservation stays between a floor of
 * {@code max(6, configured / 3)} and a cap of {@code 4 x configured} tokens per ticket (plus the envelope).
 *
 * <p>An answer cut at {@code max_tokens} ({@code finish_reason=length}) loses nothing: the dispatcher
 * re-sends its unanswered tickets at once with twice the reservation, without consuming an attempt.
 * The cut itself is recorded ({@link #recordCut}) as an answer of one token more than it was allowed,
 * a lower bound of its true size, so the percentile of that size rises; the complete answer of the
 * re-sent tickets is an ordinary sample.
 *
 * <p>Memory is bounded: {@value #WINDOW} per-ticket sizes and at most {@value #SIZE_WINDOW} answers for
 * each of the {@value #MAX_ITEMS} batch sizes. Owned by one stream task; not thread-safe.
 */
public final class CompletionBudget {

    /** Tokens of the answer's envelope, {@code {"results":[ ... ]}}, whatever the batch size. */
    static final int ENVELOPE = io.quotaflow.settings.BatchSettings.COMPLETION_ENVELOPE;
    /** Per-ticket sizes kept over all batch sizes. */
    static final int WINDOW = 256;
    /** Answers kept per batch size. */
    static final int SIZE_WINDOW = 64;
    /** Largest batch size learned on its own ({@code batch.max-items} is at most this). */
    static final int MAX_ITEMS = 100;
    /** Answers of one size before that size's own percentile is used. */
    static final int MIN_SAME_SIZE = 8;
    /** Answers of one size below which its own percentile is at least the spread's figure. */
    static final int FEW_SAME_SIZE = SIZE_WINDOW / 2;
    /** Answers of any size before the per-ticket margin drops to {@value #MARGIN_PERCENT} %. */
    static final int MIN_SAMPLES = 8;
    static final int QUANTILE_PERCENT = 98;
    static final int MARGIN_TOKENS = 1;
    static final int MARGIN_PERCENT = 3;
    static final int COLD_MARGIN_PERCENT = 15;
    /** Spreads of a sum above its mean reserved for a size without answers of its own: about its 99th percentile. */
    static final double SPREAD_Z = 2.33;

    private final int minPerItem;
    private final int maxPerItem;
    private final double[] perItemSamples = new double[WINDOW];
    private final int[] sampleItems = new int[WINDOW];
    private int count;
    private int next;
    private double learnedPerItem;
    /** Mean completion tokens of one ticket's entry over the window, weighted by each answer's tickets. */
    private double meanPerItem;
    /** Standard deviation of one ticket's entry, from the answers' means (0 while fewer than MIN_SAMPLES). */
    private double spreadPerItem;
    private final int[][] bySize = new int[MAX_ITEMS + 1][];
    private final int[] sizeCount = new int[MAX_ITEMS + 1];
    private final int[] sizeNext = new int[MAX_ITEMS + 1];
    /** The reservation of each size at boost 1, 0 when it must be worked out again. */
    private final int[] reserved = new int[MAX_ITEMS + 1];

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
        add(items, completionTokens);
    }

    /**
     * Records an answer of {@code items} tickets cut at {@code maxTokens} ({@code finish_reason=length}):
     * it needed more, so it counts as {@code maxTokens + 1}, a lower bound of its size.
     */
    public void recordCut(int items, int maxTokens) {
        if (items <= 0 || maxTokens <= 0) {
            return;
        }
        add(items, maxTokens + 1L);
    }

    private void add(int items, long completionTokens) {
        perItemSamples[next] = Math.max(0, completionTokens - ENVELOPE) / (double) items;
        sampleItems[next] = items;
        next = (next + 1) % WINDOW;
        count = Math.min(WINDOW, count + 1);
        learnSpread();
        double margin = 1 + (count >= MIN_SAMPLES ? MARGIN_PERCENT : COLD_MARGIN_PERCENT) / 100.0;
        learnedPerItem = Math.max(minPerItem, Math.min(maxPerItem, quantile(Arrays.copyOf(perItemSamples, count)) * margin));
        if (items <= MAX_ITEMS) {
            if (bySize[items] == null) {
                bySize[items] = new int[SIZE_WINDOW];
            }
            bySize[items][sizeNext[items]] = (int) Math.min(Integer.MAX_VALUE, completionTokens);
            sizeNext[items] = (sizeNext[items] + 1) % SIZE_WINDOW;
            sizeCount[items] = Math.min(SIZE_WINDOW, sizeCount[items] + 1);
        }
        Arrays.fill(reserved, 0);
    }

    /**
     * One ticket's mean and spread from the window's answers: the mean of {@code k} entries varies as
     * one entry over {@code k}, so {@code k} times its squared distance from the mean estimates one
     * entry's variance whatever the answers' sizes.
     */
    private void learnSpread() {
        double tickets = 0;
        double sum = 0;
        for (int i = 0; i < count; i++) {
            tickets += sampleItems[i];
            sum += sampleItems[i] * perItemSamples[i];
        }
        meanPerItem = sum / tickets;
        if (count < MIN_SAMPLES) {
            spreadPerItem = 0;
            return;
        }
        double squares = 0;
        for (int i = 0; i < count; i++) {
            double d = perItemSamples[i] - meanPerItem;
            squares += sampleItems[i] * d * d;
        }
        spreadPerItem = Math.sqrt(squares / (count - 1));
    }

    /** The {@value #QUANTILE_PERCENT}th percentile (nearest rank) of {@code values}, which it sorts. */
    private static double quantile(double[] values) {
        Arrays.sort(values);
        return values[Math.max(0, (int) Math.ceil(QUANTILE_PERCENT / 100.0 * values.length) - 1)];
    }

    private static int quantile(int[] values) {
        Arrays.sort(values);
        return values[Math.max(0, (int) Math.ceil(QUANTILE_PERCENT / 100.0 * values.length) - 1)];
    }

    /** Tokens per ticket currently budgeted for a size without answers of its own, rounded up. */
    public int perItem() {
        return (int) Math.ceil(learnedPerItem - 1e-9);
    }

    /** {@code max_tokens} for a call of {@code items} tickets, times {@code boost} after a truncation. */
    public int maxTokensFor(int items, int boost) {
        int n = Math.max(1, items);
        int base;
        if (n <= MAX_ITEMS) {
            if (reserved[n] == 0) {
                reserved[n] = reserve(n);
            }
            base = reserved[n];
        } else {
            base = ENVELOPE + (int) Math.ceil(n * learnedPerItem - 1e-9);
        }
        return base * Math.max(1, boost);
    }

    private int reserve(int n) {
        int fromSpread = spreadPerItem == 0 ? 0 : ENVELOPE + (int) Math.ceil(n * meanPerItem + SPREAD_Z * Math.sqrt(n) * spreadPerItem - 1e-9);
        if (sizeCount[n] < MIN_SAME_SIZE) {
            int fromAll = ENVELOPE + (int) Math.ceil(n * learnedPerItem - 1e-9);
            return Math.min(ENVELOPE + n * maxPerItem, Math.max(fromAll, fromSpread));
        }
        int fromSize = quantile(Arrays.copyOf(bySize[n], sizeCount[n])) + MARGIN_TOKENS;
        if (sizeCount[n] < FEW_SAME_SIZE) {
            // the 98th percentile of a few answers is their largest, which the next exceeds 1 time in (answers + 1)
            fromSize = Math.max(fromSize, fromSpread);
        }
        return Math.max(ENVELOPE + n * minPerItem, Math.min(ENVELOPE + n * maxPerItem, fromSize));
    }

    /** The configured formula: the answer's envelope plus {@code perItem} per ticket. */
    public static int maxTokens(int items, int perItem) {
        return io.quotaflow.settings.BatchSettings.maxTokens(items, perItem);
    }
}

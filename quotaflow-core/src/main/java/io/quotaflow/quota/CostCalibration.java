package io.quotaflow.quota;

import java.util.Arrays;

/**
 * Calibrates the local prompt-token estimate to the provider's own count. Each answer's
 * {@code usage.prompt_tokens} (and a 429's "Requested Y") against the local estimate gives a
 * ratio; the factor applied to later estimates is a high quantile (the 90th percentile) of the
 * most recent {@value #WINDOW} ratios: robust to a stray answer, biased upward for safety, and it
 * follows the provider down as well as up, so a provider whose tokenizer counts fewer tokens than
 * ours (or more: Anthropic, Gemini and Llama-family models behind OpenAI-compatible servers) costs
 * no throughput and no 429.
 *
 * <p>Until {@value #MIN_OBSERVATIONS} ratios are in, the factor only ever rises (the largest ratio
 * seen, at least 1): a new scope does not bet on a provider counting less than we do.
 *
 * <p>Owned by one stream task; not thread-safe. A pure function of the observations.
 */
public final class CostCalibration {

    static final int WINDOW = 32;
    static final int MIN_OBSERVATIONS = 4;
    static final double QUANTILE = 0.9;
    static final double MIN_FACTOR = 0.25;
    static final double MAX_FACTOR = 4.0;

    private final double[] ratios = new double[WINDOW];
    private long observations;
    private double factor = 1.0;

    /** Records the provider's count of a prompt we estimated at {@code estimated} tokens. */
    public void observe(long providerCount, long estimated) {
        if (providerCount <= 0 || estimated <= 0) {
            return;
        }
        double ratio = Math.max(MIN_FACTOR, Math.min(MAX_FACTOR, providerCount / (double) estimated));
        ratios[(int) (observations % WINDOW)] = ratio;
        observations++;
        int n = (int) Math.min(observations, WINDOW);
        double[] recent = Arrays.copyOf(ratios, n);
        Arrays.sort(recent);
        if (observations < MIN_OBSERVATIONS) {
            factor = Math.max(factor, Math.max(1.0, recent[n - 1]));
        } else {
            factor = recent[Math.min(n - 1, (int) Math.ceil(QUANTILE * n) - 1)];
        }
    }

    /** The multiplier applied to prompt-token estimates (provider count / local estimate). */
    public double factor() {
        return factor;
    }

    public long observations() {
        return observations;
    }

    /** {@code estimate} scaled by the factor, rounded up. */
    public long apply(long estimate) {
        return (long) Math.ceil(estimate * factor);
    }

    /** The local estimate that the provider would count as {@code providerTokens}, rounded down. */
    public long unapply(long providerTokens) {
        return (long) Math.floor(providerTokens / factor);
    }
}

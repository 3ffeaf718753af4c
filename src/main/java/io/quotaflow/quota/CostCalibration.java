package io.quotaflow.quota;

/**
 * Calibrates the admission-cost estimate against what the provider says it counted. A 429 body
 * such as "Limit 200000, Used 199100, Requested 1450" names the provider's own count for the
 * refused call; when that exceeds our estimate (a tokenizer or framing the provider counts
 * differently), later estimates are scaled up by the smoothed ratio. It only ever scales up, and
 * at most doubles, so a provider that counts less than we do costs nothing.
 *
 * <p>Owned by one stream task; not thread-safe.
 */
public final class CostCalibration {

    private static final double SMOOTHING = 0.3;
    private static final double MAX_FACTOR = 2.0;

    private double factor = 1.0;
    private long observations;

    /** Records the provider's count ({@code requested}) for a call we estimated at {@code estimated}. */
    public void observe(long requested, long estimated) {
        if (requested <= 0 || estimated <= 0) {
            return;
        }
        double ratio = Math.max(1.0, Math.min(MAX_FACTOR, requested / (double) estimated));
        factor = observations == 0 ? ratio : factor + SMOOTHING * (ratio - factor);
        observations++;
    }

    /** The multiplier applied to admission-cost estimates (≥ 1). */
    public double factor() {
        return factor;
    }

    /** {@code estimate} scaled by the factor, rounded up. */
    public long apply(long estimate) {
        return (long) Math.ceil(estimate * factor);
    }
}

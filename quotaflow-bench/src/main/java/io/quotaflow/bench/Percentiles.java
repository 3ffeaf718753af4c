package io.quotaflow.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Nearest-rank percentiles of a handful of samples (with 30 samples, p99 is the largest). */
public final class Percentiles {

    private Percentiles() {
    }

    /**
     * The nearest-rank {@code p}-th percentile: the smallest sample with at least {@code p} % of the
     * samples at or below it ({@code sorted[ceil(p / 100 × n) − 1]}).
     *
     * @throws IllegalArgumentException when there are no samples or {@code p} is not in (0, 100]
     */
    public static long nearestRank(Collection<Long> samples, double p) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no samples");
        }
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("p must be in (0, 100]: " + p);
        }
        List<Long> sorted = new ArrayList<>(samples);
        sorted.sort(null);
        int rank = (int) Math.ceil(p * sorted.size() / 100.0 - 1e-9);
        return sorted.get(Math.max(1, rank) - 1);
    }
}

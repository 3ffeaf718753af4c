package io.quotaflow.quota;

import java.util.Arrays;

/**
 * How many calls a scope may have outstanding. Fixed when configured; otherwise ({@code auto}) by
 * Little's law: to keep the binding limit busy, calls in flight = admission rate × latency. The
 * admission rate is what the limits allow (requests per second, or tokens per second over the
 * recent cost of a call, whichever is lower); the latency is a high percentile (the 90th) of the
 * recent calls', and the product gets 50 % headroom and two spare calls, within
 * [{@value #MIN_AUTO}, ceiling]. A provider's concurrency 429 ("too many concurrent requests")
 * lowers the ceiling to just under what was in flight.
 *
 * <p>Owned by one stream task; not thread-safe. A pure function of what it was told.
 */
public final class InFlightLimit {

    /** Before any latency is known. */
    static final int INITIAL_AUTO = 16;
    static final int MIN_AUTO = 4;
    static final int WINDOW = 64;
    static final double HEADROOM = 1.5;

    private final int fixed;
    private int ceiling;
    private final double[] latencies = new double[WINDOW];
    private final double[] costs = new double[WINDOW];
    private long latencyCount;
    private long costCount;

    /**
     * @param fixed   a fixed limit, or 0 for auto
     * @param ceiling the most auto may choose
     */
    public InFlightLimit(int fixed, int ceiling) {
        if (fixed < 0 || ceiling < 1) {
            throw new IllegalArgumentException("fixed >= 0 and ceiling >= 1 required: " + fixed + ", " + ceiling);
        }
        this.fixed = fixed;
        this.ceiling = ceiling;
    }

    public boolean auto() {
        return fixed == 0;
    }

    /** A call admitted at {@code cost} tokens. */
    public void admitted(long cost) {
        costs[(int) (costCount++ % WINDOW)] = cost;
    }

    /** A call answered (any answer) after {@code latencyMs}. */
    public void answered(long latencyMs) {
        latencies[(int) (latencyCount++ % WINDOW)] = Math.max(1, latencyMs);
    }

    /** The provider refused for concurrency while {@code inFlight} calls were out. */
    public void concurrencyLimited(int inFlight) {
        ceiling = Math.max(1, Math.min(ceiling, inFlight - 1));
    }

    public int ceiling() {
        return ceiling;
    }

    /**
     * The limit for calls paced at most at {@code requestsPerSecond} and {@code tokensPerSecond}.
     */
    public int limit(double requestsPerSecond, double tokensPerSecond) {
        if (fixed > 0) {
            return Math.min(fixed, ceiling);
        }
        if (latencyCount == 0) {
            return Math.min(INITIAL_AUTO, ceiling);
        }
        double latencySeconds = percentile(latencies, latencyCount, 0.9) / 1000.0;
        double callsPerSecond = requestsPerSecond;
        if (costCount > 0) {
            callsPerSecond = Math.min(callsPerSecond, tokensPerSecond / Math.max(1, mean(costs, costCount)));
        }
        long wanted = (long) Math.ceil(callsPerSecond * latencySeconds * HEADROOM) + 2;
        return (int) Math.max(Math.min(MIN_AUTO, ceiling), Math.min(ceiling, wanted));
    }

    private static double percentile(double[] values, long count, double q) {
        int n = (int) Math.min(count, values.length);
        double[] sorted = Arrays.copyOf(values, n);
        Arrays.sort(sorted);
        return sorted[Math.min(n - 1, (int) Math.ceil(q * n) - 1)];
    }

    private static double mean(double[] values, long count) {
        int n = (int) Math.min(count, values.length);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += values[i];
        }
        return sum / n;
    }
}

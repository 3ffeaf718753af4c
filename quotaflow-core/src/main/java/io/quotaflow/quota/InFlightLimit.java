package io.quotaflow.quota;

import java.util.Arrays;

/**
 * How many calls a scope may have outstanding. Fixed when configured; otherwise ({@code auto}) by
 * Little's law: to keep the binding limit busy, calls in flight = admission rate × latency. The
 * admission rate is what the limits allow (requests per second, or tokens per second over the
 * recent cost of a call, whichever is lower); the latency is a high percentile (the 90th) of the
 * recent calls', and the product gets 50 % headroom and two spare calls, within
 * [{@value #MIN_AUTO}, ceiling]. What the buckets hold now beyond the steady rate (a provider's
 * start burst the re-seed raised the level to) can go at once, so it adds the calls that spend it.
 * Before the first answer the latency is unknown, but it is at least as long as the oldest call
 * still out has waited: the limit grows with that age from {@value #INITIAL_AUTO}, so a start
 * whose first calls are slow does not sit at a guessed limit until they come back. A provider's
 * concurrency 429 ("too many concurrent requests") lowers the ceiling to just under what was in
 * flight. A dimension without a limit ({@code none}) has an infinite rate and nothing to bank: with
 * neither limit, Little's law allows the ceiling, and a self-hosted route's {@link LatencyLimit}
 * is what bounds it (the lower of the two wins).
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

    /** Whether an answer's latency has been seen (before that the oldest call's wait stands in for it). */
    public boolean latencyKnown() {
        return latencyCount > 0;
    }

    public int ceiling() {
        return ceiling;
    }

    /**
     * What the limit is computed from: the steady rates the limits allow, what the buckets hold
     * now (never negative) and how long the oldest call still out has waited (0 when none is out).
     */
    public record Demand(double requestsPerSecond, double tokensPerSecond, double bankedRequests, double bankedTokens,
                         long oldestOutstandingMs) {

        public Demand {
            bankedRequests = Math.max(0, bankedRequests);
            bankedTokens = Math.max(0, bankedTokens);
            oldestOutstandingMs = Math.max(0, oldestOutstandingMs);
        }

        /** Steady rates only: nothing banked, nothing out. */
        public static Demand steady(double requestsPerSecond, double tokensPerSecond) {
            return new Demand(requestsPerSecond, tokensPerSecond, 0, 0, 0);
        }
    }

    /**
     * The limit for calls paced at most at {@code requestsPerSecond} and {@code tokensPerSecond}.
     */
    public int limit(double requestsPerSecond, double tokensPerSecond) {
        return limit(Demand.steady(requestsPerSecond, tokensPerSecond));
    }

    /** The limit for {@code demand}: Little's law at the measured latency, plus the calls that spend what is banked. */
    public int limit(Demand demand) {
        if (fixed > 0) {
            return Math.min(fixed, ceiling);
        }
        double meanCost = costCount > 0 ? Math.max(1, mean(costs, costCount)) : 0;
        double callsPerSecond = demand.requestsPerSecond();
        if (meanCost > 0) {
            callsPerSecond = Math.min(callsPerSecond, demand.tokensPerSecond() / meanCost);
        }
        double banked = meanCost > 0 ? Math.min(demand.bankedRequests(), demand.bankedTokens() / meanCost) : 0;
        if (latencyCount == 0) {
            // latency unknown: at least the oldest call's wait so far
            double grown = wanted(callsPerSecond, demand.oldestOutstandingMs() / 1000.0, banked);
            return (int) Math.min(ceiling, Math.max(INITIAL_AUTO, demand.oldestOutstandingMs() > 0 ? grown : 0));
        }
        double wanted = wanted(callsPerSecond, percentile(latencies, latencyCount, 0.9) / 1000.0, banked);
        return (int) Math.max(Math.min(MIN_AUTO, ceiling), Math.min(ceiling, wanted));
    }

    /** In doubles: a dimension without a limit makes the rate and the bank infinite, and the caller caps at the ceiling. */
    private static double wanted(double callsPerSecond, double latencySeconds, double bankedCalls) {
        double flowing = latencySeconds <= 0 ? 0 : Math.ceil(callsPerSecond * latencySeconds * HEADROOM);
        return flowing + Math.floor(bankedCalls) + 2;
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

package io.quotaflow.bench;

import io.quotaflow.local.sim.SimulatorStats;

import java.util.Objects;

/**
 * Use of the binding limit over a whole run: everything the provider admitted, divided by the most
 * it would have admitted to one key between the run's first call and its last answer
 * ({@link SimulatorStats#admissibleTokens(double)} or {@link SimulatorStats#admissibleRequests(double)}:
 * the buckets' starting level, once, plus the refill over that span). Unlike {@link SteadyStateUse}
 * this counts the start (a bucket that starts full is a minute's quota up front with a 60 s burst)
 * and the tail (the last calls' latency, partial batches): the share of what the provider would have
 * given that the client took while it had work. 1.0 is the most a client can reach.
 *
 * @param binding           which limit
 * @param firstCallEpochMs  the run's first call
 * @param lastAnswerEpochMs the run's last answer
 * @param admitted          tokens (TPM) or requests (RPM) the provider admitted
 * @param admissible        the most it would have admitted over that span
 * @param use               admitted / admissible; NaN when nothing was admissible
 */
public record WholeRunUse(Binding binding, long firstCallEpochMs, long lastAnswerEpochMs, double admitted, double admissible,
                          double use) {

    public WholeRunUse {
        Objects.requireNonNull(binding, "binding");
    }

    /** Computes the whole-run use from the simulator's statistics. */
    public static WholeRunUse compute(SimulatorStats stats, Binding binding, long firstCallEpochMs, long lastAnswerEpochMs) {
        Objects.requireNonNull(stats, "stats");
        double seconds = Math.max(0, lastAnswerEpochMs - firstCallEpochMs) / 1000.0;
        double admitted = binding == Binding.TPM ? stats.tokensAdmitted() : stats.requestsAdmitted();
        double admissible = binding == Binding.TPM ? stats.admissibleTokens(seconds) : stats.admissibleRequests(seconds);
        return new WholeRunUse(binding, firstCallEpochMs, lastAnswerEpochMs, admitted, admissible,
                admissible > 0 ? admitted / admissible : Double.NaN);
    }

    /** Seconds from the first call to the last answer. */
    public double seconds() {
        return Math.max(0, lastAnswerEpochMs - firstCallEpochMs) / 1000.0;
    }

    public boolean measured() {
        return !Double.isNaN(use);
    }

    /** Classified tickets per minute of {@code busyMs}; null when no time passed. */
    public static Double perMinute(long tickets, long busyMs) {
        return busyMs <= 0 ? null : tickets * 60_000.0 / busyMs;
    }

    /** {@code a / b}, or null when either is missing or {@code b} is not positive. */
    public static Double ratio(Double a, Double b) {
        if (a == null || b == null || Double.isNaN(a) || Double.isNaN(b) || b <= 0) {
            return null;
        }
        return a / b;
    }
}

package io.quotaflow.bench;

import io.quotaflow.simulator.SimulatorStats;

import java.util.Objects;

/**
 * Use of the binding limit over a whole run: everything the provider admitted, divided by the most
 * it would have admitted to one key between the run's first call and its last call
 * ({@link SimulatorStats#admissibleTokens(double)} or {@link SimulatorStats#admissibleRequests(double)}:
 * the buckets' starting level, once, plus the refill over that span). Unlike {@link SteadyStateUse}
 * this counts the start (a bucket that starts full is a minute's quota up front with a 60 s burst)
 * and partial batches: the share of what the provider would have given that the client took while
 * it had work to send. 1.0 is the most a client can reach: a client that spends the full starting
 * level at its first call and every refill until its last.
 *
 * <p>The span ends at the last call sent, not at its answer: once the last call is out the client
 * has nothing left to send, so the refill while that call is in the air (a model's latency, ~2.3 s
 * in (h)) and while its result is committed is quota no client could use. Counting it made the
 * figure's ceiling 1 − latency × rate / admissible (about 98.5 % in (h)) rather than 1.0.
 * {@link #useToLastAnswer} keeps the figure over the span to the last answer, as reported before.
 *
 * @param binding           which limit
 * @param firstCallEpochMs  the run's first call
 * @param lastCallEpochMs   the run's last call (when it was sent)
 * @param lastAnswerEpochMs the run's last answer
 * @param admitted          tokens (TPM) or requests (RPM) the provider admitted
 * @param admissible        the most it would have admitted from the first call to the last
 * @param use               admitted / admissible; NaN when nothing was admissible
 * @param useToLastAnswer   admitted / the most it would have admitted from the first call to the last answer
 */
public record WholeRunUse(Binding binding, long firstCallEpochMs, long lastCallEpochMs, long lastAnswerEpochMs, double admitted,
                          double admissible, double use, double useToLastAnswer) {

    public WholeRunUse {
        Objects.requireNonNull(binding, "binding");
    }

    /** A span that ends at its last answer (the last call and the last answer taken as one). */
    public WholeRunUse(Binding binding, long firstCallEpochMs, long lastAnswerEpochMs, double admitted, double admissible,
                       double use) {
        this(binding, firstCallEpochMs, lastAnswerEpochMs, lastAnswerEpochMs, admitted, admissible, use, use);
    }

    /** Computes the whole-run use from the simulator's statistics; the last call no later than the last answer. */
    public static WholeRunUse compute(SimulatorStats stats, Binding binding, long firstCallEpochMs, long lastCallEpochMs,
                                      long lastAnswerEpochMs) {
        Objects.requireNonNull(stats, "stats");
        long lastCall = Math.max(firstCallEpochMs, Math.min(lastCallEpochMs, lastAnswerEpochMs));
        double admitted = binding == Binding.TPM ? stats.tokensAdmitted() : stats.requestsAdmitted();
        double admissible = admissible(stats, binding, lastCall - firstCallEpochMs);
        double toAnswer = admissible(stats, binding, lastAnswerEpochMs - firstCallEpochMs);
        return new WholeRunUse(binding, firstCallEpochMs, lastCall, lastAnswerEpochMs, admitted, admissible,
                admissible > 0 ? admitted / admissible : Double.NaN, toAnswer > 0 ? admitted / toAnswer : Double.NaN);
    }

    private static double admissible(SimulatorStats stats, Binding binding, long spanMs) {
        double seconds = Math.max(0, spanMs) / 1000.0;
        return binding == Binding.TPM ? stats.admissibleTokens(seconds) : stats.admissibleRequests(seconds);
    }

    /** Seconds from the first call to the last call. */
    public double seconds() {
        return Math.max(0, lastCallEpochMs - firstCallEpochMs) / 1000.0;
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

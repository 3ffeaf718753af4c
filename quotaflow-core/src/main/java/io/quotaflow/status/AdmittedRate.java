package io.quotaflow.status;

/**
 * What a route admits per second, from the admissions its limiter actually made (docs/design.md,
 * "Ticket status"): the tickets it let out over a stretch of admissions, converted into the units
 * the queue is counted in (tickets and our estimate of their tokens), and never above what the
 * limits allow. Pure.
 *
 * <p>The limits are in the provider's units: a call's charge is its prompt as the provider counts it
 * (our count, calibrated to its answers) plus its {@code max_tokens}. What a ticket costs in them
 * changes while the route learns (the calibration, the {@code max_tokens} budget), so the ceiling is
 * converted with the charge per ticket of the same admissions the rate was measured on: a provider
 * that counts more than we do, or a budget that shrinks, moves both together.
 */
public final class AdmittedRate {

    /**
     * What the admissions of a stretch summed to, the first one left out (the rate runs from it).
     *
     * @param seconds       from the first admission to the last, &gt; 0
     * @param calls         calls admitted after the first
     * @param tickets       their tickets
     * @param ticketTokens  our estimate of those tickets' tokens (what the queue counts)
     * @param chargedTokens what the limiter charged for those calls (prompt as the provider counts it, plus max_tokens)
     */
    public record Sums(double seconds, long calls, long tickets, long ticketTokens, long chargedTokens) {

        public Sums {
            if (!(seconds > 0) || calls < 0 || tickets < 0 || ticketTokens < 0 || chargedTokens < 0) {
                throw new IllegalArgumentException("invalid sums: " + seconds + " s, " + calls + " calls, " + tickets + " tickets, "
                        + ticketTokens + " ticket tokens, " + chargedTokens + " charged");
            }
        }
    }

    /**
     * What the limits allow per second after the safety factor, in the limiter's units;
     * {@link Double#POSITIVE_INFINITY} for a dimension without a limit.
     */
    public record Ceiling(double chargedTokensPerSecond, double callsPerSecond) {

        /** No limit in either dimension. */
        public static final Ceiling NONE = new Ceiling(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);

        public Ceiling {
            if (!(chargedTokensPerSecond > 0) || !(callsPerSecond > 0)) {
                throw new IllegalArgumentException("ceilings must be > 0: " + chargedTokensPerSecond + " tokens/s, " + callsPerSecond
                        + " calls/s");
            }
        }

        /** {@code tpm} and {@code rpm} per minute, times {@code safetyFactor}, per second. */
        public static Ceiling perMinute(double tpm, double rpm, double safetyFactor) {
            return new Ceiling(tpm * safetyFactor / 60.0, rpm * safetyFactor / 60.0);
        }
    }

    private AdmittedRate() {
    }

    /**
     * The rates of {@code sums}: tickets per second as admitted, lowered to what {@code ceiling}
     * allows at the stretch's charge per ticket and tickets per call; tokens per second at its
     * tokens per ticket. Empty when the stretch admitted no ticket.
     */
    public static java.util.Optional<Eta.Rates> of(Sums sums, Ceiling ceiling, long latencyMs) {
        if (sums.tickets() == 0) {
            return java.util.Optional.empty();
        }
        double tickets = sums.tickets() / sums.seconds();
        if (sums.chargedTokens() > 0) {
            tickets = Math.min(tickets, ceiling.chargedTokensPerSecond() * sums.tickets() / sums.chargedTokens());
        }
        if (sums.calls() > 0) {
            tickets = Math.min(tickets, ceiling.callsPerSecond() * sums.tickets() / sums.calls());
        }
        double tokens = tickets * Math.max(1, sums.ticketTokens()) / sums.tickets();
        return java.util.Optional.of(new Eta.Rates(Math.max(1e-6, tokens), Math.max(1e-6, tickets), latencyMs, true));
    }
}

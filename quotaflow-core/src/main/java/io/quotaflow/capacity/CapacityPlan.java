package io.quotaflow.capacity;

import java.time.Duration;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Seed 004's capacity formula for one route: each limit's ceiling in requests a minute, the binding
 * one, the safe rate (the binding ceiling times a safety factor), the calls in flight that rate needs
 * (Little's law: in flight = arrival rate × time in the system) and the time a backlog takes.
 *
 * <p>Seed 004's example: 1,000 RPM, 2 M TPM, 4,000 tokens a request, 3 s a call, factor 0.8. TPM allows
 * 500 requests a minute, RPM 1,000: TPM binds; the safe rate is 400 a minute, 6.67 a second; 6.67 × 3 s
 * = 20 calls in flight.
 *
 * @param inputs                what the plan was made from
 * @param rpmCeiling            requests a minute the RPM limit allows (empty: no RPM limit)
 * @param tpmCeiling            requests a minute the TPM limit allows at the tokens a request (empty: no TPM limit)
 * @param binding               the limit that binds
 * @param safeRequestsPerMinute the binding ceiling times the safety factor
 * @param inFlight              calls in flight that keep the safe rate busy (rounded up)
 * @param drain                 how long the backlog takes at the safe rate (empty: no backlog given)
 */
public record CapacityPlan(Inputs inputs, OptionalDouble rpmCeiling, OptionalDouble tpmCeiling, Limit binding,
                           double safeRequestsPerMinute, long inFlight, java.util.Optional<Duration> drain) {

    /** Which limit binds. */
    public enum Limit {
        RPM, TPM
    }

    /**
     * What a plan is made from; a limit given as empty is absent (a route with no such limit).
     *
     * @param rpm                requests a minute the provider allows
     * @param tpm                tokens a minute the provider allows (counted at admission: prompt + {@code max_tokens})
     * @param tokensPerRequest   tokens one request is counted for
     * @param latency            how long a call takes
     * @param safetyFactor       the share of the binding ceiling to plan for, in (0, 1]
     * @param ticketsPerRequest  tickets one request carries (the batch size; 1 when each ticket is its own call)
     * @param backlog            tickets waiting (empty: none given)
     */
    public record Inputs(OptionalLong rpm, OptionalLong tpm, double tokensPerRequest, Duration latency, double safetyFactor,
                         double ticketsPerRequest, OptionalLong backlog) {
        public Inputs {
            require(rpm.isPresent() || tpm.isPresent(), "give --rpm, --tpm or both: with neither there is no quota to plan for "
                    + "(a self-hosted engine's limit is its concurrency: measure it)");
            require(rpm.orElse(1) > 0, "--rpm must be > 0");
            require(tpm.orElse(1) > 0, "--tpm must be > 0");
            require(tokensPerRequest > 0 && Double.isFinite(tokensPerRequest), "tokens a request must be > 0");
            require(latency != null && !latency.isNegative(), "--latency-s must be >= 0");
            require(safetyFactor > 0 && safetyFactor <= 1, "--safety-factor must be in (0, 1]");
            require(ticketsPerRequest >= 1 && Double.isFinite(ticketsPerRequest), "tickets a request must be >= 1");
            require(backlog.orElse(0) >= 0, "--backlog must be >= 0");
        }

        private static void require(boolean ok, String message) {
            if (!ok) {
                throw new IllegalArgumentException(message);
            }
        }
    }

    /** The plan for {@code in}. */
    public static CapacityPlan of(Inputs in) {
        OptionalDouble rpmCeiling = in.rpm().isPresent() ? OptionalDouble.of(in.rpm().getAsLong()) : OptionalDouble.empty();
        OptionalDouble tpmCeiling = in.tpm().isPresent() ? OptionalDouble.of(in.tpm().getAsLong() / in.tokensPerRequest())
                : OptionalDouble.empty();
        Limit binding = !tpmCeiling.isPresent() ? Limit.RPM
                : !rpmCeiling.isPresent() ? Limit.TPM
                : tpmCeiling.getAsDouble() < rpmCeiling.getAsDouble() ? Limit.TPM : Limit.RPM;
        double ceiling = (binding == Limit.TPM ? tpmCeiling : rpmCeiling).getAsDouble();
        double safe = ceiling * in.safetyFactor();
        double perSecond = safe / 60.0;
        double latencySeconds = in.latency().toNanos() / 1e9;
        // a hair of tolerance, so 6.666…/s × 3 s is 20 calls and not 21 from the float's last digit
        long inFlight = (long) Math.ceil(perSecond * latencySeconds - 1e-9);
        java.util.Optional<Duration> drain = java.util.Optional.empty();
        if (in.backlog().isPresent()) {
            double ticketsPerSecond = perSecond * in.ticketsPerRequest();
            drain = java.util.Optional.of(Duration.ofMillis(Math.round(in.backlog().getAsLong() / ticketsPerSecond * 1000)));
        }
        return new CapacityPlan(in, rpmCeiling, tpmCeiling, binding, safe, inFlight, drain);
    }

    /** Tickets a minute at the safe rate. */
    public double safeTicketsPerMinute() {
        return safeRequestsPerMinute * inputs.ticketsPerRequest();
    }
}

package io.quotaflow.settings;

/**
 * The provider quota of one scope and how hard to drive it.
 *
 * @param rpm             requests per minute the provider allows, or {@link #NONE} (a self-hosted engine: no such limit)
 * @param tpm             tokens per minute the provider allows, or {@link #NONE}
 * @param safetyFactor    fraction of the limits to use, (0, 1]
 * @param burstSeconds    bucket capacity in seconds of refill (a few seconds; never a full minute)
 * @param maxInFlight     most calls outstanding at once; {@link #AUTO} (0): by Little's law from the
 *                        limits and the measured latency, up to {@code maxInFlightCeiling}; without a request or
 *                        token limit also from the calls' latency (the lower wins)
 * @param reserveFraction fraction of each bucket that only interactive work may spend, [0, 1)
 * @param maxInFlightCeiling the most calls {@code auto} may keep outstanding
 * @param rpmOrigin       where {@code rpm} comes from: a {@link LimitOrigin#SET} limit is a ceiling the provider's
 *                        headers may only lower; a {@link LimitOrigin#DEFAULT} or {@link LimitOrigin#AUTO} one learns both ways
 * @param tpmOrigin       the same for {@code tpm}
 */
public record QuotaSettings(int rpm, int tpm, double safetyFactor, double burstSeconds, int maxInFlight,
                            double reserveFraction, int maxInFlightCeiling, LimitOrigin rpmOrigin, LimitOrigin tpmOrigin) {

    /** {@code quota.rpm=none} / {@code quota.tpm=none}: the provider sets no such limit. */
    public static final int NONE = 0;
    /** {@code quota.max-in-flight=auto}. */
    public static final int AUTO = 0;
    public static final int DEFAULT_IN_FLIGHT_CEILING = 256;

    public QuotaSettings(int rpm, int tpm, double safetyFactor, double burstSeconds, int maxInFlight, double reserveFraction) {
        this(rpm, tpm, safetyFactor, burstSeconds, maxInFlight, reserveFraction, DEFAULT_IN_FLIGHT_CEILING);
    }

    /** Limits that learn from the provider both ways ({@link LimitOrigin#DEFAULT}). */
    public QuotaSettings(int rpm, int tpm, double safetyFactor, double burstSeconds, int maxInFlight, double reserveFraction,
                         int maxInFlightCeiling) {
        this(rpm, tpm, safetyFactor, burstSeconds, maxInFlight, reserveFraction, maxInFlightCeiling, LimitOrigin.DEFAULT,
                LimitOrigin.DEFAULT);
    }

    public QuotaSettings {
        java.util.Objects.requireNonNull(rpmOrigin, "rpmOrigin");
        java.util.Objects.requireNonNull(tpmOrigin, "tpmOrigin");
        require(maxInFlightCeiling >= 1, "quota.max-in-flight-ceiling must be >= 1");
        require(rpm >= 0, "quota.rpm must be > 0 or none");
        require(tpm >= 0, "quota.tpm must be > 0 or none");
        require(safetyFactor > 0 && safetyFactor <= 1, "quota.safety-factor must be in (0, 1]");
        require(burstSeconds > 0 && burstSeconds <= 30, "quota.burst-seconds must be in (0, 30]");
        require(maxInFlight >= 0, "quota.max-in-flight must be auto or > 0");
        require(reserveFraction >= 0 && reserveFraction < 1, "quota.reserve-fraction must be in [0, 1)");
    }

    /** Whether the provider limits requests per minute. */
    public boolean limitsRequests() {
        return rpm != NONE;
    }

    /** Whether the provider limits tokens per minute. */
    public boolean limitsTokens() {
        return tpm != NONE;
    }

    /** Whether a per-minute limit is missing ({@code none}): the calls' latency then also bounds {@code auto}'s in-flight limit. */
    public boolean selfHosted() {
        return !limitsRequests() || !limitsTokens();
    }

    /** Requests per second as driven (the limit × the safety factor), or infinity without a request limit. */
    public double requestsPerSecond() {
        return limitsRequests() ? rpm * safetyFactor / 60.0 : Double.POSITIVE_INFINITY;
    }

    /** Tokens per second as driven (the limit × the safety factor), or infinity without a token limit. */
    public double tokensPerSecond() {
        return limitsTokens() ? tpm * safetyFactor / 60.0 : Double.POSITIVE_INFINITY;
    }

    /** {@code 500} or {@code none}: a per-minute limit as configured. */
    public static String limitText(int limit) {
        return limit == NONE ? "none" : Integer.toString(limit);
    }

    public static QuotaSettings ofDefaults() {
        return new QuotaSettings(500, 200_000, 0.98, 2.0, AUTO, 0.25, DEFAULT_IN_FLIGHT_CEILING);
    }

    /** This with {@code rpm} {@code value}, of the same origin. */
    public QuotaSettings withRpm(int value) {
        return withRpm(value, rpmOrigin);
    }

    /** This with {@code tpm} {@code value}, of the same origin. */
    public QuotaSettings withTpm(int value) {
        return withTpm(value, tpmOrigin);
    }

    public QuotaSettings withRpm(int value, LimitOrigin origin) {
        return new QuotaSettings(value, tpm, safetyFactor, burstSeconds, maxInFlight, reserveFraction, maxInFlightCeiling, origin,
                tpmOrigin);
    }

    public QuotaSettings withTpm(int value, LimitOrigin origin) {
        return new QuotaSettings(rpm, value, safetyFactor, burstSeconds, maxInFlight, reserveFraction, maxInFlightCeiling, rpmOrigin,
                origin);
    }

    /**
     * {@code 500 RPM (default), 20000 TPM (set)}: each per-minute limit with where it comes from, as
     * {@code run} names them at start.
     */
    public String describeLimits() {
        return limitText(rpm) + " RPM (" + (limitsRequests() ? rpmOrigin.label() : "no limit") + "), " + limitText(tpm) + " TPM ("
                + (limitsTokens() ? tpmOrigin.label() : "no limit") + ")";
    }

    public QuotaSettings withSafetyFactor(double value) {
        return new QuotaSettings(rpm, tpm, value, burstSeconds, maxInFlight, reserveFraction, maxInFlightCeiling, rpmOrigin, tpmOrigin);
    }

    public QuotaSettings withBurstSeconds(double value) {
        return new QuotaSettings(rpm, tpm, safetyFactor, value, maxInFlight, reserveFraction, maxInFlightCeiling, rpmOrigin, tpmOrigin);
    }

    public QuotaSettings withMaxInFlight(int value) {
        return new QuotaSettings(rpm, tpm, safetyFactor, burstSeconds, value, reserveFraction, maxInFlightCeiling, rpmOrigin, tpmOrigin);
    }

    public QuotaSettings withReserveFraction(double value) {
        return new QuotaSettings(rpm, tpm, safetyFactor, burstSeconds, maxInFlight, value, maxInFlightCeiling, rpmOrigin, tpmOrigin);
    }

    public QuotaSettings withMaxInFlightCeiling(int value) {
        return new QuotaSettings(rpm, tpm, safetyFactor, burstSeconds, maxInFlight, reserveFraction, value, rpmOrigin, tpmOrigin);
    }

    public static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}

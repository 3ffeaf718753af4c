package io.quotaflow.config;

/**
 * The provider quota of one scope and how hard to drive it.
 *
 * @param rpm             requests per minute the provider allows
 * @param tpm             tokens per minute the provider allows
 * @param safetyFactor    fraction of the limits to use, (0, 1]
 * @param burstSeconds    bucket capacity in seconds of refill (a few seconds; never a full minute)
 * @param maxInFlight     most calls outstanding at once
 * @param reserveFraction fraction of each bucket that only interactive work may spend, [0, 1)
 */
public record QuotaSettings(int rpm, int tpm, double safetyFactor, double burstSeconds, int maxInFlight,
                            double reserveFraction) {

    public QuotaSettings {
        require(rpm > 0, "quota.rpm must be > 0");
        require(tpm > 0, "quota.tpm must be > 0");
        require(safetyFactor > 0 && safetyFactor <= 1, "quota.safety-factor must be in (0, 1]");
        require(burstSeconds > 0 && burstSeconds <= 30, "quota.burst-seconds must be in (0, 30]");
        require(maxInFlight > 0, "quota.max-in-flight must be > 0");
        require(reserveFraction >= 0 && reserveFraction < 1, "quota.reserve-fraction must be in [0, 1)");
    }

    public static QuotaSettings ofDefaults() {
        return new QuotaSettings(500, 200_000, 0.98, 2.0, 16, 0.25);
    }

    public QuotaSettings withRpm(int value) {
        return new QuotaSettings(value, tpm, safetyFactor, burstSeconds, maxInFlight, reserveFraction);
    }

    public QuotaSettings withTpm(int value) {
        return new QuotaSettings(rpm, value, safetyFactor, burstSeconds, maxInFlight, reserveFraction);
    }

    public QuotaSettings withSafetyFactor(double value) {
        return new QuotaSettings(rpm, tpm, value, burstSeconds, maxInFlight, reserveFraction);
    }

    public QuotaSettings withBurstSeconds(double value) {
        return new QuotaSettings(rpm, tpm, safetyFactor, value, maxInFlight, reserveFraction);
    }

    public QuotaSettings withMaxInFlight(int value) {
        return new QuotaSettings(rpm, tpm, safetyFactor, burstSeconds, value, reserveFraction);
    }

    public QuotaSettings withReserveFraction(double value) {
        return new QuotaSettings(rpm, tpm, safetyFactor, burstSeconds, maxInFlight, value);
    }

    static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}

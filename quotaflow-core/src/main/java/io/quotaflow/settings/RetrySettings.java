package io.quotaflow.settings;

import java.time.Duration;

/**
 * Backoff for retryable failures: full jitter, {@code random(0, min(cap, base·2ⁿ))}.
 *
 * @param base        the first delay's upper bound
 * @param cap         the largest delay
 * @param maxAttempts attempts before a ticket is dead-lettered
 * @param maxAge      age after which a failed ticket (or any ticket while the circuit is open) is dead-lettered
 * @param circuitOpenWait   how long the circuit breaker stays open before a half-open probe
 * @param haltProbeInterval how often a halted scope probes the provider
 */
public record RetrySettings(Duration base, Duration cap, int maxAttempts, Duration maxAge, Duration circuitOpenWait,
                            Duration haltProbeInterval) {

    public static final Duration DEFAULT_CIRCUIT_OPEN_WAIT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_HALT_PROBE_INTERVAL = Duration.ofSeconds(30);

    public RetrySettings(Duration base, Duration cap, int maxAttempts, Duration maxAge) {
        this(base, cap, maxAttempts, maxAge, DEFAULT_CIRCUIT_OPEN_WAIT, DEFAULT_HALT_PROBE_INTERVAL);
    }

    public RetrySettings {
        QuotaSettings.require(circuitOpenWait != null && circuitOpenWait.toMillis() > 0, "retry.circuit-open-ms must be > 0");
        QuotaSettings.require(haltProbeInterval != null && haltProbeInterval.toMillis() > 0, "retry.halt-probe-ms must be > 0");
        QuotaSettings.require(base != null && !base.isNegative(), "retry.base must be >= 0");
        QuotaSettings.require(cap != null && cap.compareTo(base) >= 0, "retry.cap must be >= retry.base");
        QuotaSettings.require(maxAttempts >= 1, "retry.max-attempts must be >= 1");
        QuotaSettings.require(maxAge != null && maxAge.toMillis() > 0, "retry.max-age must be > 0");
    }

    public static RetrySettings ofDefaults() {
        return new RetrySettings(Duration.ofSeconds(1), Duration.ofMinutes(5), 8, Duration.ofHours(1));
    }

    public RetrySettings withMaxAge(Duration value) {
        return new RetrySettings(base, cap, maxAttempts, value, circuitOpenWait, haltProbeInterval);
    }

    public RetrySettings withMaxAttempts(int value) {
        return new RetrySettings(base, cap, value, maxAge, circuitOpenWait, haltProbeInterval);
    }

    public RetrySettings withBase(Duration value) {
        return new RetrySettings(value, cap.compareTo(value) >= 0 ? cap : value, maxAttempts, maxAge, circuitOpenWait, haltProbeInterval);
    }

    public RetrySettings withCap(Duration value) {
        return new RetrySettings(base, value, maxAttempts, maxAge, circuitOpenWait, haltProbeInterval);
    }

    public RetrySettings withCircuitOpenWait(Duration value) {
        return new RetrySettings(base, cap, maxAttempts, maxAge, value, haltProbeInterval);
    }

    public RetrySettings withHaltProbeInterval(Duration value) {
        return new RetrySettings(base, cap, maxAttempts, maxAge, circuitOpenWait, value);
    }
}

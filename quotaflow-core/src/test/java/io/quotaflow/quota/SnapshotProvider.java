package io.quotaflow.quota;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * A provider for the limiter's whole-run tests: request and token buckets holding
 * {@code burstSeconds} of the true limits, starting full, and rate-limit headers that are a snapshot
 * taken when it admits a call (as real providers compute them). It counts what it admitted and the
 * calls it had no room for (what would have been 429s).
 */
final class SnapshotProvider {

    final double tokenCapacity;
    private final int rpm;
    private final int tpm;
    private final double requestCapacity;
    private double tokens;
    private double requests;
    private long last;
    long admitted;
    int refused;

    SnapshotProvider(int rpm, int tpm, int burstSeconds) {
        this.rpm = rpm;
        this.tpm = tpm;
        this.tokenCapacity = tpm / 60.0 * burstSeconds;
        this.requestCapacity = rpm / 60.0 * burstSeconds;
        this.tokens = tokenCapacity;
        this.requests = requestCapacity;
    }

    /** A call the provider counts as {@code cost} tokens reaches it at {@code atNanos}; returns the headers its answer carries. */
    RateLimitInfo arrive(long cost, long atNanos) {
        double seconds = (atNanos - last) / 1e9;
        tokens = Math.min(tokenCapacity, tokens + tpm / 60.0 * seconds);
        requests = Math.min(requestCapacity, requests + rpm / 60.0 * seconds);
        last = atNanos;
        if (tokens + 1e-6 < cost || requests + 1e-6 < 1) {
            refused++;
        }
        tokens -= cost;
        requests -= 1;
        admitted += cost;
        return new RateLimitInfo(OptionalLong.of(rpm), OptionalLong.of(tpm), OptionalLong.of((long) Math.max(0, Math.floor(requests))),
                OptionalLong.of((long) Math.max(0, Math.floor(tokens))), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** What it could have admitted over a run from the first call sent to the last: its starting bucket plus its refill. */
    double feasible(long firstSendNanos, long lastSendNanos) {
        return tokenCapacity + tpm / 60.0 * (lastSendNanos - firstSendNanos) / 1e9;
    }
}

package io.quotaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * What a result JSON says about when it was made: {@code classifiedAt}, the call's {@code latencyMs}, and
 * when intake took the ticket in ({@code classifiedAt − queuedMs − retryWaitMs − latencyMs}; 0 when unknown).
 */
record ResultTimes(long classifiedAtMs, long latencyMs, long intakeAtMs) {

    ResultTimes(long classifiedAtMs, long latencyMs) {
        this(classifiedAtMs, latencyMs, 0);
    }

    /** Milliseconds from {@code publishedAtMs} to this result (0 if the clocks say it came first). */
    long sinceMs(long publishedAtMs) {
        return Math.max(0, classifiedAtMs - publishedAtMs);
    }

    /** When the call that produced it went out (at the latest). */
    long calledAtMs() {
        return classifiedAtMs - latencyMs;
    }

    /** {@code classifiedAt}, {@code latencyMs} and the intake time of a result; null when it lacks the first two. */
    static ResultTimes of(JsonNode result) {
        String at = result.path("classifiedAt").asText(null);
        if (at == null) {
            return null;
        }
        try {
            long classified = Instant.parse(at).toEpochMilli();
            long latency = Math.max(0, result.path("latencyMs").asLong(0));
            long queued = result.path("queuedMs").asLong(-1);
            long intake = queued < 0 ? 0 : classified - queued - Math.max(0, result.path("retryWaitMs").asLong(0)) - latency;
            return new ResultTimes(classified, latency, intake);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}

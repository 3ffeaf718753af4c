package io.quotaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/** What a result JSON says about when it was made: {@code classifiedAt} and the call's {@code latencyMs}. */
record ResultTimes(long classifiedAtMs, long latencyMs) {

    /** Milliseconds from {@code publishedAtMs} to this result (0 if the clocks say it came first). */
    long sinceMs(long publishedAtMs) {
        return Math.max(0, classifiedAtMs - publishedAtMs);
    }

    /** When the call that produced it went out (at the latest). */
    long calledAtMs() {
        return classifiedAtMs - latencyMs;
    }

    /** {@code classifiedAt} and {@code latencyMs} of a result; null when it lacks them. */
    static ResultTimes of(JsonNode result) {
        String at = result.path("classifiedAt").asText(null);
        if (at == null) {
            return null;
        }
        try {
            return new ResultTimes(Instant.parse(at).toEpochMilli(), Math.max(0, result.path("latencyMs").asLong(0)));
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}

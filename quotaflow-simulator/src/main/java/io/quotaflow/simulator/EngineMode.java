package io.quotaflow.simulator;

import java.util.Locale;

/**
 * The simulator as a self-hosted inference engine (vLLM, TGI, Ollama behind an OpenAI-compatible
 * URL) instead of a rate-limited provider: no rate limits and no rate-limit headers; the physical
 * limit is concurrency. Up to {@code saturation} calls run at full speed; beyond that the running
 * calls share the engine's throughput, so each takes longer: a call admitted while {@code n} calls
 * run (itself included) takes its usual latency × max(1, n / saturation). More than
 * {@code maxRunning} running are refused at once with {@code refusalStatus}: 429 in TGI's shape
 * ({@code {"error":"Model is overloaded","error_type":"overloaded"}}) or 503, never with rate-limit
 * headers. The engine's most throughput is {@code saturation} calls per unloaded latency.
 *
 * @param saturation    K: the concurrency at which throughput saturates, at least 1
 * @param maxRunning    M: the most calls running at once, at least K; one more is refused
 * @param refusalStatus 429 (TGI's "Model is overloaded") or 503
 */
public record EngineMode(int saturation, int maxRunning, int refusalStatus) {

    /** TGI's answer to a request beyond its concurrency: a 429 without any rate-limit header. */
    public static final String OVERLOADED_BODY = "{\"error\":\"Model is overloaded\",\"error_type\":\"overloaded\"}";

    public EngineMode {
        ConfigChecks.require(saturation >= 1, "engine saturation must be >= 1: " + saturation);
        ConfigChecks.require(maxRunning >= saturation, "engine max-running must be >= its saturation (" + saturation + "): " + maxRunning);
        ConfigChecks.require(refusalStatus == 429 || refusalStatus == 503, "engine refusal status must be 429 or 503: " + refusalStatus);
    }

    /** An engine saturating at {@code saturation} running calls that refuses beyond {@code maxRunning} with a TGI-style 429. */
    public static EngineMode of(int saturation, int maxRunning) {
        return new EngineMode(saturation, maxRunning, 429);
    }

    /** The factor a call's latency is stretched by while {@code running} calls run (itself included). */
    public double slowdown(int running) {
        return Math.max(1.0, running / (double) saturation);
    }

    /** {@code K/M} or {@code K/M/503}, as the {@code sim} command takes it. */
    public static EngineMode parse(String text) {
        String[] parts = text.strip().toLowerCase(Locale.ROOT).split("/");
        ConfigChecks.require(parts.length == 2 || parts.length == 3, "an engine is K/M or K/M/STATUS (e.g. 8/128 or 8/128/503): " + text);
        try {
            return new EngineMode(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()),
                    parts.length == 3 ? Integer.parseInt(parts[2].strip()) : 429);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("an engine is K/M or K/M/STATUS (e.g. 8/128 or 8/128/503): " + text, e);
        }
    }

    /** {@code saturation/maxRunning[/503]}: what {@link #parse} reads. */
    public String label() {
        return saturation + "/" + maxRunning + (refusalStatus == 429 ? "" : "/" + refusalStatus);
    }
}

package io.quotaflow.dispatch.limit;

import io.quotaflow.quota.EngineSignals;
import io.quotaflow.quota.LatencyLimit;
import io.quotaflow.settings.QuotaSettings;

/**
 * The in-flight limit's part that comes from the calls' latency (docs/design.md, "Self-hosted
 * engines"): on a route configured as an engine ({@code rpm} or {@code tpm} {@code none},
 * {@code max-in-flight=auto}) a {@link LatencyLimit} from the start; on any other route, the
 * {@link EngineSignals} that tell whether it looks like an engine though it was not configured as
 * one. Found one with {@code auto}, it runs a {@link LatencyLimit} too (and drops it if an answer
 * later carries rate-limit headers); with a fixed {@code max-in-flight} it only says so. Until an
 * answer has carried headers or the verdict is in, {@link EngineSignals#cap()} holds the calls out.
 * Plain Java, one per {@link ProviderModel}.
 */
final class EngineWatch {

    private final boolean auto;
    private final int ceiling;
    private final int fixed;
    /** Null on a route configured as an engine. */
    private final EngineSignals signals;
    /** Null until it is known to be needed. */
    private LatencyLimit latency;
    private boolean noticePending;

    EngineWatch(QuotaSettings quota, boolean auto, long nowNanos) {
        this.auto = auto;
        this.ceiling = quota.maxInFlightCeiling();
        this.fixed = quota.maxInFlight();
        boolean configured = quota.selfHosted();
        this.signals = configured ? null : new EngineSignals();
        this.latency = auto && configured ? new LatencyLimit(ceiling, nowNanos) : null;
    }

    /**
     * An auto limit by the rates, {@code byRates}, bounded by what is known of the latency; the
     * oldest call still out has waited {@code oldestOutstandingMs} (0 once a latency is known).
     */
    int limit(int byRates, long oldestOutstandingMs) {
        int limit = signals == null ? byRates : Math.min(byRates, signals.cap(oldestOutstandingMs));
        return latency == null ? limit : Math.min(limit, latency.limit());
    }

    /** Whether an answer has carried rate-limit headers (here, or on a previous owner: {@link ProviderModel#takeOver}). */
    boolean headersSeen() {
        return signals != null && signals.headersSeen();
    }

    /** Some answer carried rate-limit headers: not an engine. */
    void headers() {
        if (signals != null && !signals.headersSeen()) {
            signals.headers();
            if (auto) {
                latency = null;
            }
        }
    }

    /**
     * A call charged {@code tokens}, sent at {@code sentNanos} with {@code outAtSend} out, was
     * answered after {@code latencyMs} (a 200), with rate-limit headers or without.
     */
    void answered(long sentNanos, int outAtSend, long tokens, long latencyMs, boolean withHeaders, long nowNanos) {
        if (signals != null) {
            if (withHeaders) {
                headers();
            } else {
                boolean before = signals.looksLikeEngine();
                signals.answered(outAtSend, tokens, latencyMs);
                if (!before && signals.looksLikeEngine()) {
                    noticePending = true;
                    if (auto) {
                        // from its unloaded start: the calls out now may all be past the knee
                        latency = new LatencyLimit(ceiling, nowNanos);
                        return;
                    }
                }
            }
        }
        if (latency != null) {
            latency.answered(sentNanos, outAtSend, tokens, latencyMs, nowNanos);
        }
    }

    /** Whether an engine's overload refusal of a call sent at {@code sentNanos} was taken by the latency limit. */
    boolean overloaded(long sentNanos, long nowNanos) {
        if (latency == null) {
            return false;
        }
        latency.overloaded(sentNanos, nowNanos);
        return true;
    }

    /** Whether the route looks like an engine it was not configured as. */
    boolean looksLikeEngine() {
        return signals != null && signals.looksLikeEngine();
    }

    /** What to tell the operator once, the moment the route was found to look like an engine; else null. */
    String takeNotice() {
        if (!noticePending) {
            return null;
        }
        noticePending = false;
        return hint();
    }

    /** For {@code /status}: why the route looks like an engine and how to configure it; null when it does not. */
    String hint() {
        if (!looksLikeEngine()) {
            return null;
        }
        return "looks like a self-hosted engine: no rate-limit headers, and " + signals.evidence() + "; "
                + (auto ? "the in-flight limit follows the calls' latency (its knee)"
                : "max-in-flight stays at the configured " + fixed + " (set it to auto to find the engine's knee)")
                + "; configure it as one: rpm=none, tpm=none, max-in-flight=auto";
    }
}

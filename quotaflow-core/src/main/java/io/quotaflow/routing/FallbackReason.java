package io.quotaflow.routing;

import java.util.Locale;

/** Why a ticket left its route: the {@code reason} label of {@code quotaflow_fallbacks_total} and {@code fallbackReason}. */
public enum FallbackReason {
    /** The route is halted (key refused, model missing, quota spent). */
    HALTED,
    /** The route's circuit is open (it keeps failing). */
    CIRCUIT_OPEN,
    /** The ticket's expected wait exceeds its priority's {@code routing.max-wait}. */
    MAX_WAIT,
    /** The ticket cannot fit the route's context window. */
    CONTEXT,
    /** The route's daily budget is spent. */
    OUT_FOR_DAY,
    /** The ticket would miss its deadline on the route (docs/design.md, "Deadlines and hand-off"). */
    DEADLINE,
    /** The batch job holding the ticket ended (its window expired, or it was cancelled) before it got to it. */
    BATCH_EXPIRED;

    /**
     * Wire name: {@code halted}, {@code circuit-open}, {@code max-wait}, {@code context}, {@code out-for-day},
     * {@code deadline}, {@code batch-expired}.
     */
    public String wire() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}

package io.quotaflow.quota;

import java.util.List;

/**
 * Calls the provider's answer may not hold yet: what a lowering subtracts (refill credited from
 * the answer on), and the moments a raise must hold against (the lowest of them wins).
 */
record Uncounted(Charge lower, List<Snapshot> raise) {

    Uncounted {
        raise = List.copyOf(raise);
    }

    /**
     * A moment the provider may have taken an answer's headers at, and the calls it may not have
     * counted then: a raise may credit refill only from that moment on and must subtract them.
     */
    record Snapshot(long atNanos, Charge uncounted) {
    }
}

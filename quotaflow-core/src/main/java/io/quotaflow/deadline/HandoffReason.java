package io.quotaflow.deadline;

import java.util.Locale;

/** Why a ticket left its route before its deadline: the {@code reason} label of {@code quotaflow_handoffs_total}. */
public enum HandoffReason {
    /** Its ETA on the route passes its deadline (a retry's backoff included). */
    ETA,
    /** The route cannot serve (halted, circuit open, out for the day) before its deadline. */
    UNAVAILABLE,
    /** Its deadline had passed when it arrived or came back. */
    PASSED,
    /** It would wait longer than its class's {@code queue.max-wait} (shedding, not a deadline). */
    MAX_WAIT;

    /** {@code eta}, {@code unavailable}, {@code passed}, {@code max-wait}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}

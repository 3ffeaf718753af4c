package io.quotaflow.records;

/**
 * The headers quotaflow adds to a ticket it hands to people on {@code tickets.handoff} (docs/design.md,
 * "Deadlines and hand-off"), besides the producer's own and the {@link DeadLetterHeaders} that say where
 * it came from ({@code qf.version}, {@code qf.tenant}, {@code qf.origin.*}, {@code qf.enqueued-at},
 * {@code qf.attempt}). The value is the producer's original bytes; the key, the ticket's.
 */
public final class HandoffHeaders {

    /** Why: {@code eta} (it would be done after its deadline), {@code unavailable} (its route cannot serve), {@code passed}. */
    public static final String REASON = "qf.handoff.reason";
    /** When it would have been done on its route (ISO-8601 instant), or {@code unknown} while the route cannot serve. */
    public static final String ETA = "qf.handoff.eta";
    /** Its deadline (ISO-8601 instant). */
    public static final String DEADLINE = "qf.handoff.deadline";
    /** The route it waited on (a route's name, never a key). */
    public static final String ROUTE = "qf.handoff.route";
    /** The value of {@link #ETA} when no time is known. */
    public static final String UNKNOWN = "unknown";

    private HandoffHeaders() {
    }
}

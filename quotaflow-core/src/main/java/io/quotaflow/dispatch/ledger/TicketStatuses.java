package io.quotaflow.dispatch.ledger;

import io.quotaflow.records.Priority;
import io.quotaflow.status.StatusStore;
import io.quotaflow.status.TicketState;
import io.quotaflow.status.TicketStatus;
import io.quotaflow.ticket.WorkItem;

import java.util.List;

/**
 * Writes a ticket's status at each event of the dispatcher (docs/design.md, "Ticket status"): one
 * call per event, in the same task step as the record the event forwards, so both commit together.
 * Shared by the scopes of a task (ticket keys are unique).
 */
public final class TicketStatuses {

    /** Finished statuses deleted per sweep at most (the sweep runs once a second). */
    private static final int SWEEP_MAX = 1_000;

    private final StatusStore store;
    private final String defaultRoute;

    public TicketStatuses(StatusStore store, String defaultRoute) {
        this.store = store;
        this.defaultRoute = defaultRoute;
    }

    /** Taken in by the ledger: waiting, or held until its retry is due. */
    public void accepted(WorkItem item, long now) {
        boolean later = item.notBefore() > now;
        put(item, later ? TicketState.DELAYED : TicketState.PENDING, routeOf(item), now, later ? item.notBefore() : 0, null);
    }

    /** Waits for the answer of an identical ticket (it shares that ticket's fate). */
    public void following(WorkItem item, long now) {
        put(item, TicketState.PENDING, routeOf(item), now, 0, "follows an identical ticket");
    }

    public void inFlight(List<WorkItem> items, long now) {
        items.forEach(item -> put(item, TicketState.IN_FLIGHT, routeOf(item), now, 0, null));
    }

    /** Back in the queue (split, rate limited, halted). */
    public void requeued(List<WorkItem> items, long now) {
        items.forEach(item -> put(item, TicketState.PENDING, routeOf(item), now, 0, null));
    }

    /** Sent to the retry topic, due at its {@code notBefore}. */
    public void retried(WorkItem item, String kind, long now) {
        put(item, TicketState.DELAYED, routeOf(item), now, Math.max(0, item.notBefore()), "retry after " + kind);
    }

    public void classified(WorkItem item, boolean cached, long now) {
        put(item, TicketState.CLASSIFIED, routeOf(item), now, 0, cached ? "cached" : null);
    }

    public void deadLettered(WorkItem item, String kind, long now) {
        put(item, TicketState.DEAD_LETTERED, routeOf(item), now, 0, kind);
    }

    /** Handed off to people ({@code tickets.handoff}) for {@code reason}: it ends here. */
    public void handedOff(WorkItem item, String reason, long now) {
        put(item, TicketState.HANDED_OFF, routeOf(item), now, 0, "handed off: " + reason);
    }

    /** Cancelled before it was sent: its last record, now {@code cancelled} (nothing recorded of it: nothing to say). */
    public void cancelled(String id, long now) {
        store.get(id).ifPresent(last -> store.put(id, last.to(TicketState.CANCELLED, Math.max(0, now), null)));
    }

    /** A newer publication of the ticket is answered on another route: this copy has nothing to say. */
    public void superseded(String key) {
        store.remove(key);
    }

    /** On its way to route {@code to}: its dispatcher writes its own status when it takes it in. */
    public void moved(WorkItem item, String to, String reason, long now) {
        put(item, TicketState.PENDING, to, now, 0, "fell back from " + routeOf(item) + ": " + reason);
    }

    /**
     * Whether the status on record is of a later publication of {@code item}'s ticket that came on the
     * interactive lane: {@code item}, published before it, waited on the dispatch topic while the lane
     * overtook it, and is stale. Read from the store, so it holds across a restart or a rebalance; it
     * holds for as long as the status is kept ({@code status.retention} once the ticket is finished).
     */
    public boolean overtakenOnTheLane(WorkItem item) {
        return store.get(item.key())
                .filter(s -> s.publishedAt() > item.publishedAt())
                .filter(s -> Priority.parse(s.priority()).map(Lanes::interactive).orElse(false))
                .isPresent();
    }

    /** Deletes finished statuses past {@code status.retention} (bounded work); true when more may be due. */
    public boolean sweep(long now) {
        return store.sweep(now, SWEEP_MAX) >= SWEEP_MAX;
    }

    private String routeOf(WorkItem item) {
        return item.routed().route() != null ? item.routed().route() : defaultRoute;
    }

    private void put(WorkItem item, TicketState state, String route, long now, long dueAt, String detail) {
        store.put(item.key(), new TicketStatus(state, route, item.priority().wireName(), item.tenant(), Math.max(0, item.enqueuedAt()),
                Math.max(0, now), dueAt, detail, Math.max(0, item.publishedAt())));
    }
}

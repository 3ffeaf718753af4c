package io.quotaflow.dispatch;

import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.ledger.TicketStatuses;
import io.quotaflow.dispatch.outcome.CacheGate;
import io.quotaflow.dispatch.outcome.OutcomeApplier;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.records.Classification;
import io.quotaflow.routing.RouteSettings;
import io.quotaflow.ticket.WorkItem;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What else happens in a scope when one of its tickets ends, beyond the failure table's record: its
 * status, the cache's followers of it ({@link CacheGate}), and a context fallback instead of a too-large
 * dead letter ({@link RouteMover#contextFallback}). The {@link OutcomeApplier} tells it each ending.
 */
final class TicketEndings implements OutcomeApplier.Diversion {

    private final String scope;
    private final TicketStatuses statuses;
    private final CacheGate gate;
    private final RouteMover mover;
    private final DispatcherListener listener;
    private final Function<WorkItem, RouteSettings> routeOf;

    /** For {@code scope}, whose tickets are on the route {@code routeOf} names. */
    TicketEndings(String scope, TicketStatuses statuses, CacheGate gate, RouteMover mover, DispatcherListener listener,
                  Function<WorkItem, RouteSettings> routeOf) {
        this.scope = scope;
        this.statuses = statuses;
        this.gate = gate;
        this.mover = mover;
        this.listener = listener;
        this.routeOf = routeOf;
    }

    @Override
    public boolean divert(WorkItem item, long now) {
        if (mover.contextFallback(item, routeOf.apply(item), now)) {
            gate.left(item, now);
            return true;
        }
        return false;
    }

    @Override
    public void classified(WorkItem item, Classification result, long now) {
        statuses.classified(item, false, now);
        gate.classified(item, result, now);
    }

    @Override
    public void deadLettered(WorkItem item, String kind, int status, String message, long now) {
        statuses.deadLettered(item, kind, now);
        gate.deadLettered(item, kind, status, message, now);
    }

    @Override
    public void retried(WorkItem item, String kind, long now) {
        statuses.retried(item, kind, now);
    }

    @Override
    public void requeued(List<WorkItem> items, long now) {
        statuses.requeued(items, now);
    }

    @Override
    public boolean answeredStale(WorkItem item, long now) {
        return gate.answerStale(item, now);
    }

    @Override
    public void handedOff(WorkItem item, String reason, long now) {
        statuses.handedOff(item, reason, now);
        gate.left(item, now);
    }

    @Override
    public String route(WorkItem item) {
        return routeOf.apply(item).name();
    }

    /**
     * The tickets of a batch job's call that ended unanswered: one cancelled while out ends; with {@code fallback},
     * one an online fallback of its route holds moves there ({@link RouteMover#unfinished}); the others wait in
     * {@code ledger} again. No attempt is consumed.
     */
    void unanswered(List<WorkItem> items, boolean fallback, DispatchLedger ledger, long now) {
        List<WorkItem> stay = new ArrayList<>();
        for (WorkItem item : items) {
            if (ledger.cancelledWhileOut(item.key())) {
                ledger.finish(item);
                cancelled(item, now);
            } else if (fallback && mover.unfinished(item, routeOf.apply(item), now)) {
                ledger.finish(item);
                gate.left(item, now);
            } else {
                stay.add(item);
            }
        }
        ledger.requeue(stay);
        statuses.requeued(stay, now);
    }

    /** {@code item}, cancelled while a previous owner's call was out, ends now: withdrawn from {@code ledger}, nothing written. */
    void withdrawn(WorkItem item, DispatchLedger ledger, long now) {
        ledger.withdraw(item.key());
        listener.cancelled(scope, item.key());
        statuses.cancelled(item.key(), now);
    }

    @Override
    public void cancelled(WorkItem item, long now) {
        gate.left(item, now);
        listener.cancelled(scope, item.key());
        statuses.cancelled(item.key(), now);
    }
}

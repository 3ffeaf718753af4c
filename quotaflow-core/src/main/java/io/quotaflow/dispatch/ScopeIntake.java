package io.quotaflow.dispatch;

import io.quotaflow.dispatch.outcome.Arrivals;
import io.quotaflow.ticket.Publication;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.ledger.RetryMarker;
import io.quotaflow.dispatch.ledger.TicketStatuses;
import io.quotaflow.dispatch.outcome.CacheGate;
import io.quotaflow.dispatch.outcome.OutcomeApplier;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.ticket.WorkItem;
import io.quotaflow.tracing.Tracing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.Optional;

/**
 * What reaches a scope from the dispatch topic, and what it is told of its tickets: a ticket arriving
 * (the cache may answer it, the class's depth may shed it, else the ledger holds it), a cancel, and a
 * newer publication of a ticket elsewhere.
 */
final class ScopeIntake {

    /** The scope's log lines keep the dispatcher's logger, as operators configure it. */
    private static final Logger LOG = LoggerFactory.getLogger(ScopeDispatcher.class);

    private final Tracing tracing;
    private final String scope;
    /** What the log lines and dead letters name the scope by. */
    private final String who;
    private final DispatcherSettings settings;
    private final DispatchLedger ledger;
    private final PendingQueue queue;
    private final CacheGate gate;
    private final OutcomeApplier outcomes;
    private final EffectExecutor effects;
    private final TicketStatuses statuses;
    private final DispatcherListener listener;
    /** When each interactive ticket arrived, for its result's header. */
    private final Arrivals arrivals;

    ScopeIntake(String scope, String who, DispatcherSettings settings, DispatchLedger ledger, CacheGate gate, OutcomeApplier outcomes, EffectExecutor effects,
                TicketStatuses statuses, DispatcherListener listener, Tracing tracing, Arrivals arrivals) {
        this.arrivals = arrivals;
        this.scope = scope;
        this.tracing = tracing;
        this.who = who;
        this.settings = settings;
        this.ledger = ledger;
        this.queue = ledger.queue();
        this.gate = gate;
        this.outcomes = outcomes;
        this.effects = effects;
        this.statuses = statuses;
        this.listener = listener;
    }

    /** A ticket arriving from the dispatch topic: the cache may answer it, or an identical ticket's call. */
    void accept(WorkItem item, long now) {
        CacheGate.Admission admission = gate.admit(item, now);
        effects.apply(admission.effects(), now);
        if (!admission.toLedger()) {
            return;
        }
        if (shed(item, now)) {
            return;
        }
        int ahead = tracing == Tracing.NOOP ? 0 : queue.size(item.priority()) + ledger.spilled(item.priority());
        DispatchLedger.Acceptance acceptance = ledger.accept(item, now);
        if (acceptance == DispatchLedger.Acceptance.ACCEPTED || acceptance == DispatchLedger.Acceptance.REPLACED) {
            statuses.accepted(item, now);
            if (io.quotaflow.dispatch.ledger.Lanes.interactive(item.priority())) {
                arrivals.arrived(item.key(), now);
            }
            tracing.entered(item, ahead);
        }
        if (acceptance != DispatchLedger.Acceptance.ACCEPTED) {
            LOG.debug("scope {}: ticket {} {}", scope, item.key(), acceptance);
            listener.republished(scope, acceptance.name().toLowerCase(Locale.ROOT));
        }
    }

    /**
     * A new ticket (not an update of one held here, not a retry coming back) whose class already has
     * {@code queue.max-depth.<priority>} tickets waiting in this scope is shed: dead-lettered at once as
     * {@code shed}, with the depth in its message, replayable unchanged. The cache had its chance first.
     */
    private boolean shed(WorkItem item, long now) {
        Integer max = settings.maxDepth().get(item.priority());
        if (max == null || item.attempt() > 0 || ledger.held(item.key()).isPresent() || ledger.retrying(item.key())) {
            return false;
        }
        int depth = queue.size(item.priority()) + ledger.spilled(item.priority());
        if (depth < max) {
            return false;
        }
        effects.apply(outcomes.deadLetter(item, ErrorKind.SHED.wire(), 0, depth + " " + item.priority().wireName() + " tickets were waiting on "
                + who + " (queue.max-depth." + item.priority().wireName() + "=" + max + "): shed on arrival", now), now);
        return true;
    }

    /**
     * Cancels ticket {@code id} (its key) if this scope holds it and has not sent it (waiting, delayed,
     * on its way back from the retry topic, or following an identical ticket). A ticket whose call is
     * out is answered if that call answers it; if the call fails, it ends cancelled instead of being
     * retried. Nothing of a cancelled ticket is written.
     */
    void cancel(String id, long now) {
        if (gate.cancel(id, now)) {
            listener.cancelled(scope, id);
            statuses.cancelled(id, now);
            return;
        }
        if (ledger.inFlight(id)) {
            // remembered: if the call fails the ticket is not retried; if it answers, the answer is written
            ledger.cancelWhileOut(id, now);
            LOG.debug("scope {}: ticket {} is being asked about; cancelled unless that call answers it", scope, id);
            return;
        }
        if (ledger.held(id).isPresent() || ledger.retrying(id)) {
            ledger.held(id).ifPresent(item -> effects.apply(gate.left(item), now));
            ledger.withdraw(id);
            listener.cancelled(scope, id);
            statuses.cancelled(id, now);
        }
    }

    /**
     * A newer publication of a ticket went to another scope: the copy held here, if it is of an
     * older publication, is withdrawn (waiting, delayed, on its way back from the retry topic, with its
     * call out: that answer is then ignored, or following an identical ticket), and its status
     * forgotten: the other scope's copy is the one answered.
     */
    void supersede(Publication newer, long now) {
        String key = newer.key();
        Optional<WorkItem> held = ledger.held(key);
        boolean stale;
        if (held.isPresent()) {
            stale = newer.supersedes(held.get(), scope);
            if (stale) {
                effects.apply(gate.left(held.get()), now);
            }
        } else {
            Optional<RetryMarker> retry = ledger.retryingMarker(key);
            stale = retry.isPresent() && newer.supersedes(retry.get().publishedAt(), retry.get().sha256(), scope);
        }
        if (stale) {
            ledger.withdraw(key);
        } else if (held.isEmpty() && gate.cancel(key, now)) {
            stale = true;
        }
        if (stale) {
            statuses.superseded(key);
            listener.republished(scope, "superseded");
            LOG.debug("scope {}: ticket {} was published again to scope {}; the copy here is withdrawn", scope, key, newer.scope());
        }
    }
}

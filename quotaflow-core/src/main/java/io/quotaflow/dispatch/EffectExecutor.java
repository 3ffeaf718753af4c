package io.quotaflow.dispatch;

import io.quotaflow.dispatch.outcome.Arrivals;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.ledger.Lanes;
import io.quotaflow.dispatch.ledger.TicketStatuses;
import io.quotaflow.dispatch.outcome.CacheGate;
import io.quotaflow.dispatch.outcome.Effects;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.ticket.WorkItem;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A scope's one executor of its outcomes' decisions ({@link Effects}): it applies them in a fixed order, the
 * ledger, the statuses, the cache (whose followers' records it collects), the records forwarded, the metrics'
 * notices, then the choices (a too-large ticket's context fallback through the {@link RouteMover}, a missed
 * deadline's stale answer). The decisions are collected, records built, before any of it applies, so a decision
 * that throws leaves the ledger as it was and forwards nothing.
 */
final class EffectExecutor {

    private final String scope;
    private final DispatchLedger ledger;
    private final TicketStatuses statuses;
    private final CacheGate gate;
    private final RouteMover mover;
    private final DispatcherListener listener;
    private final DispatchOutput output;
    private final Function<WorkItem, RouteSettings> routeOf;
    private final Arrivals arrivals;

    /** For {@code scope}, whose tickets are on the route {@code routeOf} names. */
    EffectExecutor(String scope, DispatchLedger ledger, TicketStatuses statuses, CacheGate gate, RouteMover mover,
                   DispatcherListener listener, DispatchOutput output, Function<WorkItem, RouteSettings> routeOf) {
        this(scope, ledger, statuses, gate, mover, listener, output, routeOf, new Arrivals());
    }

    /** As above, stamping interactive results with their arrival at the dispatcher ({@link Arrivals}). */
    EffectExecutor(String scope, DispatchLedger ledger, TicketStatuses statuses, CacheGate gate, RouteMover mover,
                   DispatcherListener listener, DispatchOutput output, Function<WorkItem, RouteSettings> routeOf, Arrivals arrivals) {
        this.arrivals = arrivals;
        this.scope = scope;
        this.ledger = ledger;
        this.statuses = statuses;
        this.gate = gate;
        this.mover = mover;
        this.listener = listener;
        this.output = output;
        this.routeOf = routeOf;
    }

    /**
     * Applies {@code effects} at {@code now}: ledger, statuses, cache, records, notices, choices. The cache step
     * returns its own effects (the followers' endings and records, a follower that leads now), applied in the same
     * order right after it, with the records after this decision's own.
     */
    void apply(Effects effects, long now) {
        applyLedger(effects, now);
        effects.endings().forEach(ending -> status(ending, now));
        Effects cached = Effects.none();
        for (Effects.Ending ending : effects.endings()) {
            if (ending instanceof Effects.Classified c) {
                cached.and(gate.classified(c.item(), c.result(), now));
            } else if (ending instanceof Effects.DeadLettered d) {
                cached.and(gate.deadLettered(d.item(), d.kind(), d.status(), d.message(), now));
            } else if (ending instanceof Effects.Cancelled c) {
                cached.and(gate.left(c.item()));
            } else if (ending instanceof Effects.HandedOff h) {
                cached.and(gate.left(h.item()));
            } else if (ending instanceof Effects.AnsweredFromCache a && a.leaves()) {
                cached.and(gate.left(a.item()));
            }
        }
        applyLedger(cached, now);
        cached.endings().forEach(ending -> status(ending, now));
        stampArrivals(effects);
        effects.records().forEach(output);
        cached.records().forEach(output);
        commitSoonIfInteractive(effects, now);
        effects.notices().forEach(notice -> notice.accept(listener));
        cached.notices().forEach(notice -> notice.accept(listener));
        for (Effects.Choice choice : effects.choices()) {
            choose(choice, now);
        }
    }

    private void applyLedger(Effects effects, long now) {
        for (Effects.LedgerChange change : effects.ledgerChanges()) {
            if (change instanceof Effects.Take t) {
                ledger.take(t.ids());
            } else if (change instanceof Effects.Finish f) {
                ledger.finish(f.item());
            } else if (change instanceof Effects.Retried r) {
                ledger.retried(r.item());
            } else if (change instanceof Effects.Requeue r) {
                ledger.requeue(r.items(), true);
            } else if (change instanceof Effects.Withdraw w) {
                ledger.withdraw(w.id());
            } else if (change instanceof Effects.Lead l) {
                ledger.accept(l.item(), now);
            }
        }
    }

    /** An interactive ticket's outcome among the records just forwarded: asks for an early commit ({@link DispatchOutput#interactiveOut}). */
    private void commitSoonIfInteractive(Effects effects, long now) {
        if (!effects.records().isEmpty() && effects.endings().stream().anyMatch(EffectExecutor::interactiveAnswered)) {
            output.interactiveOut(now);
        }
    }

    /** Stamps the interactive results among {@code effects} with their tickets' arrival ({@link Arrivals}). */
    private void stampArrivals(Effects effects) {
        if (arrivals.isEmpty()) {
            return;
        }
        for (Effects.Ending ending : effects.endings()) {
            if (ending instanceof Effects.Classified c) {
                arrivals.stamp(c.item().key(), effects.records());
            } else if (ending instanceof Effects.DeadLettered d) {
                arrivals.forget(d.item().key());
            }
        }
    }

    /** Whether {@code ending} is an interactive ticket's last word: its result or its dead letter. */
    private static boolean interactiveAnswered(Effects.Ending ending) {
        if (ending instanceof Effects.Classified c) {
            return Lanes.interactive(c.item().priority());
        }
        return ending instanceof Effects.DeadLettered d && Lanes.interactive(d.item().priority());
    }

    private void status(Effects.Ending ending, long now) {
        if (ending instanceof Effects.Classified c) {
            statuses.classified(c.item(), false, now);
        } else if (ending instanceof Effects.DeadLettered d) {
            statuses.deadLettered(d.item(), d.kind(), now);
        } else if (ending instanceof Effects.FollowedIntoDeadLetter d) {
            statuses.deadLettered(d.item(), d.kind(), now);
        } else if (ending instanceof Effects.RetriedAs r) {
            statuses.retried(r.item(), r.kind(), now);
        } else if (ending instanceof Effects.Requeued r) {
            statuses.requeued(r.items(), now);
        } else if (ending instanceof Effects.Cancelled c) {
            listener.cancelled(scope, c.item().key());
            statuses.cancelled(c.item().key(), now);
        } else if (ending instanceof Effects.HandedOff h) {
            statuses.handedOff(h.item(), h.reason(), now);
        } else if (ending instanceof Effects.AnsweredFromCache a) {
            statuses.classified(a.item(), true, now);
        } else if (ending instanceof Effects.Following f) {
            statuses.following(f.item(), now);
        }
    }

    private void choose(Effects.Choice choice, long now) {
        if (choice instanceof Effects.ContextFallback c) {
            Optional<RouteMover.Moved> moved = mover.contextFallback(c.item(), routeOf.apply(c.item()), now);
            if (moved.isPresent()) {
                move(moved.get(), now);
                return;
            }
        } else if (choice instanceof Effects.StaleAnswer s) {
            Optional<Effects> answered = gate.answerStale(s.item(), now);
            if (answered.isPresent()) {
                apply(answered.get(), now);
                return;
            }
        }
        apply(choice.otherwise(), now);
    }

    /**
     * Writes {@code moved}, a ticket already taken from the ledger, to its target ({@link RouteMover}'s value): the
     * record, then, for a fallback, its status, metrics and log; the next of its followers here leads.
     */
    void move(RouteMover.Moved moved, long now) {
        output.move(moved);
        if (moved.fellBack()) {
            listener.fellBack(moved.from(), moved.to(), moved.reason().wire());
            statuses.moved(moved.taken(), moved.to(), moved.reason().wire(), now);
            mover.logged(moved, now);
        }
        applyLedger(gate.left(moved.taken()), now);
    }

    /** {@code item}, cancelled while a previous owner's call was out, ends now: withdrawn from the ledger, nothing written. */
    void withdrawn(WorkItem item, long now) {
        ledger.withdraw(item.key());
        listener.cancelled(scope, item.key());
        statuses.cancelled(item.key(), now);
    }

    /**
     * The tickets of a batch job's call that ended unanswered: one cancelled while out ends; with {@code fallback},
     * one an online fallback of its route holds moves there ({@link RouteMover#unfinished}); the others wait in
     * the ledger again. No attempt is consumed.
     */
    void unanswered(List<WorkItem> items, boolean fallback, long now) {
        List<WorkItem> stay = new ArrayList<>();
        for (WorkItem item : items) {
            if (ledger.cancelledWhileOut(item.key())) {
                ledger.finish(item);
                applyLedger(gate.left(item), now);
                listener.cancelled(scope, item.key());
                statuses.cancelled(item.key(), now);
                continue;
            }
            Optional<RouteMover.Moved> moved = fallback ? mover.unfinished(item, routeOf.apply(item), now) : Optional.empty();
            if (moved.isPresent()) {
                ledger.finish(item);
                move(moved.get(), now);
            } else {
                stay.add(item);
            }
        }
        ledger.requeue(stay, true);
        statuses.requeued(stay, now);
    }
}

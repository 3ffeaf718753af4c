package io.quotaflow.dispatch;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.deadline.DeadlinePolicy;
import io.quotaflow.deadline.HandoffReason;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.report.QueueViews;
import io.quotaflow.dispatch.outcome.CacheGate;
import io.quotaflow.dispatch.outcome.Effects;
import io.quotaflow.dispatch.outcome.OutcomeApplier;
import io.quotaflow.dispatch.queue.DeadlineSweep;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.records.Priority;
import io.quotaflow.routing.FallbackPolicy;
import io.quotaflow.routing.FallbackReason;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.status.Eta;
import io.quotaflow.status.Pace;
import io.quotaflow.ticket.WorkItem;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A scope's once-a-second moves of waiting tickets: fallbacks ({@link RouteMover#fallbacks}) and deadlines
 * ({@link DeadlineSweep}, docs/design.md, "Deadlines and hand-off"). The policies decide from what the
 * scope shows them; this takes the chosen tickets from the ledger, then has each moved, handed off or shed.
 */
final class ScopeSweep {

    private final String scope;
    /** What the log lines and dead letters name the scope by. */
    private final String who;
    private final DispatcherSettings settings;
    private final DispatchLedger ledger;
    private final PendingQueue queue;
    private final RouteMover mover;
    private final CacheGate gate;
    private final OutcomeApplier outcomes;
    private final EffectExecutor effects;
    private final DeadlineSweep deadlines;
    private final Function<WorkItem, RouteSettings> routeOf;

    ScopeSweep(String scope, String who, DispatcherSettings settings, DispatchLedger ledger, RouteMover mover, CacheGate gate,
               OutcomeApplier outcomes, EffectExecutor effects, DeadlineSweep deadlines, Function<WorkItem, RouteSettings> routeOf) {
        this.scope = scope;
        this.who = who;
        this.settings = settings;
        this.ledger = ledger;
        this.queue = ledger.queue();
        this.mover = mover;
        this.gate = gate;
        this.outcomes = outcomes;
        this.effects = effects;
        this.deadlines = deadlines;
        this.routeOf = routeOf;
    }

    /** Tells every instance whether this scope's routes can serve ({@link RouteMover#publishState}). */
    void publishState(boolean canServe) {
        mover.publishState(settings.routing().routesOf(scope), canServe);
    }

    /**
     * Moves what this scope should not keep waiting ({@link RouteMover#fallbacks}): every move is built (its record
     * serialized) from the tickets as they wait, then they are taken from the ledger and the moves written, so a
     * move that fails to build leaves the ledger as it was.
     */
    void fallBack(Optional<FallbackReason> blocked, boolean probesHaltApart, long now) {
        List<FallbackPolicy.Move> moves = mover.fallbacks(new RouteMover.Standing(scope, settings, blocked, probesHaltApart, queue));
        if (moves.isEmpty()) {
            return;
        }
        Map<String, FallbackPolicy.Move> byId = new LinkedHashMap<>();
        moves.forEach(m -> byId.put(m.id(), m));
        List<RouteMover.Moved> built = new ArrayList<>();
        for (WorkItem item : ledger.waiting(byId.keySet())) {
            built.add(mover.move(item, routeOf.apply(item), byId.get(item.key()), now));
        }
        ledger.take(built.stream().map(m -> m.taken().key()).toList());
        built.forEach(m -> effects.move(m, now));
    }

    /**
     * Tickets that will miss their deadline here go to a fallback that can take them, else are handed off
     * or shed ({@code deadline.action}); tickets expected to wait past their class's {@code queue.max-wait}
     * are shed (docs/design.md, "Deadlines and hand-off"). {@code blocked} is why the scope cannot serve now,
     * and {@code resumesAt} when it serves again.
     */
    void keepDeadlines(ScopeHealth health, Pace pace, Optional<FallbackReason> blocked, Function<FallbackReason, Long> resumesAt, long now) {
        if (queue.size() == 0) {
            return;
        }
        long tickets = queue.size();
        long tokens = 0;
        for (Priority p : Priority.values()) {
            tokens += queue.tokens(p);
        }
        Eta.Rates rates = QueueViews.rates(settings, pace, tickets, tokens, now);
        // halted: it serves again once its next probe is accepted (the policy adds the probe's latency and deadline.halt-grace)
        DeadlinePolicy.Route route = health.halted() ? DeadlinePolicy.Route.halted(rates, health.nextHaltProbeAt(now))
                : new DeadlinePolicy.Route(rates, blocked.map(resumesAt).orElse(now));
        List<DeadlinePolicy.Verdict> verdicts = deadlines.decide(queue, route, ref -> mover.canFallBack(scope, ref), now);
        if (verdicts.isEmpty()) {
            return;
        }
        Map<String, DeadlinePolicy.Verdict> byId = new LinkedHashMap<>();
        verdicts.forEach(v -> byId.put(v.id(), v));
        // every ticket's end is built first (records serialized), then they are taken and the ends applied
        List<End> ends = new ArrayList<>();
        for (WorkItem item : ledger.waiting(byId.keySet())) {
            ends.add(end(item, byId.get(item.key()), now));
        }
        ledger.take(ends.stream().map(e -> e.item().key()).toList());
        for (End end : ends) {
            end.moved().ifPresentOrElse(m -> effects.move(m, now), () -> effects.apply(end.otherwise(), now));
        }
    }

    /** How a ticket taken for its deadline ends: moved to a fallback, or else {@code otherwise} (handed off, shed). */
    private record End(WorkItem item, Optional<RouteMover.Moved> moved, Effects otherwise) {
    }

    /** What ends {@code item} as {@code v} says, built (records serialized) before anything is applied. */
    private End end(WorkItem item, DeadlinePolicy.Verdict v, long now) {
        if (v.kind() == DeadlinePolicy.Kind.FALL_BACK) {
            Optional<RouteMover.Moved> moved = mover.deadlineFallback(scope, routeOf.apply(item), item, now);
            if (moved.isPresent()) {
                return new End(item, moved, Effects.none());
            }
        }
        return new End(item, Optional.empty(), v.kind() == DeadlinePolicy.Kind.SHED && v.reason() == HandoffReason.MAX_WAIT
                ? outcomes.deadLetter(item, ErrorKind.SHED.wire(), 0, shedMessage(item, v), now)
                : outcomes.missed(item, v.reason(), v.etaAt(), now));
    }

    /** The dead letter's message of a ticket shed for {@code queue.max-wait}. */
    private String shedMessage(WorkItem item, DeadlinePolicy.Verdict v) {
        String when = v.etaAt() > 0 ? "expected done " + java.time.Instant.ofEpochMilli(v.etaAt()) : "no ETA: " + who + " cannot serve";
        return "would wait on " + who + " longer than queue.max-wait." + item.priority().wireName() + " ("
                + settings.deadlines().maxWait().get(item.priority()).toSeconds() + " s; " + when + "): shed";
    }
}

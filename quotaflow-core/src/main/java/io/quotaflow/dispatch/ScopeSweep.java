package io.quotaflow.dispatch;

import io.quotaflow.config.DispatcherSettings;
import io.quotaflow.deadline.DeadlinePolicy;
import io.quotaflow.deadline.HandoffReason;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.report.QueueViews;
import io.quotaflow.dispatch.outcome.CacheGate;
import io.quotaflow.dispatch.outcome.OutcomeApplier;
import io.quotaflow.dispatch.plan.DeadlineSweep;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.records.Priority;
import io.quotaflow.routing.FallbackPolicy;
import io.quotaflow.routing.FallbackReason;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.status.Eta;
import io.quotaflow.status.Pace;
import io.quotaflow.ticket.WorkItem;

import java.util.HashMap;
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

    /** Moves what this scope should not keep waiting ({@link RouteMover#fallbacks}): taken from the ledger, then written. */
    void fallBack(Optional<FallbackReason> blocked, boolean probesHaltApart, long now) {
        List<FallbackPolicy.Move> moves = mover.fallbacks(new RouteMover.Standing(scope, settings, blocked, probesHaltApart, queue));
        if (moves.isEmpty()) {
            return;
        }
        Map<String, FallbackPolicy.Move> byId = new HashMap<>();
        moves.forEach(m -> byId.put(m.id(), m));
        for (WorkItem item : ledger.expire(ref -> byId.containsKey(ref.id()))) {
            effects.move(mover.move(item, routeOf.apply(item), byId.get(item.key()), now), now);
        }
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
        for (WorkItem item : ledger.take(byId.keySet())) {
            apply(item, byId.get(item.key()), now);
        }
    }

    private void apply(WorkItem item, DeadlinePolicy.Verdict v, long now) {
        switch (v.kind()) {
            case FALL_BACK -> {
                Optional<RouteMover.Moved> moved = mover.deadlineFallback(scope, routeOf.apply(item), item, now);
                if (moved.isPresent()) {
                    effects.move(moved.get(), now);
                } else {
                    effects.apply(outcomes.missed(item, v.reason(), v.etaAt(), now), now);
                }
            }
            case HAND_OFF -> effects.apply(outcomes.missed(item, v.reason(), v.etaAt(), now), now);
            case SHED -> {
                if (v.reason() == HandoffReason.MAX_WAIT) {
                    effects.apply(outcomes.deadLetter(item, ErrorKind.SHED.wire(), 0, shedMessage(item, v), now), now);
                } else {
                    effects.apply(outcomes.missed(item, v.reason(), v.etaAt(), now), now);
                }
            }
        }
    }

    /** The dead letter's message of a ticket shed for {@code queue.max-wait}. */
    private String shedMessage(WorkItem item, DeadlinePolicy.Verdict v) {
        String when = v.etaAt() > 0 ? "expected done " + java.time.Instant.ofEpochMilli(v.etaAt()) : "no ETA: " + who + " cannot serve";
        return "would wait on " + who + " longer than queue.max-wait." + item.priority().wireName() + " ("
                + settings.deadlines().maxWait().get(item.priority()).toSeconds() + " s; " + when + "): shed";
    }
}

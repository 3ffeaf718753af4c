package io.quotaflow.dispatch;

import io.quotaflow.dispatch.ledger.PendingQueue;
import io.quotaflow.dispatch.ledger.TicketStatuses;
import io.quotaflow.dispatch.outcome.Outbound;
import io.quotaflow.dispatch.report.DispatcherListener;

import io.quotaflow.routing.RouteSettings;
import io.quotaflow.routing.Routing;
import io.quotaflow.model.ModelItem;
import io.quotaflow.routing.FallbackLog;
import io.quotaflow.routing.FallbackPolicy;
import io.quotaflow.routing.FallbackReason;
import io.quotaflow.routing.RouteChooser;
import io.quotaflow.routing.RouteStates;
import io.quotaflow.ticket.BinarySerde;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Moves tickets between routes (docs/design.md, "Routes"): re-keyed to the target's quota scope
 * and written to the dispatch repartition topic in the task's transaction, so exactly-once holds
 * across a move. Asks the {@link FallbackPolicy} once a second which waiting tickets leave, counts
 * and logs every move ({@link FallbackLog}), and carries a ticket too large for its route along
 * the context-fallback chain.
 */
final class RouteMover {

    private final Routing routing;
    private final RouteChooser chooser;
    private final FallbackPolicy policy;
    private final RouteStates states;
    private final FallbackLog log = new FallbackLog();
    private final DispatcherListener listener;
    private final ProcessorContext<String, Outbound> context;
    private final BinarySerde<WorkItem> serde = new BinarySerde<>(WorkItem.class);
    private final String applicationId;
    private final TicketStatuses statuses;

    RouteMover(Routing routing, RouteChooser chooser, RouteStates states, DispatcherListener listener,
               ProcessorContext<String, Outbound> context, TicketStatuses statuses) {
        this.statuses = statuses;
        this.routing = routing;
        this.chooser = chooser;
        this.policy = new FallbackPolicy(routing, chooser);
        this.states = states;
        this.listener = listener;
        this.context = context;
        this.applicationId = context.applicationId();
    }

    void publishState(Collection<RouteSettings> routes, boolean canServe) {
        states.publish(routes, canServe);
    }

    /** Moves what {@code unit}'s scope should not keep waiting. */
    void fallBack(ScopeDispatcher unit, long now) {
        List<RouteSettings> routes = routing.routesOf(unit.scope());
        if (routes.stream().noneMatch(policy::hasFallback)) {
            return;
        }
        PendingQueue queue = unit.ledger().queue();
        if (queue.size() == 0) {
            return;
        }
        Optional<FallbackReason> blocked = unit.blocked();
        var quota = unit.settings().quota();
        var batch = unit.settings().batch();
        FallbackReason why = blocked.orElse(null);
        FallbackPolicy.Condition condition = new FallbackPolicy.Condition(why == FallbackReason.HALTED,
                why == FallbackReason.CIRCUIT_OPEN, why == FallbackReason.OUT_FOR_DAY, quota.tpm() * quota.safetyFactor() / 60_000.0,
                quota.rpm() * quota.safetyFactor() / 60_000.0, batch.maxItems(), batch.completionTokensPerItem(), unit.probesHaltApart());
        List<FallbackPolicy.Waiting> waiting = new ArrayList<>();
        for (Priority p : Priority.values()) {
            for (PendingQueue.Ref ref : queue.waiting(p)) {
                waiting.add(new FallbackPolicy.Waiting(ref.id(), p, ref.tokens(), ref.fellBack()));
            }
        }
        // routes sharing the scope share its queue: the first route's fallbacks speak for it
        List<FallbackPolicy.Move> moves = policy.decide(routes.get(0), condition, waiting, states::usable);
        if (moves.isEmpty()) {
            return;
        }
        Map<String, FallbackPolicy.Move> byId = new HashMap<>();
        moves.forEach(m -> byId.put(m.id(), m));
        Set<String> ids = new HashSet<>(byId.keySet());
        for (WorkItem item : unit.ledger().expire(ref -> ids.contains(ref.id()))) {
            FallbackPolicy.Move m = byId.get(item.key());
            move(item, unit.routeOf(item), routing.route(m.to()).orElseThrow(), m.reason(), now);
            unit.left(item, now);
        }
    }

    /** Whether a fallback of {@code unit}'s routes may take the waiting ticket {@code ref} now. */
    boolean canFallBack(ScopeDispatcher unit, PendingQueue.Ref ref) {
        List<RouteSettings> routes = routing.routesOf(unit.scope());
        return !routes.isEmpty() && policy.target(routes.get(0), ref.tokens(), ref.fellBack(), states::usable).isPresent();
    }

    /** Moves {@code item}, which would miss its deadline on {@code unit}, to the first fallback that can take it; false if none can. */
    boolean deadlineFallback(ScopeDispatcher unit, WorkItem item, long now) {
        RouteSettings from = unit.routeOf(item);
        Optional<RouteSettings> to = policy.target(routing.routesOf(unit.scope()).get(0), item.tokens(), item.routed().fellBack(),
                states::usable).flatMap(routing::route);
        if (to.isEmpty()) {
            return false;
        }
        move(item, from, to.get(), FallbackReason.DEADLINE, now);
        unit.left(item, now);
        return true;
    }

    /**
     * Sends {@code item}, too large for {@code from}, to the first route of its context-fallback
     * chain that holds it; false when there is none (the caller dead-letters it).
     */
    boolean contextFallback(WorkItem item, RouteSettings from, long now) {
        Set<String> seen = new HashSet<>();
        seen.add(from.name());
        ModelItem text = ModelItem.ofTicketJson(item);
        Optional<RouteSettings> next = routing.route(from.contextFallback());
        while (next.isPresent() && seen.add(next.get().name())) {
            if (chooser.tokens(next.get(), text) <= chooser.budget(next.get())) {
                move(item, from, next.get(), FallbackReason.CONTEXT, now);
                return true;
            }
            next = routing.route(next.get().contextFallback());
        }
        return false;
    }

    /**
     * Sends {@code item}, which a batch job of {@code from} ended without answering, to the first online
     * route of {@code from}'s fallback list that holds it; false when there is none (it waits on
     * {@code from} for the next job).
     */
    boolean unfinished(WorkItem item, RouteSettings from, long now) {
        ModelItem text = ModelItem.ofTicketJson(item);
        for (String name : from.fallback()) {
            Optional<RouteSettings> to = routing.route(name);
            if (to.isPresent() && !to.get().batchMode() && chooser.tokens(to.get(), text) <= chooser.budget(to.get())) {
                move(item, from, to.get(), FallbackReason.BATCH_EXPIRED, now);
                return true;
            }
        }
        return false;
    }

    /** Re-routes a ticket whose scope no route of this configuration has any more. */
    void reroute(WorkItem item) {
        RouteSettings to = routing.routeFor(item.priority(), item.tenant());
        forward(item.withRouted(WorkItem.Routed.to(to.name())), to);
    }

    /**
     * Hands {@code item}, held here for {@code scope} whose dispatch partition is another one, to that
     * scope's owner: unchanged, keyed by the scope, marked {@link DispatcherProcessor#HANDOVER_HEADER} so
     * that it is handed over once at most.
     */
    void handOver(WorkItem item, String scope) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(DispatcherProcessor.HANDOVER_HEADER, new byte[] {1});
        forward(item, scope, headers);
    }

    private void move(WorkItem item, RouteSettings from, RouteSettings to, FallbackReason reason, long now) {
        int tokens = from.model().encoding().equals(to.model().encoding()) ? item.tokens()
                : chooser.tokens(to, ModelItem.ofTicketJson(item));
        forward(item.withRouted(new WorkItem.Routed(to.name(), from.name(), reason.wire())).withTokens(tokens), to);
        listener.fellBack(from.name(), to.name(), reason.wire());
        statuses.moved(item, to.name(), reason.wire(), now);
        log.moved(from.name(), to.name(), reason, 1, now);
    }

    /** Writes {@code item} to the dispatch topic of its class (an interactive ticket takes the interactive lane), for {@code to}'s scope. */
    private void forward(WorkItem item, RouteSettings to) {
        forward(item, to.scope(), new RecordHeaders());
    }

    private void forward(WorkItem item, String scope, RecordHeaders headers) {
        String topic = DispatcherProcessor.dispatchTopic(applicationId, item.priority());
        byte[] bytes = serde.serializer().serialize(topic, item);
        context.forward(new Record<>(scope, new Outbound(Outbound.Target.MOVE, bytes, topic), context.currentSystemTimeMs(), headers));
    }
}

package io.quotaflow.dispatch;

import io.quotaflow.config.DispatcherSettings;
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
import org.apache.kafka.streams.processor.api.Record;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
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
    private final DispatchOutput output;
    private final BinarySerde<WorkItem> serde = new BinarySerde<>(WorkItem.class);
    private final String applicationId;
    private final TicketStatuses statuses;
    private final io.quotaflow.tracing.Tracing tracing;

    RouteMover(Routing routing, RouteChooser chooser, RouteStates states, DispatcherListener listener, DispatchOutput output,
               TicketStatuses statuses) {
        this(routing, chooser, states, listener, output, statuses, io.quotaflow.tracing.Tracing.NOOP);
    }

    /** As above, telling {@code tracing} of each fallback (an event on the ticket's trace). */
    RouteMover(Routing routing, RouteChooser chooser, RouteStates states, DispatcherListener listener, DispatchOutput output,
               TicketStatuses statuses, io.quotaflow.tracing.Tracing tracing) {
        this.tracing = tracing;
        this.statuses = statuses;
        this.routing = routing;
        this.chooser = chooser;
        this.policy = new FallbackPolicy(routing, chooser);
        this.states = states;
        this.listener = listener;
        this.output = output;
        this.applicationId = output.applicationId();
    }

    void publishState(Collection<RouteSettings> routes, boolean canServe) {
        states.publish(routes, canServe);
    }

    /**
     * What a scope shows the fallback policy once a second.
     *
     * @param scope           the quota scope
     * @param settings        its settings (its routes, quota and batch shape)
     * @param blocked         why nothing can be served there now, if so
     * @param probesHaltApart whether a halt there is probed with a call of its own, not with a ticket
     * @param queue           its waiting tickets, only read
     */
    record Standing(String scope, DispatcherSettings settings, Optional<FallbackReason> blocked, boolean probesHaltApart, PendingQueue queue) {
    }

    /**
     * Which waiting tickets of {@code standing}'s scope should not keep waiting there, and where each goes
     * (the {@link FallbackPolicy}'s moves); none when its routes have no fallback or nothing waits. Only
     * decides: the caller takes the tickets from its ledger and {@link #move}s them.
     */
    List<FallbackPolicy.Move> fallbacks(Standing standing) {
        List<RouteSettings> routes = routing.routesOf(standing.scope());
        if (routes.stream().noneMatch(policy::hasFallback)) {
            return List.of();
        }
        PendingQueue queue = standing.queue();
        if (queue.size() == 0) {
            return List.of();
        }
        var quota = standing.settings().quota();
        var batch = standing.settings().batch();
        FallbackReason why = standing.blocked().orElse(null);
        FallbackPolicy.Condition condition = new FallbackPolicy.Condition(why == FallbackReason.HALTED,
                why == FallbackReason.CIRCUIT_OPEN, why == FallbackReason.OUT_FOR_DAY, quota.tpm() * quota.safetyFactor() / 60_000.0,
                quota.rpm() * quota.safetyFactor() / 60_000.0, batch.maxItems(), batch.completionTokensPerItem(), standing.probesHaltApart());
        List<FallbackPolicy.Waiting> waiting = new ArrayList<>();
        for (Priority p : Priority.values()) {
            for (PendingQueue.Ref ref : queue.waiting(p)) {
                waiting.add(new FallbackPolicy.Waiting(ref.id(), p, ref.tokens(), ref.fellBack()));
            }
        }
        // routes sharing the scope share its queue: the first route's fallbacks speak for it
        return policy.decide(routes.get(0), condition, waiting, states::usable);
    }

    /** Writes {@code item}, taken from route {@code from}'s ledger, to where {@code move} sends it. */
    void move(WorkItem item, RouteSettings from, FallbackPolicy.Move move, long now) {
        move(item, from, routing.route(move.to()).orElseThrow(), move.reason(), now);
    }

    /** Whether a fallback of {@code scope}'s routes may take the waiting ticket {@code ref} now. */
    boolean canFallBack(String scope, PendingQueue.Ref ref) {
        List<RouteSettings> routes = routing.routesOf(scope);
        return !routes.isEmpty() && policy.target(routes.get(0), ref.tokens(), ref.fellBack(), states::usable).isPresent();
    }

    /**
     * Moves {@code item}, taken from route {@code from} of {@code scope} because it would miss its deadline there,
     * to the first fallback that can take it; false if none can.
     */
    boolean deadlineFallback(String scope, RouteSettings from, WorkItem item, long now) {
        Optional<RouteSettings> to = policy.target(routing.routesOf(scope).get(0), item.tokens(), item.routed().fellBack(),
                states::usable).flatMap(routing::route);
        if (to.isEmpty()) {
            return false;
        }
        move(item, from, to.get(), FallbackReason.DEADLINE, now);
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
        tracing.fallback(item, from.name(), to.name(), reason.wire(), now);
        log.moved(from.name(), to.name(), reason, 1, now);
    }

    /** Writes {@code item} to the dispatch topic of its class (an interactive ticket takes the interactive lane), for {@code to}'s scope. */
    private void forward(WorkItem item, RouteSettings to) {
        forward(item, to.scope(), new RecordHeaders());
    }

    private void forward(WorkItem item, String scope, RecordHeaders headers) {
        String topic = DispatcherProcessor.dispatchTopic(applicationId, item.priority());
        byte[] bytes = serde.serializer().serialize(topic, item);
        output.accept(new Record<>(scope, new Outbound(Outbound.Target.MOVE, bytes, topic), output.now(), headers));
    }
}

package io.quotaflow.dispatch;

import io.quotaflow.dispatch.ledger.DispatchTopics;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.outcome.Outbound;

import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.routing.FallbackLog;
import io.quotaflow.routing.FallbackPolicy;
import io.quotaflow.routing.FallbackReason;
import io.quotaflow.routing.RouteChooser;
import io.quotaflow.provider.RouteStateBoard;
import io.quotaflow.ticket.BinarySerde;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.header.Headers;
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
 *
 * <p>It only decides and builds: every method returns the move as a value ({@link Moved}: the ticket, the
 * routes, the reason, the record already serialized), and the scope's {@link EffectExecutor} (or, for a
 * re-route or a hand-over, the processor) writes it through {@link DispatchOutput#move} and tells the
 * metrics, the statuses and the log ({@link #logged}). Nothing here forwards a record.
 */
final class RouteMover {

    private final Routing routing;
    private final RouteChooser chooser;
    private final FallbackPolicy policy;
    private final RouteStateBoard states;
    private final FallbackLog log = new FallbackLog();
    private final BinarySerde<WorkItem> serde = new BinarySerde<>(WorkItem.class);
    private final String applicationId;

    private final io.quotaflow.tracing.Tracing tracing;

    /**
     * {@code applicationId}: the Streams application id, which names the dispatch topics; {@code tracing} is told of each
     * fallback once it is written (an event on the ticket's trace).
     */
    RouteMover(Routing routing, RouteChooser chooser, RouteStateBoard states, String applicationId, io.quotaflow.tracing.Tracing tracing) {
        this.tracing = tracing;
        this.routing = routing;
        this.chooser = chooser;
        this.policy = new FallbackPolicy(routing, chooser);
        this.states = states;
        this.applicationId = applicationId;
    }

    /**
     * One ticket written to a dispatch topic for another scope, as a value: what was moved, from and to
     * which route and why ({@code from} and {@code reason} are null for a re-route or a hand-over, which are
     * not fallbacks), and the record, serialized, keyed by the target scope. The writer stamps it.
     *
     * @param taken   the ticket as it was taken (its route the one it leaves)
     * @param item    the ticket as written (routed and priced for the target)
     * @param from    the route it left (null: not a fallback)
     * @param to      the route (or, for a hand-over, the scope) it goes to
     * @param reason  why it fell back (null: not a fallback)
     * @param key     the record's key: the target's quota scope
     * @param value   the serialized ticket and its topic
     * @param headers the record's headers
     */
    record Moved(WorkItem taken, WorkItem item, String from, String to, FallbackReason reason, String key, Outbound value, Headers headers) {

        /** Whether this is a fallback (counted, logged, and the ticket's status told), not a re-route or a hand-over. */
        boolean fellBack() {
            return reason != null;
        }

        /** The record to forward, stamped {@code timestamp}. */
        Record<String, Outbound> record(long timestamp) {
            return new Record<>(key, value, timestamp, headers);
        }
    }

    /** Logs {@code moved}, a fallback the executor wrote, in the fallback log's tallies. */
    void logged(Moved moved, long now) {
        if (moved.fellBack()) {
            log.moved(moved.from(), moved.to(), moved.reason(), 1, now);
            tracing.fallback(moved.taken(), moved.from(), moved.to(), moved.reason().wire(), now);
        }
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

    /** The move of {@code item}, taken from route {@code from}'s ledger, to where {@code move} sends it. */
    Moved move(WorkItem item, RouteSettings from, FallbackPolicy.Move move, long now) {
        return move(item, from, routing.route(move.to()).orElseThrow(), move.reason(), now);
    }

    /** Whether a fallback of {@code scope}'s routes may take the waiting ticket {@code ref} now. */
    boolean canFallBack(String scope, PendingQueue.Ref ref) {
        List<RouteSettings> routes = routing.routesOf(scope);
        return !routes.isEmpty() && policy.target(routes.get(0), ref.tokens(), ref.fellBack(), states::usable).isPresent();
    }

    /**
     * Moves {@code item}, taken from route {@code from} of {@code scope} because it would miss its deadline there,
     * to the first fallback that can take it; empty if none can.
     */
    Optional<Moved> deadlineFallback(String scope, RouteSettings from, WorkItem item, long now) {
        return policy.target(routing.routesOf(scope).get(0), item.tokens(), item.routed().fellBack(), states::usable)
                .flatMap(routing::route).map(to -> move(item, from, to, FallbackReason.DEADLINE, now));
    }

    /**
     * Sends {@code item}, too large for {@code from}, to the first route of its context-fallback
     * chain that holds it; empty when there is none (the caller dead-letters it).
     */
    Optional<Moved> contextFallback(WorkItem item, RouteSettings from, long now) {
        Set<String> seen = new HashSet<>();
        seen.add(from.name());
        ModelItem text = ModelItem.ofTicketJson(item);
        Optional<RouteSettings> next = routing.route(from.contextFallback());
        while (next.isPresent() && seen.add(next.get().name())) {
            if (chooser.tokens(next.get(), text) <= chooser.budget(next.get())) {
                return Optional.of(move(item, from, next.get(), FallbackReason.CONTEXT, now));
            }
            next = routing.route(next.get().contextFallback());
        }
        return Optional.empty();
    }

    /**
     * Sends {@code item}, which a batch job of {@code from} ended without answering, to the first online
     * route of {@code from}'s fallback list that holds it; empty when there is none (it waits on
     * {@code from} for the next job).
     */
    Optional<Moved> unfinished(WorkItem item, RouteSettings from, long now) {
        ModelItem text = ModelItem.ofTicketJson(item);
        for (String name : from.fallback()) {
            Optional<RouteSettings> to = routing.route(name);
            if (to.isPresent() && !to.get().batchMode() && chooser.tokens(to.get(), text) <= chooser.budget(to.get())) {
                return Optional.of(move(item, from, to.get(), FallbackReason.BATCH_EXPIRED, now));
            }
        }
        return Optional.empty();
    }

    /** Re-routes a ticket whose scope no route of this configuration has any more. */
    Moved reroute(WorkItem item) {
        RouteSettings to = routing.routeFor(item.priority(), item.tenant());
        return written(item, item.withRouted(WorkItem.Routed.to(to.name())), null, to.name(), null, to.scope(), new RecordHeaders());
    }

    /**
     * Hands {@code item}, held here for {@code scope} whose dispatch partition is another one, to that
     * scope's owner: unchanged, keyed by the scope, marked {@link DispatcherProcessor#DispatchTopics.HANDOVER_HEADER} so
     * that it is handed over once at most.
     */
    Moved handOver(WorkItem item, String scope) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(DispatchTopics.HANDOVER_HEADER, new byte[] {1});
        return written(item, item, null, scope, null, scope, headers);
    }

    private Moved move(WorkItem item, RouteSettings from, RouteSettings to, FallbackReason reason, long now) {
        int tokens = from.model().encoding().equals(to.model().encoding()) ? item.tokens()
                : chooser.tokens(to, ModelItem.ofTicketJson(item));
        WorkItem moved = item.withRouted(new WorkItem.Routed(to.name(), from.name(), reason.wire())).withTokens(tokens);
        return written(item, moved, from.name(), to.name(), reason, to.scope(), new RecordHeaders());
    }

    /** {@code item} for the dispatch topic of its class (an interactive ticket takes the interactive lane), keyed {@code scope}. */
    private Moved written(WorkItem taken, WorkItem item, String from, String to, FallbackReason reason, String scope, Headers headers) {
        String topic = DispatchTopics.dispatchTopic(applicationId, item.priority());
        byte[] bytes = serde.serializer().serialize(topic, item);
        return new Moved(taken, item, from, to, reason, scope, new Outbound(Outbound.Target.MOVE, bytes, topic), headers);
    }
}

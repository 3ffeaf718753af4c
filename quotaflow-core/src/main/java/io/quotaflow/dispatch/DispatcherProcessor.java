package io.quotaflow.dispatch;

import io.quotaflow.dispatch.ledger.DispatchTopics;
import io.quotaflow.ticket.Publication;
import io.quotaflow.dispatch.call.BatchCaller;
import io.quotaflow.dispatch.call.CallSender;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.ledger.TicketStatuses;
import io.quotaflow.dispatch.outcome.Outbound;
import io.quotaflow.dispatch.outcome.OutcomeApplier;
import io.quotaflow.dispatch.limit.ProviderModel;
import io.quotaflow.dispatch.report.DispatcherListener;

import io.quotaflow.batch.BatchApiClient;
import io.quotaflow.batch.BatchLines;
import io.quotaflow.cache.CacheStores;
import io.quotaflow.llm.OpenAiChatClient;
import io.quotaflow.cache.Coalescer;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.quota.EpochNanoClock;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.QuotaScope;
import io.quotaflow.settings.Routing;
import io.quotaflow.routing.RouteChooser;
import io.quotaflow.status.StatusStore;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The dispatcher of one task: owns its stores and its punctuator, and drives one
 * {@link ScopeDispatcher} per quota scope whose tickets reach it (the dispatch topic's partitioner
 * gives each scope its own partition while there are enough; tests and small topics may put
 * several on one task). A thin adapter: the {@link DispatchLedger} owns the stores and queues, the
 * {@link ProviderModel} what is known of the provider, the {@link OutcomePolicy} and
 * {@link OutcomeApplier} what an answer means, the {@link CallSender} the calls in the air, the
 * {@link RouteMover} the tickets that change route (see {@code docs/design.md}, "Dispatcher").
 *
 * <p>State lives in changelogged stores, so it commits atomically with the input offsets and the
 * outputs under exactly-once: {@code pending} (ready tickets by id), {@code delayed} (retries held
 * until {@code qf.not-before}), {@code in-flight} (calls outstanding, by batch id) and
 * {@code retrying}, and the cache's ({@link CacheStores}); the scopes of a task share them (ticket
 * ids are unique; content keys name the model). When a task starts,
 * every in-flight call is put back to pending: the previous owner's answers are lost with it, so
 * those tickets are asked again (it costs tokens, never a duplicate result). A held ticket whose
 * route no longer exists is re-routed by the rules.
 */
public final class DispatcherProcessor implements Processor<String, WorkItem, String, Outbound> {


    public static final String PENDING_STORE = "qf-pending";
    public static final String DELAYED_STORE = "qf-delayed";
    public static final String IN_FLIGHT_STORE = "qf-in-flight";
    public static final String RETRYING_STORE = "qf-retrying";
    /** Tickets cancelled while their call was out (key → when), until that call's answer is applied. */
    public static final String CANCELS_STORE = "qf-cancels";
    /**
     * Waiting tickets beyond {@code queue.max-pending}, spilled from the in-memory queue
     * ({@code <scope>|<class>|<arrival>|<key>} → key; the tickets stay in {@link #PENDING_STORE}).
     */
    public static final String OVERFLOW_STORE = "qf-overflow";
    /** What each scope's next owner takes over: its last admission and its daily usage (scope → {@code ScopeUsage}). */
    public static final String USAGE_STORE = "qf-usage";
    /** The batch jobs the provider accepted for batch routes, until each of their calls is answered (batch id → {@code BatchJob}). */
    public static final String BATCH_JOBS_STORE = "qf-batch-jobs";

    private static final Logger LOG = LoggerFactory.getLogger(DispatcherProcessor.class);
    private static final long SWEEP_INTERVAL_MS = 1_000;
    /** Most publications a task remembers hearing of (docs/design.md, "Tenants"). */
    static final int MAX_HEARD = 10_000;

    private final DispatcherSettings settings;
    /** The collaborators every task is built with: model clients, randomness, listener, route health, time, tracing. */
    private final DispatchParts parts;
    private final DispatcherListener listener;
    /**
     * The limiter's time, in nanoseconds since the epoch, read from the {@link Time} given: real time
     * in production, because the Streams context's time is cached per loop iteration and may be
     * hundreds of milliseconds old by the time a call goes out or its answer is read, which would
     * credit the buckets with refill that never happened; a time the test moves in tests.
     */
    private final EpochNanoClock limiterClock;
    private final Map<String, ScopeDispatcher> units = new LinkedHashMap<>();
    /**
     * The newest publication heard of per ticket key, the most recent {@value #MAX_HEARD}: a copy of an
     * older publication that arrives after the notice of a newer one (its intake ran later, or a
     * fallback moved it meanwhile) is dropped. Kept in memory (bounded, oldest forgotten first): the
     * withdrawal of a copy already held is in the stores; this only covers copies still on their way.
     */
    private final Map<String, Publication> heard = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Publication> eldest) {
            return size() > MAX_HEARD;
        }
    };

    private ProcessorContext<String, Outbound> context;
    /** The one writer of this task's records ({@link DispatchOutput}). */
    private DispatchOutput output;
    private RouteMover mover;
    private Coalescer coalescer;
    private TicketStatuses statuses;
    private Cancellable punctuator;
    private final Sweeps sweeps = new Sweeps();

    /** A dispatcher task of {@code settings}, built with {@code parts}. */
    public DispatcherProcessor(DispatcherSettings settings, DispatchParts parts) {
        this.settings = settings;
        this.parts = parts;
        this.listener = parts.listener();
        this.limiterClock = EpochNanoClock.of(parts.time());
    }

    @Override
    public void init(ProcessorContext<String, Outbound> context) {
        this.context = context;
        this.output = new DispatchOutput(context);
        KeyValueStore<String, WorkItem> pending = context.getStateStore(PENDING_STORE);
        KeyValueStore<String, WorkItem> delayed = context.getStateStore(DELAYED_STORE);
        Routing routing = settings.routing();
        this.statuses = new TicketStatuses(new StatusStore(context.getStateStore(StatusStore.STATUS),
                context.getStateStore(StatusStore.EXPIRY), settings.statusRetention()), routing.defaultRoute());
        this.mover = new RouteMover(routing, new RouteChooser(routing, settings.batch()), parts.states(), context.applicationId(),
                parts.tracing());
        this.coalescer = CacheStores.coalescer(context, routing.cacheTtl(), routing.cacheStaleTtl());
        handOverForeign(pending, delayed, context.currentSystemTimeMs());
        for (String scope : routing.scopes()) {
            if (owns(scope)) {
                unit(scope).restore(item -> scope.equals(scopeOf(item)), quietBound(), parts.startedNanos(), context.currentSystemTimeMs());
            }
        }
        rerouteOrphans(pending);
        rerouteOrphans(delayed);
        dropOrphanOverflow(context.getStateStore(OVERFLOW_STORE), routing.scopes().stream().filter(this::owns).toList());
        this.punctuator = context.schedule(settings.batch().punctuateInterval(), PunctuationType.WALL_CLOCK_TIME, this::punctuate);
    }

    /** Whether this task owns {@code scope}: it hashes to this task's dispatch partition among {@code dispatch.partitions}. */
    private boolean owns(String scope) {
        // this task's dispatch partition owns the scopes that hash to it (QuotaScope.dispatchPartition)
        return QuotaScope.dispatchPartition(scope, settings.dispatchPartitions()) == context.taskId().partition();
    }

    private Duration quietBound() {
        return io.quotaflow.settings.GroupMembership.takeoverBound(context.appConfigs());
    }

    /** The dispatcher of configured {@code scope}, made on first use. */
    private ScopeDispatcher unit(String scope) {
        ScopeDispatcher existing = units.get(scope);
        if (existing != null) {
            return existing;
        }
        Routing routing = settings.routing();
        DispatcherSettings own = settings.forScope(scope);
        RouteSettings first = routing.routesOf(scope).get(0);
        ScopeDispatcher unit = new ScopeDispatcher(scope, own, first.batchMode() ? null : parts.clients().forRoute(first), parts.random(), listener,
                output, new DispatchLedger(context.getStateStore(PENDING_STORE), context.getStateStore(DELAYED_STORE),
                context.getStateStore(IN_FLIGHT_STORE), context.getStateStore(RETRYING_STORE), context.getStateStore(CANCELS_STORE),
                new PendingQueue(own.tenants(), own.batch().completionTokensPerItem()), context.getStateStore(OVERFLOW_STORE), scope,
                own.maxPending()), mover, coalescer, context.getStateStore(USAGE_STORE), limiterClock, statuses,
                batchCaller(scope, first, own), parts.tracing());
        units.put(scope, unit);
        return unit;
    }

    /** Hands what the stores hold of configured scopes another partition owns to their owners ({@link ScopeHandover}). */
    private void handOverForeign(KeyValueStore<String, WorkItem> pending, KeyValueStore<String, WorkItem> delayed, long now) {
        List<String> configured = settings.routing().scopes();
        java.util.Set<String> foreign = ScopeHandover.foreign(configured, this::owns);
        if (foreign.isEmpty()) {
            return;
        }
        ScopeHandover.Result r = new ScopeHandover(this::scopeOf, foreign::contains, new ScopeHandover.Sink() {
            @Override
            public void handOver(WorkItem item, String scope) {
                output.move(mover.handOver(item, scope));
            }

            @Override
            public void cancelled(WorkItem item) {
                listener.cancelled(scopeOf(item), item.key());
                statuses.cancelled(item.key(), now);
            }
        }).apply(new ScopeHandover.Stores(pending, delayed, context.getStateStore(IN_FLIGHT_STORE), context.getStateStore(CANCELS_STORE),
                context.getStateStore(USAGE_STORE), context.getStateStore(BATCH_JOBS_STORE)), foreign);
        if (r.any()) {
            LOG.info("dispatch partition {}: handed {} tickets of quota scopes other partitions own to their owners ({} cancelled while "
                    + "their call was out ended here; {} calls and {} batch jobs forgotten)", context.taskId().partition(), r.tickets(), r.cancelled(),
                    r.calls(), r.jobs());
        }
    }

    /** The Batch API calls of {@code route}'s scope when it is a batch route; null for an online one. */
    private BatchCaller batchCaller(String scope, RouteSettings route, DispatcherSettings own) {
        if (!route.batchMode()) {
            return null;
        }
        return new BatchCaller(scope, ScopeDispatcher.who(own, scope), route.batchApi(), new BatchApiClient(route.model()),
                new BatchLines(new OpenAiChatClient(route.model())), context.getStateStore(BATCH_JOBS_STORE), parts.tracing().jobs(route.model()));
    }

    /** The scope a held ticket belongs to: its route's (a ticket of a version before routes: the default route's). */
    private String scopeOf(WorkItem item) {
        Routing routing = settings.routing();
        if (item.routed().route() == null) {
            return routing.defaultRouteSettings().scope();
        }
        return routing.route(item.routed().route()).map(RouteSettings::scope).orElse(null);
    }

    /** Tickets held for a route this configuration no longer has go where the rules send them now. */
    private void rerouteOrphans(KeyValueStore<String, WorkItem> store) {
        List<WorkItem> orphans = new ArrayList<>();
        try (KeyValueIterator<String, WorkItem> it = store.all()) {
            it.forEachRemaining(kv -> {
                if (scopeOf(kv.value) == null) {
                    orphans.add(kv.value);
                }
            });
        }
        for (WorkItem item : orphans) {
            store.delete(item.key());
            output.move(mover.reroute(item));
        }
        if (!orphans.isEmpty()) {
            LOG.info("re-routed {} tickets of routes no longer configured", orphans.size());
        }
    }

    /** Drops the overflow entries of quota scopes no longer configured ({@link DispatchLedger#dropOrphanOverflow}). */
    private static void dropOrphanOverflow(KeyValueStore<String, String> overflow, List<String> owned) {
        int dropped = DispatchLedger.dropOrphanOverflow(overflow, owned);
        if (dropped > 0) {
            LOG.info("dropped {} overflow entries of quota scopes no longer configured", dropped);
        }
    }

    @Override
    public void process(Record<String, WorkItem> record) {
        WorkItem item = record.value();
        if (item == null) {
            notice(record);
            return;
        }
        ScopeDispatcher unit = units.get(record.key());
        if (unit == null) {
            if (settings.routing().routesOf(record.key()).isEmpty()) {
                output.move(mover.reroute(item));
                return;
            }
            if (!owns(record.key()) && record.headers().lastHeader(DispatchTopics.HANDOVER_HEADER) == null) {
                // written by a writer that partitioned otherwise (a version before stable ownership): to the owner, once
                output.move(mover.handOver(item, record.key()));
                return;
            }
            // a handed-over ticket that still lands here (the topic's partition count disagrees with dispatch.partitions,
            // which the start-up check refuses): served here rather than passed round for ever
            unit = unit(record.key());
        }
        Publication newer = heard.get(item.key());
        if ((newer != null && newer.supersedes(item, record.key())) || statuses.overtakenOnTheLane(item)) {
            // a newer publication of this ticket went to another route, or came to this task first on
            // the interactive lane (its status says so): this copy is stale
            listener.republished(record.key(), "superseded");
            return;
        }
        unit.accept(item, context.currentSystemTimeMs());
    }

    /** Remembers {@code p} as the newest publication of its ticket heard of, unless a newer one was. */
    private void hear(Publication p) {
        heard.merge(p.key(), p, (before, now) -> now.supersedes(before.at(), before.sha256(), before.scope()) ? now : before);
    }

    /** A null value: a cancel, or the notice of a publication sent to another scope. */
    private void notice(Record<String, WorkItem> record) {
        org.apache.kafka.common.header.Header cancel = record.headers().lastHeader(DispatchTopics.CANCEL_HEADER);
        if (cancel != null) {
            // to every partition (DispatchTopics.EVERY_PARTITION), or to one scope (a writer before stable ownership): each unit here looks
            String id = new String(cancel.value(), java.nio.charset.StandardCharsets.UTF_8);
            for (ScopeDispatcher unit : units.values()) {
                unit.cancel(id, context.currentSystemTimeMs());
            }
            return;
        }
        ScopeDispatcher scope = units.get(record.key());
        if (scope == null) {
            return;
        }
        Optional<Publication> publication = Publication.read(record.headers());
        if (publication.isPresent()) {
            Publication p = publication.get();
            hear(p);
            scope.supersede(p, context.currentSystemTimeMs());
        }
    }

    void punctuate(long now) {
        boolean sweep = now >= sweeps.next;
        if (sweep) {
            sweeps.next = now + SWEEP_INTERVAL_MS;
        }
        if (sweep || sweeps.statusesBehind) {
            sweeps.statusesBehind = statuses.sweep(now);
        }
        for (ScopeDispatcher unit : units.values()) {
            unit.punctuate(now);
            if (sweep) {
                unit.sweep(now);
            }
        }
    }

    @Override
    public void close() {
        if (punctuator != null) {
            punctuator.cancel();
        }
        units.values().forEach(ScopeDispatcher::close);
    }

    /** When the once-a-second sweep is next due, and whether the last status sweep found a full batch due (then every tick sweeps statuses). */
    private static final class Sweeps {
        long next;
        boolean statusesBehind;
    }
}

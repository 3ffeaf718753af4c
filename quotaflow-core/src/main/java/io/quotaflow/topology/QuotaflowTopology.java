package io.quotaflow.topology;

import io.quotaflow.dispatch.ledger.DispatchTopics;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.TopicNames;

import io.quotaflow.routing.ModelClients;
import io.quotaflow.provider.RouteStateBoard;
import io.quotaflow.ticket.BinarySerde;
import io.quotaflow.ticket.WorkItem;
import io.quotaflow.tracing.Tracing;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.DslStoreSuppliers;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;

import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.dispatch.DispatchParts;
import io.quotaflow.dispatch.DispatcherProcessor;
import io.quotaflow.dispatch.ledger.InFlightBatch;
import io.quotaflow.dispatch.outcome.Outbound;
import io.quotaflow.dispatch.ledger.RetryMarker;

/**
 * The pipeline as a pure function over a {@link StreamsBuilder}:
 *
 * <pre>
 * tickets.{interactive,standard,bulk,retry} → intake ─bad/too large→ tickets.dlq
 *                                               │ re-key by quota scope
 *                                               ▼ (repartition "dispatch", interactive tickets "dispatch-interactive")
 *                                           dispatcher → tickets.classified | tickets.retry | tickets.dlq | tickets.handoff
 * </pre>
 */
public final class QuotaflowTopology {

    private QuotaflowTopology() {
    }

    /**
     * The topology with a model client per quota scope from {@code clients}, built with the
     * application's Streams properties (so topology-level settings see them).
     *
     * @param time the limiter's time ({@link Time#SYSTEM} in production; a time the test moves in tests)
     */
    public static Topology build(DispatcherSettings settings, ModelClients clients, RandomGenerator random,
                                 DispatcherListener listener, java.util.Properties streamsProperties, Time time) {
        return build(settings, clients, random, listener, streamsProperties, time, new RouteStateBoard(java.util.List.of(), time),
                Tracing.NOOP);
    }

    /**
     * As above, the dispatchers publishing whether their routes can serve on {@code routes}, the instance's one
     * record of route health (its published part), which every task's fallback choice reads, and each ticket's spans
     * sent to {@code tracing} ({@link Tracing#NOOP}: traces off; docs/operations.md, "Traces").
     */
    public static Topology build(DispatcherSettings settings, ModelClients clients, RandomGenerator random,
                                 DispatcherListener listener, java.util.Properties streamsProperties, Time time,
                                 RouteStateBoard routes, Tracing tracing) {
        org.apache.kafka.streams.StreamsConfig config = new org.apache.kafka.streams.StreamsConfig(withDefaults(streamsProperties));
        StreamsBuilder builder = new StreamsBuilder(new org.apache.kafka.streams.TopologyConfig(config));
        // the dispatcher's stores are Processor API stores, which Streams builds as they are given: they follow
        // dsl.store.suppliers.class like the DSL's own (RocksDB by default; in memory, changelogged, if set so)
        build(builder, settings, clients, random, listener, time, routes, tracing,
                config.getConfiguredInstance(org.apache.kafka.streams.StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, DslStoreSuppliers.class));
        return builder.build(streamsProperties);
    }

    private static java.util.Properties withDefaults(java.util.Properties p) {
        java.util.Properties copy = new java.util.Properties();
        copy.putAll(p);
        copy.putIfAbsent(org.apache.kafka.streams.StreamsConfig.APPLICATION_ID_CONFIG, "quotaflow");
        copy.putIfAbsent(org.apache.kafka.streams.StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        copy.putIfAbsent(org.apache.kafka.streams.StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, "true");
        return copy;
    }

    /**
     * The topology over {@code builder}, a model client per quota scope from {@code clients}.
     * Each quota scope goes to the dispatch partition its name hashes to
     * ({@link io.quotaflow.settings.QuotaScope#dispatchPartition}), so each scope has one owner task whatever the
     * configuration that wrote it; a ticket that changes
     * route is written back to the dispatch topic by its dispatcher (Target MOVE), partitioned the same way.
     */
    private static void build(StreamsBuilder builder, DispatcherSettings settings, ModelClients clients, RandomGenerator random,
                              DispatcherListener listener, Time time, RouteStateBoard routes, Tracing tracing, DslStoreSuppliers stores) {
        BinarySerde<WorkItem> workItemSerde = new BinarySerde<>(WorkItem.class);
        ScopePartitioner<WorkItem> partitioner = new ScopePartitioner<>();

        TopicNames topics = settings.topics();
        // under tenants.from=topic|principal also each listed tenant's own input topics (tickets.<tenant>.<priority>)
        java.util.List<String> inputs = new java.util.ArrayList<>(topics.inputs());
        inputs.addAll(settings.tenants().access().topics(topics).keySet());
        KStream<String, byte[]> input = builder.stream(inputs, Topics.INTERACTIVE.consumed());

        Map<String, KStream<String, IntakeResult>> intake = input
                .process(() -> new IntakeProcessor(settings, listener, tracing), Named.as("intake"))
                .split(Named.as("intake-"))
                .branch((key, value) -> value instanceof IntakeResult.Rejected, Branched.as("rejected"))
                .defaultBranch(Branched.as("accepted"));

        intake.get("intake-rejected")
                .mapValues(v -> ((IntakeResult.Rejected) v).original(), Named.as("rejected-bytes"))
                .to(topics.dlq(), Topics.DLQ.produced());

        // interactive tickets take a lane of their own to the same tasks (DispatchLanes): they do not
        // wait behind a backlog of other tickets still to be read from the dispatch topic
        Map<String, KStream<String, IntakeResult>> lanes = intake.get("intake-accepted").split(Named.as("lane-"))
                .branch((key, value) -> DispatchLanes.interactive(value), Branched.as("interactive"))
                .defaultBranch(Branched.as("dispatch"));
        // a cancel travels as a null value with its id in a header, to every scope's dispatcher, on the
        // dispatch topic: behind any ticket of the scope published before it
        KStream<String, WorkItem> dispatch = lanes.get("lane-dispatch")
                .mapValues(v -> v instanceof IntakeResult.Accepted a ? a.item() : null, Named.as("accepted-item"))
                // the count is quotaflow's (dispatch.partitions): derived from the inputs, it would change
                // when an input topic gains partitions, and Streams refuses the existing topic from then on
                .repartition(Repartitioned.with(Serdes.String(), workItemSerde).withName(DispatchTopics.REPARTITION)
                        .withNumberOfPartitions(settings.dispatchPartitions()).withStreamPartitioner(partitioner));
        KStream<String, WorkItem> interactive = lanes.get("lane-interactive")
                .mapValues(v -> ((IntakeResult.Accepted) v).item(), Named.as("interactive-item"))
                .repartition(Repartitioned.with(Serdes.String(), workItemSerde).withName(DispatchTopics.INTERACTIVE_REPARTITION)
                        .withNumberOfPartitions(settings.dispatchPartitions()).withStreamPartitioner(partitioner));
        KStream<String, Outbound> outbound = dispatch.merge(interactive, Named.as("dispatch-lanes"))
                .process(new DispatcherSupplier(settings, new DispatchParts(clients, random, listener, routes, time, tracing), stores), Named.as("dispatcher"));

        Map<String, KStream<String, Outbound>> out = outbound.split(Named.as("out-"))
                .branch((k, v) -> v.target() == Outbound.Target.CLASSIFIED, Branched.as("classified"))
                .branch((k, v) -> v.target() == Outbound.Target.RETRY, Branched.as("retry"))
                .branch((k, v) -> v.target() == Outbound.Target.MOVE, Branched.as("move"))
                .branch((k, v) -> v.target() == Outbound.Target.HANDOFF, Branched.as("handoff"))
                .defaultBranch(Branched.as("dead-letter"));
        // the value is the ticket in the dispatch topic's own format; the topic is named by the dispatcher
        out.get("out-move").to((k, v, context) -> v.topic(), Produced.with(Serdes.String(), Outbound.valueSerde())
                .withStreamPartitioner(new ScopePartitioner<>()).withName("moved"));
        out.get("out-classified").mapValues(Outbound::value, Named.as("classified-bytes"))
                .to(topics.classified(), Topics.CLASSIFIED.produced());
        out.get("out-retry").mapValues(Outbound::value, Named.as("retry-bytes"))
                .to(topics.retry(), Topics.RETRY.produced());
        out.get("out-dead-letter").mapValues(Outbound::value, Named.as("dead-letter-bytes"))
                .to(topics.dlq(), Topics.DLQ.produced());
        out.get("out-handoff").mapValues(Outbound::value, Named.as("handoff-bytes"))
                .to(topics.handoff(), Topics.HANDOFF.produced());
    }

    /**
     * The Kafka topics Kafka Streams creates for this topology under {@code applicationId}: the two dispatch
     * repartition topics and one changelog per state store. They do not depend on the settings (routes,
     * tenants, the cache), so {@code quotaflow reset} names them without the run's configuration;
     * {@code QuotaflowTopologyInternalTopicsTest} holds them against the built topology's description.
     */
    public static java.util.SortedSet<String> internalTopics(String applicationId) {
        java.util.SortedSet<String> names = new java.util.TreeSet<>();
        names.addAll(DispatchTopics.dispatchTopics(applicationId));
        storeBuilders(new BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers()).forEach(store -> names.add(applicationId + "-" + store.name() + "-changelog"));
        return names;
    }

    /** The dispatcher's state stores, all changelogged, over the byte stores of {@code suppliers}. */
    private static Set<StoreBuilder<?>> storeBuilders(DslStoreSuppliers suppliers) {
        Function<String, KeyValueBytesStoreSupplier> bytes = name -> suppliers.keyValueStore(new DslKeyValueParams(name, false));
        BinarySerde<WorkItem> items = new BinarySerde<>(WorkItem.class);
        Set<StoreBuilder<?>> stores = new java.util.HashSet<>(io.quotaflow.cache.CacheStores.stores(bytes));
        stores.add(Stores.keyValueStoreBuilder(bytes.apply(io.quotaflow.status.StatusStore.STATUS), Serdes.String(),
                new BinarySerde<>(io.quotaflow.status.TicketStatus.class)));
        stores.add(Stores.keyValueStoreBuilder(bytes.apply(io.quotaflow.status.StatusStore.EXPIRY), Serdes.String(), Serdes.String()));
        stores.addAll(Set.of(
                Stores.keyValueStoreBuilder(bytes.apply(DispatcherProcessor.PENDING_STORE), Serdes.String(), items),
                Stores.keyValueStoreBuilder(bytes.apply(DispatcherProcessor.DELAYED_STORE), Serdes.String(), items),
                Stores.keyValueStoreBuilder(bytes.apply(DispatcherProcessor.IN_FLIGHT_STORE), Serdes.String(),
                        new BinarySerde<>(InFlightBatch.class)),
                Stores.keyValueStoreBuilder(bytes.apply(DispatcherProcessor.RETRYING_STORE), Serdes.String(),
                        new BinarySerde<>(RetryMarker.class)),
                Stores.keyValueStoreBuilder(bytes.apply(DispatcherProcessor.CANCELS_STORE), Serdes.String(), Serdes.Long()),
                Stores.keyValueStoreBuilder(bytes.apply(DispatcherProcessor.OVERFLOW_STORE), Serdes.String(), Serdes.String()),
                Stores.keyValueStoreBuilder(bytes.apply(DispatcherProcessor.USAGE_STORE), Serdes.String(),
                        new BinarySerde<>(io.quotaflow.quota.ScopeUsage.class)),
                Stores.keyValueStoreBuilder(bytes.apply(DispatcherProcessor.BATCH_JOBS_STORE), Serdes.String(),
                        new BinarySerde<>(io.quotaflow.batch.BatchJob.class))));
        return stores;
    }

    /** Creates one dispatcher per task, with its stores; the route-state board is shared by every task of the instance. */
    static final class DispatcherSupplier implements ProcessorSupplier<String, WorkItem, String, Outbound> {

        private final DispatcherSettings settings;
        private final DispatchParts parts;
        private final DslStoreSuppliers stores;

        DispatcherSupplier(DispatcherSettings settings, DispatchParts parts, DslStoreSuppliers stores) {
            this.settings = settings;
            this.parts = parts;
            this.stores = stores;
        }

        @Override
        public DispatcherProcessor get() {
            return new DispatcherProcessor(settings, parts);
        }

        @Override
        public Set<StoreBuilder<?>> stores() {
            return storeBuilders(stores);
        }
    }
}

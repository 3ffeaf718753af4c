package io.quotaflow.settings;

import io.quotaflow.records.Priority;


import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the topology needs to know, as one immutable value.
 *
 * @param statusRetention    how long a finished ticket's status stays queryable ({@code status.retention})
 * @param dispatchPartitions partitions of the dispatch repartition topic ({@code dispatch.partitions}): fixed by
 *                           quotaflow, never derived from the input topics, so raising those never stalls the pipeline
 * @param maxPending         waiting tickets per quota scope indexed in memory ({@code queue.max-pending}); the rest
 *                           wait on disk, spilled (docs/design.md, "Bounds")
 * @param maxDepth           per priority, the waiting tickets of a quota scope beyond which a new one is shed: dead-lettered
 *                           as {@code shed}, replayable ({@code queue.max-depth.<priority>}; absent: never)
 * @param deadlines          deadline defaults, what happens to a ticket that will miss one, and waiting limits
 *                           ({@code deadline.*}, {@code queue.max-wait.*}; docs/design.md, "Deadlines and hand-off")
 * @param ownScope           the quota scope {@link #forScope} made these settings for, null for none
 */
public record DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                                 RecordLimits limits, TopicNames topics, Routing routing, TenantSettings tenants,
                                 Duration statusRetention, int dispatchPartitions, int maxPending, Map<Priority, Integer> maxDepth,
                                 DeadlineSettings deadlines, String ownScope) {

    /**
     * {@code queue.max-pending}'s default: about 250 bytes of heap per ticket indexed (docs/design.md,
     * "Bounds"), so 200,000 tickets take about 50 MiB per scope: four scopes fit in a fifth of a 1 GiB heap.
     */
    public static final int DEFAULT_MAX_PENDING = 200_000;

    /** The least {@code queue.max-pending} may be (below {@code batch.max-items} it also caps a batch). */
    public static final int MIN_MAX_PENDING = 1;

    /** {@code status.retention}'s default. */
    public static final Duration DEFAULT_STATUS_RETENTION = Duration.ofHours(1);

    /**
     * {@code dispatch.partitions}' default: what Kafka Streams derived from the bundled input topics (6
     * partitions each) before the count was quotaflow's, so an existing deployment's topic matches it.
     */
    public static final int DEFAULT_DISPATCH_PARTITIONS = 6;

    /** The most {@code dispatch.partitions} may be (a typo's guard; a scope owns one partition). */
    public static final int MAX_DISPATCH_PARTITIONS = 1_000;

    private DispatcherSettings(Builder b) {
        this(b.model, b.quota, b.batch, b.retry, b.limits, b.topics, b.routing == null ? Routing.single(b.model, b.quota) : b.routing,
                b.tenants, b.statusRetention, b.dispatchPartitions, b.maxPending, b.maxDepth, b.deadlines, b.ownScope);
    }

    public DispatcherSettings {
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(quota, "quota");
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(routing, "routing");
        Objects.requireNonNull(tenants, "tenants");
        Objects.requireNonNull(statusRetention, "statusRetention");
        QuotaSettings.require(statusRetention.compareTo(Duration.ofSeconds(1)) >= 0, "status.retention must be at least 1s");
        QuotaSettings.require(dispatchPartitions >= 1 && dispatchPartitions <= MAX_DISPATCH_PARTITIONS,
                "dispatch.partitions must be in [1, " + MAX_DISPATCH_PARTITIONS + "]");
        QuotaSettings.require(maxPending >= MIN_MAX_PENDING, "queue.max-pending must be at least " + MIN_MAX_PENDING);
        maxDepth = maxDepth == null || maxDepth.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.EnumMap<>(maxDepth));
        maxDepth.forEach((p, d) -> QuotaSettings.require(d != null && d >= 1, Keys.QUEUE_MAX_DEPTH_PREFIX + p.wireName() + " must be at least 1"));
        deadlines = deadlines == null ? DeadlineSettings.DEFAULTS : deadlines;
    }

    /**
     * Settings over several routes; {@link #model()} and {@link #quota()} are the default route's
     * until {@link #forScope} picks a scope's.
     */
    public static DispatcherSettings of(Routing routing, BatchSettings batch, RetrySettings retry, RecordLimits limits,
                                        TopicNames topics) {
        RouteSettings first = routing.defaultRouteSettings();
        return builder(first.model(), first.quota(), batch, retry).limits(limits).topics(topics).routing(routing).build();
    }

    /**
     * A builder of settings of {@code model} and {@code quota}; every other part has its default: the record limits'
     * and topic names' defaults, one route ({@code default}) of the model and quota, no tenant weights or caps,
     * {@link #DEFAULT_STATUS_RETENTION}, {@link #DEFAULT_DISPATCH_PARTITIONS}, {@link #DEFAULT_MAX_PENDING}, no
     * shedding and {@link DeadlineSettings#DEFAULTS}.
     */
    public static Builder builder(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry) {
        return new Builder(model, quota, batch, retry);
    }

    /** A builder holding these settings, to change some of them. */
    public Builder toBuilder() {
        Builder b = builder(model, quota, batch, retry).limits(limits).topics(topics).routing(routing).tenants(tenants)
                .statusRetention(statusRetention).dispatchPartitions(dispatchPartitions).maxPending(maxPending)
                .maxDepth(maxDepth).deadlines(deadlines);
        b.ownScope = ownScope;
        return b;
    }

    /** These settings as seen by the owner of {@code scope}: its first route's model and quota. */
    public DispatcherSettings forScope(String scope) {
        RouteSettings first = routing.routesOf(scope).stream().findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no route has scope " + scope));
        Builder b = toBuilder();
        b.model = first.model();
        b.quota = first.quota();
        b.ownScope = scope;
        return b.build();
    }

    public DispatcherSettings withLimits(RecordLimits value) {
        return toBuilder().limits(value).build();
    }

    public DispatcherSettings withTopics(TopicNames value) {
        return toBuilder().topics(value).build();
    }

    public DispatcherSettings withRouting(Routing value) {
        return toBuilder().routing(value).build();
    }

    public DispatcherSettings withTenants(TenantSettings value) {
        return toBuilder().tenants(value).build();
    }

    public DispatcherSettings withStatusRetention(Duration value) {
        return toBuilder().statusRetention(value).build();
    }

    public DispatcherSettings withDispatchPartitions(int value) {
        return toBuilder().dispatchPartitions(value).build();
    }

    public DispatcherSettings withMaxPending(int value) {
        return toBuilder().maxPending(value).build();
    }

    /** The same settings shedding at {@code value} ({@code queue.max-depth.<priority>}). */
    public DispatcherSettings withMaxDepth(Map<Priority, Integer> value) {
        return toBuilder().maxDepth(value).build();
    }

    /** The same settings with {@code value}'s deadlines and waiting limits. */
    public DispatcherSettings withDeadlines(DeadlineSettings value) {
        return toBuilder().deadlines(value).build();
    }

    /**
     * The quota scope these settings are of: the one {@link #forScope} was given, else that of this model
     * endpoint and key (a batch route of the same model has a scope of its own, {@link RouteSettings#scope()}).
     */
    public String scope() {
        if (ownScope != null) {
            return ownScope;
        }
        return QuotaScope.of(model);
    }

    /** Builds {@link DispatcherSettings}; {@link #build()} validates them (the record's constructor). */
    public static final class Builder {
        private ModelSettings model;
        private QuotaSettings quota;
        private final BatchSettings batch;
        private final RetrySettings retry;
        private RecordLimits limits = RecordLimits.ofDefaults();
        private TopicNames topics = TopicNames.DEFAULT;
        private Routing routing;
        private TenantSettings tenants = TenantSettings.NONE;
        private Duration statusRetention = DEFAULT_STATUS_RETENTION;
        private int dispatchPartitions = DEFAULT_DISPATCH_PARTITIONS;
        private int maxPending = DEFAULT_MAX_PENDING;
        private Map<Priority, Integer> maxDepth = Map.of();
        private DeadlineSettings deadlines = DeadlineSettings.DEFAULTS;
        private String ownScope;

        private Builder(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry) {
            this.model = model;
            this.quota = quota;
            this.batch = batch;
            this.retry = retry;
        }

        public Builder limits(RecordLimits value) {
            limits = value;
            return this;
        }

        public Builder topics(TopicNames value) {
            topics = value;
            return this;
        }

        /** The routes and rules (default: one route, {@code default}, of the model and quota). */
        public Builder routing(Routing value) {
            routing = value;
            return this;
        }

        public Builder tenants(TenantSettings value) {
            tenants = value;
            return this;
        }

        public Builder statusRetention(Duration value) {
            statusRetention = value;
            return this;
        }

        public Builder dispatchPartitions(int value) {
            dispatchPartitions = value;
            return this;
        }

        public Builder maxPending(int value) {
            maxPending = value;
            return this;
        }

        public Builder maxDepth(Map<Priority, Integer> value) {
            maxDepth = value;
            return this;
        }

        public Builder deadlines(DeadlineSettings value) {
            deadlines = value;
            return this;
        }

        /** The settings; an {@link IllegalArgumentException} names the first part out of its range. */
        public DispatcherSettings build() {
            return new DispatcherSettings(this);
        }
    }
}

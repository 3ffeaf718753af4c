package io.quotaflow.config;

import io.quotaflow.settings.Keys;
import io.quotaflow.deadline.DeadlineSettings;
import io.quotaflow.records.Priority;


import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.routing.QuotaScope;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RecordLimits;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.routing.RouteSettings;
import io.quotaflow.routing.Routing;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.settings.TopicNames;

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

    /** Settings of no one scope in particular ({@link #scope()}: the model's). */
    public DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                              RecordLimits limits, TopicNames topics, Routing routing, TenantSettings tenants,
                              Duration statusRetention, int dispatchPartitions, int maxPending, Map<Priority, Integer> maxDepth,
                              DeadlineSettings deadlines) {
        this(model, quota, batch, retry, limits, topics, routing, tenants, statusRetention, dispatchPartitions, maxPending, maxDepth,
                deadlines, null);
    }

    /** Settings without deadline defaults or waiting limits. */
    public DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                              RecordLimits limits, TopicNames topics, Routing routing, TenantSettings tenants,
                              Duration statusRetention, int dispatchPartitions, int maxPending, Map<Priority, Integer> maxDepth) {
        this(model, quota, batch, retry, limits, topics, routing, tenants, statusRetention, dispatchPartitions, maxPending, maxDepth,
                DeadlineSettings.DEFAULTS);
    }

    /** Settings that shed nothing. */
    public DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                              RecordLimits limits, TopicNames topics, Routing routing, TenantSettings tenants,
                              Duration statusRetention, int dispatchPartitions, int maxPending) {
        this(model, quota, batch, retry, limits, topics, routing, tenants, statusRetention, dispatchPartitions, maxPending, Map.of());
    }

    /**
     * {@code queue.max-pending}'s default: about 250 bytes of heap per ticket indexed (docs/design.md,
     * "Bounds"), so 200,000 tickets take about 50 MiB per scope: four scopes fit in a fifth of a 1 GiB heap.
     */
    public static final int DEFAULT_MAX_PENDING = 200_000;

    /** The least {@code queue.max-pending} may be (below {@code batch.max-items} it also caps a batch). */
    public static final int MIN_MAX_PENDING = 1;

    /** Settings with the default {@code queue.max-pending}. */
    public DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                              RecordLimits limits, TopicNames topics, Routing routing, TenantSettings tenants,
                              Duration statusRetention, int dispatchPartitions) {
        this(model, quota, batch, retry, limits, topics, routing, tenants, statusRetention, dispatchPartitions, DEFAULT_MAX_PENDING);
    }

    /** {@code status.retention}'s default. */
    public static final Duration DEFAULT_STATUS_RETENTION = Duration.ofHours(1);

    /**
     * {@code dispatch.partitions}' default: what Kafka Streams derived from the bundled input topics (6
     * partitions each) before the count was quotaflow's, so an existing deployment's topic matches it.
     */
    public static final int DEFAULT_DISPATCH_PARTITIONS = 6;

    /** The most {@code dispatch.partitions} may be (a typo's guard; a scope owns one partition). */
    public static final int MAX_DISPATCH_PARTITIONS = 1_000;

    /** Settings with the default dispatch partition count. */
    public DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                              RecordLimits limits, TopicNames topics, Routing routing, TenantSettings tenants,
                              Duration statusRetention) {
        this(model, quota, batch, retry, limits, topics, routing, tenants, statusRetention, DEFAULT_DISPATCH_PARTITIONS);
    }

    /** Settings keeping finished statuses for the default retention. */
    public DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                              RecordLimits limits, TopicNames topics, Routing routing, TenantSettings tenants) {
        this(model, quota, batch, retry, limits, topics, routing, tenants, DEFAULT_STATUS_RETENTION);
    }

    /** Settings over {@code routing} with no tenant weights or caps. */
    public DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                              RecordLimits limits, TopicNames topics, Routing routing) {
        this(model, quota, batch, retry, limits, topics, routing, TenantSettings.NONE);
    }

    /** Settings with one route, {@code default}, of {@code model} and {@code quota}. */
    public DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                              RecordLimits limits, TopicNames topics) {
        this(model, quota, batch, retry, limits, topics, Routing.single(model, quota));
    }

    /** Settings with the unprefixed topic names. */
    public DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                              RecordLimits limits) {
        this(model, quota, batch, retry, limits, TopicNames.DEFAULT);
    }

    /** Settings with the default record limits. */
    public DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry) {
        this(model, quota, batch, retry, RecordLimits.ofDefaults());
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
        return new DispatcherSettings(first.model(), first.quota(), batch, retry, limits, topics, routing);
    }

    /** These settings as seen by the owner of {@code scope}: its first route's model and quota. */
    public DispatcherSettings forScope(String scope) {
        RouteSettings first = routing.routesOf(scope).stream().findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no route has scope " + scope));
        return new DispatcherSettings(first.model(), first.quota(), batch, retry, limits, topics, routing, tenants, statusRetention,
                dispatchPartitions, maxPending, maxDepth, deadlines, scope);
    }

    public DispatcherSettings withLimits(RecordLimits value) {
        return new DispatcherSettings(model, quota, batch, retry, value, topics, routing, tenants, statusRetention,
                dispatchPartitions, maxPending, maxDepth, deadlines, ownScope);
    }

    public DispatcherSettings withTopics(TopicNames value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, value, routing, tenants, statusRetention,
                dispatchPartitions, maxPending, maxDepth, deadlines, ownScope);
    }

    public DispatcherSettings withRouting(Routing value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, value, tenants, statusRetention,
                dispatchPartitions, maxPending, maxDepth, deadlines, ownScope);
    }

    public DispatcherSettings withTenants(TenantSettings value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, routing, value, statusRetention,
                dispatchPartitions, maxPending, maxDepth, deadlines, ownScope);
    }

    public DispatcherSettings withStatusRetention(Duration value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, routing, tenants, value, dispatchPartitions, maxPending,
                maxDepth, deadlines, ownScope);
    }

    public DispatcherSettings withDispatchPartitions(int value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, routing, tenants, statusRetention, value, maxPending,
                maxDepth, deadlines, ownScope);
    }

    public DispatcherSettings withMaxPending(int value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, routing, tenants, statusRetention,
                dispatchPartitions, value, maxDepth, deadlines, ownScope);
    }

    /** The same settings shedding at {@code value} ({@code queue.max-depth.<priority>}). */
    public DispatcherSettings withMaxDepth(Map<Priority, Integer> value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, routing, tenants, statusRetention, dispatchPartitions,
                maxPending, value, deadlines, ownScope);
    }

    /** The same settings with {@code value}'s deadlines and waiting limits. */
    public DispatcherSettings withDeadlines(DeadlineSettings value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, routing, tenants, statusRetention, dispatchPartitions,
                maxPending, maxDepth, value, ownScope);
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
}

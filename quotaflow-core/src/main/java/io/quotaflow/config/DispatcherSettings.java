package io.quotaflow.config;


import java.time.Duration;
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
 */
public record DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                                 RecordLimits limits, TopicNames topics, Routing routing, TenantSettings tenants,
                                 Duration statusRetention, int dispatchPartitions) {

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
                dispatchPartitions);
    }

    public DispatcherSettings withLimits(RecordLimits value) {
        return new DispatcherSettings(model, quota, batch, retry, value, topics, routing, tenants, statusRetention, dispatchPartitions);
    }

    public DispatcherSettings withTopics(TopicNames value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, value, routing, tenants, statusRetention, dispatchPartitions);
    }

    public DispatcherSettings withRouting(Routing value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, value, tenants, statusRetention, dispatchPartitions);
    }

    public DispatcherSettings withTenants(TenantSettings value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, routing, value, statusRetention, dispatchPartitions);
    }

    public DispatcherSettings withStatusRetention(Duration value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, routing, tenants, value, dispatchPartitions);
    }

    public DispatcherSettings withDispatchPartitions(int value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, routing, tenants, statusRetention, value);
    }

    /** The quota scope of this model endpoint and key. */
    public String scope() {
        return QuotaScope.of(model);
    }
}

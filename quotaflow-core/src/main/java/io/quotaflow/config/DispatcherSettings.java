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
 * @param statusRetention how long a finished ticket's status stays queryable ({@code status.retention})
 */
public record DispatcherSettings(ModelSettings model, QuotaSettings quota, BatchSettings batch, RetrySettings retry,
                                 RecordLimits limits, TopicNames topics, Routing routing, TenantSettings tenants,
                                 Duration statusRetention) {

    /** {@code status.retention}'s default. */
    public static final Duration DEFAULT_STATUS_RETENTION = Duration.ofHours(1);

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
        return new DispatcherSettings(first.model(), first.quota(), batch, retry, limits, topics, routing, tenants, statusRetention);
    }

    public DispatcherSettings withLimits(RecordLimits value) {
        return new DispatcherSettings(model, quota, batch, retry, value, topics, routing, tenants, statusRetention);
    }

    public DispatcherSettings withTopics(TopicNames value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, value, routing, tenants, statusRetention);
    }

    public DispatcherSettings withRouting(Routing value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, value, tenants, statusRetention);
    }

    public DispatcherSettings withTenants(TenantSettings value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, routing, value, statusRetention);
    }

    public DispatcherSettings withStatusRetention(Duration value) {
        return new DispatcherSettings(model, quota, batch, retry, limits, topics, routing, tenants, value);
    }

    /** The quota scope of this model endpoint and key. */
    public String scope() {
        return QuotaScope.of(model);
    }
}

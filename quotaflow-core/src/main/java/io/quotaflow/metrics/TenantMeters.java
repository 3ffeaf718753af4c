package io.quotaflow.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.dispatch.report.DispatcherSnapshot;
import io.quotaflow.dispatch.report.TenantState;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code quotaflow_tenant_queue_depth{tenant}} and {@code quotaflow_tenant_tokens_total{tenant}}
 * (docs/design.md, "Tenants"). The label's cardinality is bounded: the first
 * {@link TenantState#MAX_TENANTS} tenants seen get a series of their own, every later one counts
 * as {@code other}, registered at zero from the start. Without tenant names
 * ({@code metrics.tenant-labels=false}, the default) every tenant counts as {@value #ALL}: a scrape,
 * which {@code /metrics} answers without a token, does not list who the tenants are.
 */
final class TenantMeters {

    /** The one label of every tenant when tenants are not named. */
    static final String ALL = "all";

    private final MeterRegistry registry;
    private final boolean named;
    private final Set<String> labelled = ConcurrentHashMap.newKeySet();
    /** Depth by scope, then by label; the gauge of a label sums its scopes. */
    private final Map<String, Map<String, Integer>> depthByScope = new ConcurrentHashMap<>();
    private final Map<String, Counter> tokens = new ConcurrentHashMap<>();

    TenantMeters(MeterRegistry registry) {
        this(registry, true);
    }

    /** {@code named}: each tenant under its name (at most the bound), else all as {@value #ALL}. */
    TenantMeters(MeterRegistry registry, boolean named) {
        this.registry = registry;
        this.named = named;
        register(named ? TenantState.OTHER : ALL);
    }

    /** The label of {@code tenant}: its own name while there is room, else {@code other}; {@value #ALL} when not named. */
    String label(String tenant) {
        if (!named) {
            return ALL;
        }
        if (labelled.contains(tenant)) {
            return tenant;
        }
        synchronized (labelled) {
            if (labelled.contains(tenant) || labelled.size() <= TenantState.MAX_TENANTS) {
                register(tenant);
                return tenant;
            }
        }
        return TenantState.OTHER;
    }

    private void register(String label) {
        if (!labelled.add(label)) {
            return;
        }
        Gauge.builder("quotaflow.tenant.queue.depth", () -> depth(label))
                .description("tickets waiting per tenant (the first 50 tenants by name, the rest as other)")
                .tag("tenant", label).register(registry);
        tokens.put(label, Counter.builder("quotaflow.tenant.tokens")
                .description("estimated tokens (prompt and completion share) admitted per tenant").baseUnit("tokens")
                .tag("tenant", label).register(registry));
    }

    private double depth(String label) {
        return depthByScope.values().stream().mapToInt(m -> m.getOrDefault(label, 0)).sum();
    }

    void admitted(String tenant, long count) {
        tokens.get(label(tenant)).increment(count);
    }

    /** Tokens admitted so far under {@code tenant}'s label. */
    double tokens(String tenant) {
        Counter c = tokens.get(!named ? ALL : labelled.contains(tenant) ? tenant : TenantState.OTHER);
        return c == null ? 0 : c.count();
    }

    void state(DispatcherSnapshot s) {
        Map<String, Integer> depths = new ConcurrentHashMap<>();
        s.tenants().forEach((tenant, state) -> depths.merge(label(tenant), state.depth(), Integer::sum));
        depthByScope.put(s.scope(), depths);
    }

    void released(String scope) {
        depthByScope.remove(scope);
    }
}

package io.quotaflow.demo;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.Prices;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Prices for runs against the simulator (demo, benchmark), whose models cost nothing: every route
 * without prices of its own gets the given ones, so that {@code quotaflow_cost_usd_total} and the
 * reports' cost per ticket show what the same usage would cost. Reports label such prices as assumed.
 */
public final class AssumedPrices {

    private AssumedPrices() {
    }

    /** {@code settings} with {@code prices} on every route that has none configured. */
    public static DispatcherSettings priced(DispatcherSettings settings, Prices prices) {
        Routing routing = settings.routing();
        Map<String, RouteSettings> routes = new LinkedHashMap<>();
        routing.routes().forEach((name, r) -> routes.put(name, r.prices().configured() ? r
                : new RouteSettings(r.name(), r.model(), r.quota(), r.fallback(), r.contextFallback(), prices, r.daily(),
                        r.inputTpm(), r.outputTpm(), r.batchApi())));
        return settings.withRouting(new Routing(routes, routing.defaultRoute(), routing.byPriority(), routing.byTenant(),
                routing.maxWait(), routing.cacheTtl(), routing.cacheShared()));
    }
}

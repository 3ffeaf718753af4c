package io.quotaflow.metrics;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.Prices;
import io.quotaflow.settings.RouteSettings;

import java.util.List;
import java.util.Objects;

/**
 * A route as its meters know it: the name in the {@code route} label, the quota scope it owns (a
 * hash, never a key), the limits its {@code quotaflow_quota_limit} gauges report and the prices its
 * {@code quotaflow_cost_usd_total} counts spend with.
 *
 * @param name   the route's name ({@code default} for the single-route options)
 * @param scope  the quota scope the dispatcher reports under
 * @param rpm    requests per minute the provider allows
 * @param tpm    tokens per minute the provider allows
 * @param prices its prices per million tokens, {@link Prices#NONE} when not configured
 */
public record MeteredRoute(String name, String scope, long rpm, long tpm, Prices prices) {

    /** The route the single-route options ({@code --llm-base-url}, {@code --rpm}, {@code --tpm}) define. */
    public static final String DEFAULT_NAME = "default";

    public MeteredRoute {
        if (name == null || !name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("a route name must be letters, digits, '.', '_' or '-', got '" + name + "'");
        }
        Objects.requireNonNull(scope, "scope");
        if (rpm < 0 || tpm < 0) {
            throw new IllegalArgumentException("route " + name + ": limits must be >= 0");
        }
        Objects.requireNonNull(prices, "prices");
    }

    /** A route without prices. */
    public MeteredRoute(String name, String scope, long rpm, long tpm) {
        this(name, scope, rpm, tpm, Prices.NONE);
    }

    /** The single route of a configuration: named {@code default}, with its scope and quota. */
    public static MeteredRoute single(DispatcherSettings settings) {
        return new MeteredRoute(DEFAULT_NAME, settings.scope(), settings.quota().rpm(), settings.quota().tpm());
    }

    /** One configured route: its name, scope, limits and prices. */
    public static MeteredRoute of(RouteSettings route) {
        return new MeteredRoute(route.name(), route.scope(), route.quota().rpm(), route.quota().tpm(), route.callPrices());
    }

    /** Every route of the settings' routing, in its order (the single-route options: one, {@code default}). */
    public static List<MeteredRoute> all(DispatcherSettings settings) {
        return settings.routing().routes().values().stream().map(MeteredRoute::of).toList();
    }
}

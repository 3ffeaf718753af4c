package io.quotaflow.metrics;

import io.quotaflow.config.DispatcherSettings;

import java.util.Objects;

/**
 * A route as its meters know it: the name in the {@code route} label, the quota scope it owns (a
 * hash, never a key) and the limits its {@code quotaflow_quota_limit} gauges report.
 *
 * @param name  the route's name ({@code default} for the single-route options)
 * @param scope the quota scope the dispatcher reports under
 * @param rpm   requests per minute the provider allows
 * @param tpm   tokens per minute the provider allows
 */
public record MeteredRoute(String name, String scope, long rpm, long tpm) {

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
    }

    /** The single route of a configuration: named {@code default}, with its scope and quota. */
    public static MeteredRoute single(DispatcherSettings settings) {
        return new MeteredRoute(DEFAULT_NAME, settings.scope(), settings.quota().rpm(), settings.quota().tpm());
    }
}

package io.quotaflow.metrics;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.settings.MetricsSettings;

/** The registry behind {@code /metrics}: Prometheus, filtered ({@link PageMeterFilter}), with {@code quotaflow_build_info}. */
public final class MetricsRegistry {

    private MetricsRegistry() {
    }

    /** A new registry for {@code settings}, before any binder: the filter must see every meter. */
    public static PrometheusMeterRegistry create(MetricsSettings settings) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().meterFilter(new PageMeterFilter(settings.kafka()));
        BuildInfo.register(registry);
        return registry;
    }
}

package io.quotaflow.metrics;

import io.quotaflow.testkit.ManualTime;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.settings.MetricsSettings;
import io.quotaflow.settings.TopicNames;

import java.util.Set;
import java.util.TreeSet;

/**
 * A registry with what a starting instance registers (the route's families, the JVM's, the consumer lag,
 * the build info, and the curated Kafka families when asked), for tests that check what alert rules and
 * dashboards query against what the application serves.
 */
public final class FreshRegistry {

    private FreshRegistry() {
    }

    /** The registry of an instance with one route, {@code default}. */
    public static PrometheusMeterRegistry of(MetricsSettings settings) {
        PrometheusMeterRegistry registry = MetricsRegistry.create(settings);
        new PipelineMetrics(registry, new MeteredRoute("default", "scope-0", 500, 200_000));
        ProcessMetrics.bindTo(registry);
        ClientMetrics clients = new ClientMetrics(new ManualTime(0));
        ConsumerLag.register(registry, TopicNames.DEFAULT.inputs(), clients);
        if (settings.kafka() == MetricsSettings.KafkaMetrics.CURATED) {
            KafkaCuratedMetrics.register(registry, clients);
        }
        return registry;
    }

    /**
     * The names a query may use: every family's {@code # TYPE} name on the page, NaN samples included
     * (a gauge without a value yet is still served once it has one), with {@code _bucket}, {@code _count}
     * and {@code _sum} for histograms.
     */
    public static Set<String> names(MetricsSettings settings) {
        PrometheusMeterRegistry registry = of(settings);
        Set<String> names = new TreeSet<>();
        registry.scrape().lines().filter(l -> l.startsWith("# TYPE ")).forEach(l -> {
            String[] parts = l.split(" ");
            names.add(parts[2]);
            if (parts[3].equals("histogram") || parts[3].equals("summary")) {
                names.add(parts[2] + "_bucket");
                names.add(parts[2] + "_count");
                names.add(parts[2] + "_sum");
            }
        });
        registry.close();
        return names;
    }
}

package io.quotaflow.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.common.MetricName;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code quotaflow_consumer_lag_records{topic}}: records this instance's stream threads have not read
 * yet, per topic the pipeline consumes, summed over the partitions this instance owns (the Kafka
 * consumer's own per-partition {@code records-lag}, measured at its last fetch). Registered at
 * start-up, zero-valued, so the consumer-lag alert works with Kafka's own metrics off
 * ({@code metrics.kafka=off}, the default). Sum over instances for the group's lag.
 */
public final class ConsumerLag {

    /** The family, {@code quotaflow_consumer_lag_records} in Prometheus. */
    public static final String NAME = "quotaflow.consumer.lag.records";
    private static final String GROUP = "consumer-fetch-manager-metrics";
    private static final String RECORDS_LAG = "records-lag";

    private ConsumerLag() {
    }

    /** Registers one gauge per topic of {@code topics}, reading {@code clients}. */
    public static void register(MeterRegistry registry, List<String> topics, ClientMetrics clients) {
        for (String topic : topics) {
            Gauge.builder(NAME, () -> lag(clients.values(), topic)).description("records this instance has not read yet, per "
                    + "topic it consumes (the Kafka consumer's records-lag summed over the partitions it owns, at its last fetch)")
                    .tag("topic", topic).register(registry);
        }
    }

    /**
     * The lag of the stream threads' consumers on {@code topic}. Kafka tags these metrics with the topic's
     * name and, for older dashboards, once more with its dots as underscores: the exact name is read when
     * present, the other spelling only otherwise, so nothing is counted twice.
     */
    static double lag(Map<MetricName, Double> values, String topic) {
        Map<String, Double> byTag = new HashMap<>();
        values.forEach((name, value) -> {
            String tag = name.tags().get("topic");
            if (RECORDS_LAG.equals(name.name()) && GROUP.equals(name.group()) && tag != null && name.tags().containsKey("partition")
                    && ClientMetrics.mainConsumer(name.tags().getOrDefault("client-id", "")) && value > 0) {
                byTag.merge(tag, value, Double::sum);
            }
        });
        Double exact = byTag.get(topic);
        return exact != null ? exact : byTag.getOrDefault(topic.replace('.', '_'), 0.0);
    }
}

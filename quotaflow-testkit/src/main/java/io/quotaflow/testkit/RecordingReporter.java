package io.quotaflow.testkit;

import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.metrics.MetricsContext;
import org.apache.kafka.common.metrics.MetricsReporter;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Kafka {@link MetricsReporter} that only records which clients were configured with it: set
 * {@code kafka.metric.reporters} to this class and every client that received the pass-through
 * properties announces its kind ({@code kafka.producer}, {@code kafka.consumer},
 * {@code kafka.admin.client}, {@code kafka.streams}) and client id here. What it records is one
 * list per JVM: a test class that clears and reads it takes {@code @ResourceLock(RecordingReporter.LOCK)},
 * so that IT classes running at once do not clear each other's records.
 */
public final class RecordingReporter implements MetricsReporter {

    /** The JUnit resource lock of the tests that read this reporter. */
    public static final String LOCK = "io.quotaflow.testkit.RecordingReporter";

    /** One client that got the property. */
    public record Seen(String namespace, String clientId) {
    }

    private static final List<Seen> SEEN = new CopyOnWriteArrayList<>();

    private String clientId = "";

    public static List<Seen> seen() {
        return List.copyOf(SEEN);
    }

    public static void clear() {
        SEEN.clear();
    }

    @Override
    public void configure(Map<String, ?> configs) {
        Object id = configs.get("client.id");
        clientId = id == null ? "" : id.toString();
    }

    @Override
    public void contextChange(MetricsContext context) {
        SEEN.add(new Seen(context.contextLabels().getOrDefault("_namespace", "?"), clientId));
    }

    @Override
    public void init(List<KafkaMetric> metrics) {
    }

    @Override
    public void metricChange(KafkaMetric metric) {
    }

    @Override
    public void metricRemoval(KafkaMetric metric) {
    }

    @Override
    public void close() {
    }
}

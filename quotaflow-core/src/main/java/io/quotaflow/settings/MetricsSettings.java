package io.quotaflow.settings;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * What {@code /metrics} serves besides quotaflow's own families and the JVM's (docs/operations.md, "Metrics").
 *
 * @param kafka the Kafka client and Streams metrics ({@code metrics.kafka}): none, or a curated few
 */
public record MetricsSettings(KafkaMetrics kafka) {

    /** {@code metrics.kafka}'s values. */
    public enum KafkaMetrics {
        /** No Kafka client or Streams metric (the default): quotaflow's consumer lag gauge covers what the alerts need. */
        OFF,
        /** A short allow-list of client and Streams metrics an operator reads, labelled without the process UUID. */
        CURATED;

        /** The value as written in the configuration. */
        public String configValue() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The value of {@code text} ({@code off} or {@code curated}, any case). */
        public static KafkaMetrics parse(String text) {
            String value = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
            return Arrays.stream(values()).filter(v -> v.configValue().equals(value)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("metrics.kafka must be off or curated, got '" + text + "'"));
        }
    }

    /** Kafka metrics off. */
    public static final MetricsSettings DEFAULT = new MetricsSettings(KafkaMetrics.OFF);

    public MetricsSettings {
        Objects.requireNonNull(kafka, "kafka");
    }

    /** These settings with {@code value} for {@code metrics.kafka}. */
    public MetricsSettings withKafka(KafkaMetrics value) {
        return new MetricsSettings(value);
    }
}

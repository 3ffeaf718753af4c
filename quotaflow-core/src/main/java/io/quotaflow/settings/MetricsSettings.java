package io.quotaflow.settings;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * What {@code /metrics} serves besides quotaflow's own families and the JVM's (docs/operations.md, "Metrics").
 *
 * @param kafka        the Kafka client and Streams metrics ({@code metrics.kafka}): none, or a curated few
 * @param tenantLabels whether the per-tenant families name each tenant ({@code metrics.tenant-labels}); false: one
 *                     series for all tenants
 */
public record MetricsSettings(KafkaMetrics kafka, boolean tenantLabels) {

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

    /** Kafka metrics off, no tenant names. */
    public static final MetricsSettings DEFAULT = new MetricsSettings(KafkaMetrics.OFF, false);

    public MetricsSettings {
        Objects.requireNonNull(kafka, "kafka");
    }

    /** These settings with {@code value} for {@code metrics.kafka}. */
    public MetricsSettings withKafka(KafkaMetrics value) {
        return new MetricsSettings(value, tenantLabels);
    }

    /** Kafka metrics as {@code kafka} says, no tenant names. */
    public MetricsSettings(KafkaMetrics kafka) {
        this(kafka, false);
    }

    /** These settings with {@code value} for {@code metrics.tenant-labels}. */
    public MetricsSettings withTenantLabels(boolean value) {
        return new MetricsSettings(kafka, value);
    }
}

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
public record MetricsSettings(KafkaMetrics kafka, boolean tenantLabels, Traces traces) {

    /**
     * Traces (docs/operations.md, "Traces").
     *
     * @param exporter       {@code otel.traces.exporter} from the configuration (null: the {@code OTEL_*} variables decide)
     * @param captureContent {@code otel.capture-content}: call spans carry the prompt's messages (customer data)
     */
    public record Traces(String exporter, boolean captureContent) {

        /** No exporter configured here, no content. */
        public static final Traces DEFAULT = new Traces(null, false);
    }

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
    public static final MetricsSettings DEFAULT = new MetricsSettings(KafkaMetrics.OFF, false, Traces.DEFAULT);

    public MetricsSettings {
        Objects.requireNonNull(kafka, "kafka");
        traces = traces == null ? Traces.DEFAULT : traces;
    }

    /** These settings with {@code value} for {@code metrics.kafka}. */
    public MetricsSettings withKafka(KafkaMetrics value) {
        return new MetricsSettings(value, tenantLabels, traces);
    }

    /** Kafka metrics as {@code kafka} says, tenant names as {@code tenantLabels} say, traces by default. */
    public MetricsSettings(KafkaMetrics kafka, boolean tenantLabels) {
        this(kafka, tenantLabels, Traces.DEFAULT);
    }

    /** These settings with {@code value} for the traces. */
    public MetricsSettings withTraces(Traces value) {
        return new MetricsSettings(kafka, tenantLabels, value);
    }

    /** Kafka metrics as {@code kafka} says, no tenant names. */
    public MetricsSettings(KafkaMetrics kafka) {
        this(kafka, false);
    }

    /** These settings with {@code value} for {@code metrics.tenant-labels}. */
    public MetricsSettings withTenantLabels(boolean value) {
        return new MetricsSettings(kafka, value, traces);
    }
}

package io.quotaflow.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import io.quotaflow.settings.MetricsSettings;

/**
 * What may reach {@code /metrics} from the binders: under {@code kafka.} only the curated few
 * ({@link KafkaCuratedMetrics}) and only with {@code metrics.kafka=curated} (a Kafka binder bound
 * anywhere else adds nothing: Micrometer's would add thousands of series per instance, labelled
 * with the process UUID); and the JVM binders' names that {@code promtool check metrics} refuses,
 * replaced: {@code process_cpu_time_ns_total} (an abbreviated unit; {@link ProcessMetrics} serves
 * {@code process_cpu_seconds_total}) and {@code system_cpu_count} (a {@code _count} suffix on a gauge)
 * as {@code system_cpu_processors}.
 */
final class PageMeterFilter implements MeterFilter {

    private static final String KAFKA = "kafka.";

    private final MetricsSettings.KafkaMetrics kafka;

    PageMeterFilter(MetricsSettings.KafkaMetrics kafka) {
        this.kafka = kafka;
    }

    @Override
    public MeterFilterReply accept(Meter.Id id) {
        String name = id.getName();
        if (name.startsWith(KAFKA)) {
            return kafka == MetricsSettings.KafkaMetrics.CURATED && KafkaCuratedMetrics.NAMES.contains(name)
                    ? MeterFilterReply.NEUTRAL : MeterFilterReply.DENY;
        }
        return name.equals("process.cpu.time") ? MeterFilterReply.DENY : MeterFilterReply.NEUTRAL;
    }

    @Override
    public Meter.Id map(Meter.Id id) {
        return id.getName().equals("system.cpu.count") ? id.withName("system.cpu.processors") : id;
    }
}

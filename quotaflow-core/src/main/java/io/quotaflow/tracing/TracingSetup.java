package io.quotaflow.tracing;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.quotaflow.settings.MetricsSettings;

import org.apache.kafka.common.utils.Time;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Starts the OpenTelemetry SDK the standard way (its autoconfiguration: the {@code OTEL_*} variables and
 * {@code otel.*} system properties) when traces are asked for, by {@code otel.traces.exporter} in quotaflow's
 * configuration or {@code OTEL_TRACES_EXPORTER}; otherwise {@link Tracing#NOOP}: no SDK, nothing sent. Only
 * traces: the SDK's own metrics and logs exporters are off unless their variables say otherwise.
 */
public final class TracingSetup {

    private TracingSetup() {
    }

    /** The tracing {@code traces} and the process's environment and system properties ask for. */
    public static Tracing start(MetricsSettings.Traces traces, Time time) {
        return start(traces, System::getenv, System::getProperty, time);
    }

    /** As {@link #start(MetricsSettings.Traces, Time)}, with the variables and properties read by {@code env} and {@code props}. */
    static Tracing start(MetricsSettings.Traces traces, Function<String, String> env, Function<String, String> props, Time time) {
        return start(traces, env, props, time, Map.of());
    }

    /** As above, with {@code defaults} under the standard variables and properties (a test's endpoint, queue size). */
    static Tracing start(MetricsSettings.Traces traces, Function<String, String> env, Function<String, String> props, Time time,
                         Map<String, String> extra) {
        String exporter = props.apply(io.quotaflow.settings.Keys.OTEL_TRACES_EXPORTER);
        if (blank(exporter)) {
            exporter = env.apply("OTEL_TRACES_EXPORTER");
        }
        if (blank(exporter)) {
            exporter = traces.exporter();
        }
        if (blank(exporter) || "none".equalsIgnoreCase(exporter.strip())) {
            return Tracing.NOOP;
        }
        Map<String, String> defaults = new HashMap<>(extra);
        defaults.put(io.quotaflow.settings.Keys.OTEL_TRACES_EXPORTER, exporter.strip());
        defaults.put("otel.metrics.exporter", "none");
        defaults.put("otel.logs.exporter", "none");
        defaults.put("otel.service.name", "quotaflow");
        // a Batch API job's span links to every ticket of the job (OtelTracing.MAX_JOB_LINKS), past the SDK's 128
        defaults.putIfAbsent("otel.span.link.count.limit", Integer.toString(OtelTracing.MAX_JOB_LINKS));
        SpanDrops drops = new SpanDrops(time);
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder().addPropertiesSupplier(() -> defaults)
                .addSpanExporterCustomizer((spans, config) -> drops.exporter(spans))
                .addMeterProviderCustomizer((meters, config) -> meters.registerMetricReader(drops.reader()))
                .disableShutdownHook().build().getOpenTelemetrySdk();
        return new OtelTracing(sdk, traces.captureContent(), sdk, drops);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}

package io.quotaflow.it;

import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.traces.ConfigurableSpanExporterProvider;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import java.util.Collection;
import java.util.List;

/**
 * The span exporter {@code otel.traces.exporter=quotaflow-memory} names, found by the SDK's autoconfiguration
 * (META-INF/services) as any exporter is: every span of the JVM's traced pipelines, in one
 * {@link InMemorySpanExporter} that outlives their SDKs (its own shutdown would clear it).
 */
public final class MemorySpans implements ConfigurableSpanExporterProvider {

    static final String NAME = "quotaflow-memory";

    private static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();

    /** Every span exported so far. */
    static List<SpanData> finished() {
        return SPANS.getFinishedSpanItems();
    }

    @Override
    public SpanExporter createExporter(ConfigProperties config) {
        return new SpanExporter() {
            @Override
            public CompletableResultCode export(Collection<SpanData> spans) {
                return SPANS.export(spans);
            }

            @Override
            public CompletableResultCode flush() {
                return SPANS.flush();
            }

            @Override
            public CompletableResultCode shutdown() {
                return CompletableResultCode.ofSuccess();
            }
        };
    }

    @Override
    public String getName() {
        return NAME;
    }
}

package io.quotaflow.tracing;

import io.quotaflow.settings.MetricsSettings;
import io.quotaflow.dispatch.plan.ViewBuilder;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which of {@code -Dotel.traces.exporter}, {@code OTEL_TRACES_EXPORTER} and the {@code otel.traces.exporter} key wins. */
class TracingSetupTest {

    private static final MetricsSettings.Traces KEY_OTLP = new MetricsSettings.Traces("otlp", false);

    @Test
    void shouldLetTheVariableWinOverTheKey() {
        assertThat(TracingSetup.start(KEY_OTLP, Map.of("OTEL_TRACES_EXPORTER", "none")::get, k -> null, Time.SYSTEM)).isSameAs(Tracing.NOOP);
    }

    @Test
    void shouldLetTheSystemPropertyWinOverTheVariableAndTheKey() {
        assertThat(TracingSetup.start(KEY_OTLP, Map.of("OTEL_TRACES_EXPORTER", "otlp")::get,
                Map.of("otel.traces.exporter", "none")::get, Time.SYSTEM)).isSameAs(Tracing.NOOP);
    }

    @Test
    void shouldStartTheSdkFromTheVariableWithoutTheKey() {
        Tracing tracing = TracingSetup.start(MetricsSettings.Traces.DEFAULT, Map.of("OTEL_TRACES_EXPORTER", "otlp")::get, k -> null, Time.SYSTEM);
        try {
            assertThat(tracing).isInstanceOf(OtelTracing.class);
            assertThat(((io.opentelemetry.sdk.OpenTelemetrySdk) ((OtelTracing) tracing).openTelemetry()).getSdkTracerProvider()
                    .getSpanLimits().getMaxNumberOfLinks()).as("a batch job links to all its tickets").isEqualTo(OtelTracing.MAX_JOB_LINKS);
        } finally {
            tracing.close();
        }
    }

    @Test
    void shouldStartTheSdkForBothOtlpProtocolsTheGrpcOneIncluded() {
        // the JDK HttpClient sender has no gRPC: OkHttp's sender stays, or OTEL_EXPORTER_OTLP_PROTOCOL=grpc fails the start
        for (String protocol : new String[] {"http/protobuf", "grpc"}) {
            Tracing tracing = TracingSetup.start(KEY_OTLP, k -> null, k -> null, Time.SYSTEM, Map.of("otel.exporter.otlp.protocol", protocol));
            try {
                assertThat(tracing).as(protocol).isInstanceOf(OtelTracing.class);
            } finally {
                tracing.close();
            }
        }
    }

    @Test
    void shouldCountTheSpansOfFailedExportsAndOfAFullQueueAsDroppedAndNeverWaitForTheCollector() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        Tracing tracing = TracingSetup.start(KEY_OTLP, k -> null, k -> null, Time.SYSTEM, Map.of(
                "otel.exporter.otlp.endpoint", "http://127.0.0.1:" + port, "otel.exporter.otlp.protocol", "http/protobuf",
                "otel.bsp.max.queue.size", "8", "otel.bsp.max.export.batch.size", "4", "otel.bsp.schedule.delay", "5",
                "otel.exporter.otlp.timeout", "2000"));
        try {
            assertThat(tracing).isInstanceOf(OtelTracing.class);
            assertThat(tracing.spansDropped()).isZero();
            WorkItem item = ViewBuilder.ticket("T-1", Priority.STANDARD, 10, 0);
            long started = System.nanoTime();
            for (int i = 0; i < 500; i++) {
                tracing.event(item, "retry", "transient", false, 1_000 + i);
            }
            assertThat(System.nanoTime() - started).as("spans are handed over, never waited for").isLessThan(2_000_000_000L);
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (tracing.spansDropped() < 500 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            SpanDrops drops = ((OtelTracing) tracing).drops();
            assertThat(tracing.spansDropped()).as("every span is dropped: exported to no one, or over the queue").isEqualTo(500);
            assertThat(drops.exportsFailed()).as("failed exports").isPositive();
            assertThat(drops.dropped() - drops.exportsFailed()).as("over the queue").isPositive();
        } finally {
            tracing.close();
        }
    }
}

package io.quotaflow.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.quotaflow.dispatch.plan.ViewBuilder;
import io.quotaflow.llm.ChatPrompt;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.ticket.WorkItem;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The fallback events and the wait's position (docs/operations.md, "Traces"). */
class OtelTracingTest {

    private static final ModelSettings MODEL = ModelSettings.of(URI.create("http://localhost:1/v1"), "gpt-4o-mini",
            Secret.of("sk-test-otel-tracing"));

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OtelTracing tracing = tracing(exporter);

    private static OtelTracing tracing(InMemorySpanExporter exporter) {
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
        return new OtelTracing(sdk, false, sdk);
    }

    private WorkItem ticket(String id) {
        return tracing.intake(ViewBuilder.ticket(id, Priority.STANDARD, 10, 0), 0);
    }

    private static ModelRequest request(String... ids) {
        List<ModelItem> items = java.util.Arrays.stream(ids).map(id -> new ModelItem(id, "s", "b")).toList();
        return new ModelRequest("call-1", new ChatPrompt(items, List.of(ids), List.of(), Json.MAPPER.createObjectNode(), 10, 20));
    }

    @Test
    void shouldRecordAFallbackAsAnEventOnTheTicketsTraceWithItsReasonAndRoutes() {
        WorkItem item = ticket("T-1");
        SpanData intake = exporter.getFinishedSpanItems().get(0);
        exporter.reset();

        tracing.fallback(item, "bulk", "online", "circuit_open", 500);

        assertThat(exporter.getFinishedSpanItems()).singleElement().satisfies(s -> {
            assertThat(s.getName()).isEqualTo("quotaflow fallback");
            assertThat(s.getTraceId()).isEqualTo(intake.getTraceId());
            assertThat(s.getParentSpanId()).isEqualTo(intake.getSpanId());
            assertThat(s.getEvents()).singleElement().satisfies(e -> {
                assertThat(e.getName()).isEqualTo("fallback");
                assertThat(e.getAttributes().get(AttributeKey.stringKey("quotaflow.reason"))).isEqualTo("circuit_open");
                assertThat(e.getAttributes().get(AttributeKey.stringKey("quotaflow.route.from"))).isEqualTo("bulk");
                assertThat(e.getAttributes().get(AttributeKey.stringKey("quotaflow.route.to"))).isEqualTo("online");
            });
        });
    }

    @Test
    void shouldGiveEachWaitSpanThePositionItsTicketEnteredAtAndNoneWhenItIsNotKnown() {
        WorkItem first = ticket("T-1");
        WorkItem second = ticket("T-2");
        WorkItem unknown = ticket("T-3");
        tracing.entered(first, 0);
        tracing.entered(second, 7);
        exporter.reset();

        tracing.calls(MODEL).start(request("T-1", "T-2", "T-3"), List.of(first, second, unknown)).end(null);

        List<SpanData> waits = exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals("quotaflow wait")).toList();
        AttributeKey<Long> position = AttributeKey.longKey("quotaflow.position");
        assertThat(waits).extracting(s -> s.getAttributes().get(position)).containsExactly(0L, 7L, null);
    }

    @Test
    void shouldKeepABoundedNumberOfPositions() {
        WorkItem item = ticket("T-0");
        tracing.entered(item, 3);
        for (int i = 1; i <= OtelTracing.MAX_POSITIONS; i++) {
            String parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-" + String.format("%016x", i) + "-01";
            tracing.entered(TraceHeaders.with(ViewBuilder.ticket("T-" + i, Priority.STANDARD, 10, 0), parent, null), i);
        }
        exporter.reset();
        tracing.calls(MODEL).start(request("T-0"), List.of(item)).end(null);
        assertThat(exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals("quotaflow wait")))
                .singleElement().satisfies(s -> assertThat(s.getAttributes().get(AttributeKey.longKey("quotaflow.position"))).isNull());
    }
}

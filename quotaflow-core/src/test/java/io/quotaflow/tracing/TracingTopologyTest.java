package io.quotaflow.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.records.Priority;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class TracingTopologyTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    private static String parent(int i) {
        return "00-" + TRACE.substring(0, 28) + String.format("%04x", i) + "-00f067aa0ba902b7-01";
    }

    private static OtelTracing tracing(InMemorySpanExporter exporter, boolean content) {
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
        return new OtelTracing(sdk, content, sdk);
    }

    private static void run(OtelTracing tracing, int tickets) {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), io.quotaflow.routing.ModelClients.of(client),
                io.quotaflow.dispatch.report.DispatcherListener.NONE, tracing)) {
            for (int i = 0; i < tickets; i++) {
                RecordHeaders headers = new RecordHeaders();
                headers.add("traceparent", parent(i).getBytes(StandardCharsets.US_ASCII));
                h.pipe(Priority.STANDARD, "T-" + i, Fixtures.ticket("T-" + i, "default", "my invoice is wrong " + i), headers);
            }
            h.advance(Duration.ofSeconds(2));
            List<TestRecord<String, byte[]>> results = h.classified();
            assertThat(results).hasSize(tickets);
            for (TestRecord<String, byte[]> r : results) {
                String tp = FailureHeaders.string(r.headers(), "traceparent").orElseThrow();
                String id = r.key().substring(r.key().indexOf("T-"));
                // the result continues its ticket's trace (the producer's trace id)
                assertThat(tp.substring(3, 35)).isEqualTo(parent(Integer.parseInt(id.substring(2))).substring(3, 35));
            }
        }
    }

    @Test
    void shouldParentEachTicketOnItsProducersTraceparentAndLinkTheCallToEveryTicket() {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        run(tracing(exporter, false), 3);
        List<SpanData> spans = exporter.getFinishedSpanItems();

        List<SpanData> intakes = spans.stream().filter(s -> s.getName().equals("quotaflow intake")).toList();
        assertThat(intakes).hasSize(3);
        assertThat(intakes).allSatisfy(s -> {
            assertThat(s.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
            assertThat(s.getTraceId()).startsWith(TRACE.substring(0, 28));
        });
        assertThat(spans.stream().filter(s -> s.getName().equals("quotaflow wait")).toList()).hasSize(3)
                .as("each wait knows how many tickets of its class were ahead when it entered")
                .allSatisfy(s -> assertThat(s.getAttributes().get(AttributeKey.longKey("quotaflow.position"))).isNotNull().isNotNegative());

        List<SpanData> calls = spans.stream().filter(s -> s.getKind() == SpanKind.CLIENT).toList();
        assertThat(calls).isNotEmpty();
        SpanData call = calls.get(0);
        String model = Fixtures.settings().model().model();
        assertThat(call.getName()).isEqualTo("chat " + model);
        assertThat(call.getAttributes().get(AttributeKey.stringKey("gen_ai.operation.name"))).isEqualTo("chat");
        assertThat(call.getAttributes().get(AttributeKey.stringKey("gen_ai.request.model"))).isEqualTo(model);
        assertThat(call.getAttributes().get(AttributeKey.stringKey("gen_ai.response.model"))).isEqualTo(model);
        assertThat(call.getAttributes().get(AttributeKey.stringKey("gen_ai.provider.name"))).isNotBlank();
        assertThat(call.getAttributes().get(AttributeKey.longKey("gen_ai.request.max_tokens"))).isPositive();
        assertThat(call.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens"))).isNotNull();
        assertThat(call.getAttributes().get(AttributeKey.longKey("gen_ai.usage.output_tokens"))).isNotNull();
        assertThat(call.getAttributes().get(AttributeKey.stringKey("server.address"))).isNotBlank();
        assertThat(call.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
        // one call served every ticket: linked to each one's intake span, the child of one of them
        Set<String> linked = calls.stream().flatMap(c -> c.getLinks().stream()).map(LinkData::getSpanContext)
                .map(c -> c.getSpanId()).collect(Collectors.toSet());
        assertThat(linked).containsExactlyInAnyOrderElementsOf(intakes.stream().map(SpanData::getSpanId).toList());
        assertThat(intakes.stream().map(SpanData::getSpanId)).contains(call.getParentSpanId());
    }

    @Test
    void shouldKeepPromptContentOutOfSpansByDefault() {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        run(tracing(exporter, false), 2);
        assertThat(exporter.getFinishedSpanItems()).isNotEmpty().allSatisfy(s -> {
            assertThat(s.getAttributes().get(AttributeKey.stringKey("gen_ai.input.messages"))).isNull();
            assertThat(s.getAttributes().asMap().values().stream().map(String::valueOf)).noneMatch(v -> v.contains("invoice"));
        });
    }

    @Test
    void shouldCaptureThePromptOnlyWhenAskedTo() {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        run(tracing(exporter, true), 1);
        assertThat(exporter.getFinishedSpanItems().stream().filter(s -> s.getKind() == SpanKind.CLIENT)
                .map(s -> s.getAttributes().get(AttributeKey.stringKey("gen_ai.input.messages")))).allMatch(v -> v != null && v.contains("invoice"));
    }

    @Test
    void shouldStartNoSdkWhenNoExporterIsConfigured() {
        assertThat(TracingSetup.start(io.quotaflow.settings.MetricsSettings.Traces.DEFAULT, k -> null, k -> null, org.apache.kafka.common.utils.Time.SYSTEM)).isSameAs(Tracing.NOOP);
        assertThat(TracingSetup.start(new io.quotaflow.settings.MetricsSettings.Traces("none", false), k -> null, k -> null, org.apache.kafka.common.utils.Time.SYSTEM))
                .isSameAs(Tracing.NOOP);
    }
}

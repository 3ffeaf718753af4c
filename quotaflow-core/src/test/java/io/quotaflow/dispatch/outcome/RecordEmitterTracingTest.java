package io.quotaflow.dispatch.outcome;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.quotaflow.dispatch.plan.ViewBuilder;
import io.quotaflow.failure.Backoff;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.ticket.WorkItem;
import io.quotaflow.tracing.OtelTracing;
import io.quotaflow.tracing.Tracing;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** What the records a scope writes tell the ticket's trace: a shed is its own event, apart from other dead letters. */
class RecordEmitterTracingTest {

    private static final AttributeKey<String> REASON = AttributeKey.stringKey("quotaflow.reason");

    @Test
    void shouldRecordAShedTicketAsAShedEventWithAnErrorStatusAndOtherDeadLettersAsDeadLetters() {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
        Tracing tracing = new OtelTracing(sdk, false, sdk);
        RecordEmitter emitter = new RecordEmitter("scope-1", "gpt-4o-mini", new Backoff(RetrySettings.ofDefaults(), new Random(1)), "default",
                tracing);
        WorkItem shed = tracing.intake(ViewBuilder.ticket("T-1", Priority.STANDARD, 10, 0), 0);
        WorkItem invalid = tracing.intake(ViewBuilder.ticket("T-2", Priority.STANDARD, 10, 0), 0);
        exporter.reset();

        emitter.deadLetter(shed, "shed", 0, "3 standard tickets were waiting", 100);
        emitter.deadLetter(invalid, "invalid_answer", 0, "no label", 100);

        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertThat(spans).extracting(SpanData::getName).containsExactly("quotaflow shed", "quotaflow dead-letter");
        assertThat(spans).allSatisfy(s -> assertThat(s.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR));
        assertThat(spans.get(0).getEvents()).singleElement().satisfies(e -> {
            assertThat(e.getName()).isEqualTo("shed");
            assertThat(e.getAttributes().get(REASON)).isEqualTo("shed");
        });
        assertThat(spans.get(0).getTraceId()).isNotEqualTo(spans.get(1).getTraceId());
    }
}

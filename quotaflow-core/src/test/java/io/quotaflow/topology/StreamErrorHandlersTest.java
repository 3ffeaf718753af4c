package io.quotaflow.topology;

import io.quotaflow.testkit.RecordSchemas;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Record;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StreamErrorHandlersTest {

    private final List<String> failures = new ArrayList<>();
    private final Map<String, Object> configs = new HashMap<>(Map.of(StreamErrorListener.CONFIG_KEY,
            (StreamErrorListener) (stage, topic, exception) -> failures.add(stage + "|" + topic + "|" + exception)));

    private static ErrorHandlerContext context(String topic, byte[] rawValue) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("trace-id", "t-1".getBytes(StandardCharsets.UTF_8));
        headers.add(DeadLetterHeaders.ERROR_KIND, "forged".getBytes(StandardCharsets.UTF_8));
        return new ErrorHandlerContext() {
            public String topic() { return topic; }
            public int partition() { return 3; }
            public long offset() { return 42; }
            public Headers headers() { return headers; }
            public String processorNodeId() { return "intake"; }
            public TaskId taskId() { return new TaskId(0, 3); }
            public long timestamp() { return 1; }
            public byte[] sourceRawKey() { return "T-1".getBytes(StandardCharsets.UTF_8); }
            public byte[] sourceRawValue() { return rawValue; }
        };
    }

    private static String header(ProducerRecord<byte[], byte[]> r, String key) {
        return FailureHeaders.string(r.headers(), key).orElse(null);
    }

    @Test
    void shouldDeadLetterATooLargeRecordInsteadOfFailingTheTask() {
        StreamErrorHandlers.Production handler = new StreamErrorHandlers.Production();
        handler.configure(configs);
        byte[] big = "r".repeat(2_000_000).getBytes(StandardCharsets.UTF_8);
        ProducerRecord<byte[], byte[]> failed = new ProducerRecord<>("tickets.retry", "T-1".getBytes(StandardCharsets.UTF_8), big);
        failed.headers().add("trace-id", "t-1".getBytes(StandardCharsets.UTF_8));

        ProductionExceptionHandler.Response response = handler.handleError(context("tickets.standard", null), failed,
                new RecordTooLargeException("too big"));

        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).singleElement().satisfies(r -> {
            assertThat(r.topic()).isEqualTo(Topics.DLQ.name());
            RecordSchemas.assertDeadLetterHeaders("T-1", r.headers());
            assertThat(r.value()).hasSize(64 * 1024);
            assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo(StreamErrorHandlers.INTERNAL_ERROR);
            assertThat(header(r, DeadLetterHeaders.VALUE_TRUNCATED)).isEqualTo("true");
            assertThat(header(r, DeadLetterHeaders.ORIGINAL_SIZE)).isEqualTo("2000000");
            assertThat(header(r, DeadLetterHeaders.ORIGINAL_SHA256)).isEqualTo(WorkItem.sha256(big));
            assertThat(header(r, DeadLetterHeaders.FAILED_TOPIC)).isEqualTo("tickets.retry");
            assertThat(header(r, DeadLetterHeaders.ORIGIN_TOPIC)).isEqualTo("tickets.standard");
            assertThat(header(r, DeadLetterHeaders.ORIGIN_OFFSET)).isEqualTo("42");
            assertThat(header(r, "trace-id")).isEqualTo("t-1");
        });
        assertThat(failures).containsExactly("production|tickets.retry|RecordTooLargeException");
    }

    @Test
    void shouldStillFailOnErrorsThatNoRecordCanFix() {
        StreamErrorHandlers.Production handler = new StreamErrorHandlers.Production();
        handler.configure(configs);
        ProductionExceptionHandler.Response response = handler.handleError(context("tickets.standard", null),
                new ProducerRecord<>("tickets.classified", new byte[0], new byte[0]), new TopicAuthorizationException("no"));
        assertThat(response.result()).isEqualTo(ProductionExceptionHandler.Result.FAIL);
    }

    @Test
    void shouldDeadLetterTheInputOfAProcessorThatThrewAndGoOn() {
        StreamErrorHandlers.Processing handler = new StreamErrorHandlers.Processing();
        handler.configure(configs);
        byte[] raw = "{\"id\":\"T-1\"}".getBytes(StandardCharsets.UTF_8);
        var response = handler.handleError(context("tickets.bulk", raw), new Record<>("T-1", raw, 1),
                new IllegalStateException("bug"));
        assertThat(response.result()).isEqualTo(org.apache.kafka.streams.errors.ProcessingExceptionHandler.Result.RESUME);
        assertThat(response.deadLetterQueueRecords()).singleElement().satisfies(r -> {
            assertThat(r.value()).isEqualTo(raw);
            RecordSchemas.assertDeadLetterHeaders("T-1", r.headers());
            assertThat(header(r, DeadLetterHeaders.ORIGIN_TOPIC)).isEqualTo("tickets.bulk");
            assertThat(header(r, DeadLetterHeaders.VALUE_TRUNCATED)).isNull();
            assertThat(r.headers().headers(DeadLetterHeaders.ERROR_KIND)).hasSize(1);
        });
        assertThat(failures).containsExactly("processing|tickets.bulk|IllegalStateException");
    }

    @Test
    void shouldDeadLetterAnUnreadableInternalRecordWithoutAnOriginToReplayTo() {
        StreamErrorHandlers.Deserialization handler = new StreamErrorHandlers.Deserialization();
        handler.configure(configs);
        ConsumerRecord<byte[], byte[]> corrupt = new ConsumerRecord<>("quotaflow-dispatch-repartition", 1, 9, new byte[0],
                new byte[]{1, 2, 3});
        var response = handler.handleError(context("quotaflow-dispatch-repartition", corrupt.value()), corrupt,
                new org.apache.kafka.common.errors.SerializationException("bad"));
        assertThat(response.deadLetterQueueRecords()).singleElement()
                .satisfies(r -> {
                    assertThat(header(r, DeadLetterHeaders.ORIGIN_TOPIC)).isNull();
                    RecordSchemas.assertDeadLetterHeaders("corrupt", r.headers());
                });
        assertThat(failures).singleElement().asString().startsWith("deserialization|");
    }
}

package io.quotaflow.dlq;

import io.quotaflow.records.DeadLetterHeaders;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeadLetterStatsTest {

    private static RecordHeaders headers(String kind, String status, String origin, String message, String replayCount) {
        RecordHeaders h = new RecordHeaders();
        if (kind != null) {
            h.add(DeadLetterHeaders.ERROR_KIND, kind.getBytes(StandardCharsets.UTF_8));
        }
        if (status != null) {
            h.add(DeadLetterHeaders.ERROR_STATUS, status.getBytes(StandardCharsets.UTF_8));
        }
        if (origin != null) {
            h.add(DeadLetterHeaders.ORIGIN_TOPIC, origin.getBytes(StandardCharsets.UTF_8));
        }
        if (message != null) {
            h.add(DeadLetterHeaders.ERROR_MESSAGE, message.getBytes(StandardCharsets.UTF_8));
        }
        if (replayCount != null) {
            h.add(DeadLetterHeaders.REPLAY_COUNT, replayCount.getBytes(StandardCharsets.UTF_8));
        }
        return h;
    }

    @Test
    void shouldCountByHeaderOrderedByCountAndKeepTheTimeRange() {
        DeadLetterStats.Accumulator acc = new DeadLetterStats.Accumulator();
        acc.add(3_000, headers("retries-exhausted", "503", "tickets.interactive", "HTTP 503", "0"));
        acc.add(1_000, headers("retries-exhausted", "503", "tickets.standard", "HTTP 503", "1"));
        acc.add(2_000, headers("bad-input", "0", "tickets.standard", "not JSON", "2"));
        acc.add(4_000, headers(null, null, null, null, null));
        acc.add(-1, headers("retries-exhausted", "529", "tickets.standard", "HTTP 529", "0"));

        DeadLetterReport r = acc.report("tickets.dlq");

        assertThat(r.total()).isEqualTo(5);
        assertThat(r.byKind()).containsExactly(Map.entry("retries-exhausted", 3L), Map.entry("(none)", 1L),
                Map.entry("bad-input", 1L));
        assertThat(r.byStatus()).containsExactly(Map.entry("503", 2L), Map.entry("(none)", 1L), Map.entry("0", 1L),
                Map.entry("529", 1L));
        assertThat(r.byOriginTopic()).containsExactly(Map.entry("tickets.standard", 3L), Map.entry("(none)", 1L),
                Map.entry("tickets.interactive", 1L));
        assertThat(r.oldest()).isEqualTo(Instant.ofEpochMilli(1_000));
        assertThat(r.newest()).isEqualTo(Instant.ofEpochMilli(4_000));
        assertThat(r.replayed()).isEqualTo(2);
        assertThat(r.byReplayCount()).containsExactly(Map.entry("0", 3L), Map.entry("1", 1L), Map.entry("2", 1L));
        assertThat(r.topMessages()).containsExactly(new DeadLetterReport.MessageCount("HTTP 503", 2),
                new DeadLetterReport.MessageCount("(none)", 1), new DeadLetterReport.MessageCount("HTTP 529", 1),
                new DeadLetterReport.MessageCount("not JSON", 1));
        assertThat(r.messagesTruncated()).isFalse();
        assertThat(r.toJson().toString()).contains("\"oldest\":\"1970-01-01T00:00:01Z\"", "\"total\":5",
                "\"byKind\":{\"retries-exhausted\":3,\"(none)\":1,\"bad-input\":1}");
    }

    @Test
    void shouldListTheTenMostFrequentMessagesAndBoundTheDistinctOnes() {
        DeadLetterStats.Accumulator acc = new DeadLetterStats.Accumulator();
        for (int i = 0; i < 15; i++) {
            for (int n = 0; n <= i; n++) {
                acc.add(0, headers("k", "500", "o", "message " + i, "0"));
            }
        }
        DeadLetterReport top = acc.report("t");
        assertThat(top.topMessages()).hasSize(10);
        assertThat(top.topMessages().get(0)).isEqualTo(new DeadLetterReport.MessageCount("message 14", 15));
        assertThat(top.topMessages().get(9)).isEqualTo(new DeadLetterReport.MessageCount("message 5", 6));

        DeadLetterStats.Accumulator many = new DeadLetterStats.Accumulator();
        for (int i = 0; i < DeadLetterStats.MAX_DISTINCT_MESSAGES + 5; i++) {
            many.add(0, headers("k", "500", "o", "ticket " + i + " failed", "0"));
        }
        many.add(0, headers("k", "500", "o", "ticket 0 failed", "0"));
        DeadLetterReport bounded = many.report("t");
        assertThat(bounded.messagesTruncated()).isTrue();
        assertThat(bounded.total()).isEqualTo(DeadLetterStats.MAX_DISTINCT_MESSAGES + 6);
        assertThat(bounded.topMessages().get(0)).isEqualTo(new DeadLetterReport.MessageCount("ticket 0 failed", 2));
    }

    @Test
    void shouldReportAnEmptyTopicWithoutTimestamps() {
        DeadLetterReport r = new DeadLetterStats.Accumulator().report("tickets.dlq");
        assertThat(r.total()).isZero();
        assertThat(r.oldest()).isNull();
        assertThat(r.newest()).isNull();
        assertThat(r.topMessages()).isEmpty();
        assertThat(r.toJson().get("oldest").isNull()).isTrue();
    }

    @Test
    void shouldScanFromTheBeginningToTheEndCapturedAtStartWithoutAGroup() {
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
        Node node = new Node(0, "localhost", 9092);
        TopicPartition p0 = new TopicPartition("tickets.dlq", 0);
        TopicPartition p1 = new TopicPartition("tickets.dlq", 1);
        consumer.updatePartitions("tickets.dlq", List.of(new PartitionInfo("tickets.dlq", 0, node, null, null),
                new PartitionInfo("tickets.dlq", 1, node, null, null)));
        consumer.updateBeginningOffsets(Map.of(p0, 0L, p1, 0L));
        consumer.updateEndOffsets(Map.of(p0, 2L, p1, 0L));
        consumer.schedulePollTask(() -> {
            for (int i = 0; i < 3; i++) { // offset 2 arrived after the start: not counted
                consumer.addRecord(new ConsumerRecord<>("tickets.dlq", 0, i, 1_000L * i, TimestampType.CREATE_TIME, 0, 0,
                        null, new byte[0], headers("bad-input", "0", "tickets.bulk", "m", null), Optional.empty()));
            }
        });

        DeadLetterReport r;
        try (DeadLetterStats stats = new DeadLetterStats(consumer, "tickets.dlq", Duration.ofSeconds(5))) {
            r = stats.read();
        }
        assertThat(r.total()).isEqualTo(2);
        assertThat(r.newest()).isEqualTo(Instant.ofEpochMilli(1_000));
        assertThat(consumer.closed()).isTrue();

        MockConsumer<byte[], byte[]> missing = new MockConsumer<>("earliest");
        try (DeadLetterStats stats = new DeadLetterStats(missing, "tickets.dlq", Duration.ofSeconds(5))) {
            assertThatThrownBy(stats::read).isInstanceOf(DeadLetterException.class).hasMessageContaining("does not exist");
        }
    }
}

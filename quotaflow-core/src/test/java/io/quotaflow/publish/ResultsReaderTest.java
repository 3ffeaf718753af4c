package io.quotaflow.publish;

import io.quotaflow.publish.ResultsReader.ReadResult;
import io.quotaflow.publish.ResultsReader.StopReason;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ResultsReaderTest {

    private static final String TOPIC = ResultsReader.DEFAULT_TOPIC;
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);
    private static final Duration SHORT_IDLE = Duration.ofMillis(300);

    private final MockConsumer<String, String> consumer = new MockConsumer<>("latest");

    private void topicWithTwoPartitions() {
        Node node = new Node(0, "localhost", 9092);
        consumer.updatePartitions(TOPIC, List.of(
                new PartitionInfo(TOPIC, 1, node, new Node[]{node}, new Node[]{node}),
                new PartitionInfo(TOPIC, 0, node, new Node[]{node}, new Node[]{node})));
        consumer.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
    }

    private void addRecord(TopicPartition tp, long offset, String key, String value) {
        consumer.addRecord(new ConsumerRecord<>(tp.topic(), tp.partition(), offset, key, value));
    }

    private static String result(String id) {
        return "{\"id\":\"" + id + "\",\"category\":\"billing\",\"urgency\":\"low\"}";
    }

    @Test
    void shouldReadAllFromBeginningOfEveryPartition() {
        topicWithTwoPartitions();
        consumer.updateEndOffsets(Map.of(P0, 2L, P1, 1L));
        consumer.schedulePollTask(() -> {
            addRecord(P0, 0, "T-1", result("T-1"));
            addRecord(P0, 1, "T-2", result("T-2"));
            addRecord(P1, 0, "T-3", result("T-3"));
        });

        List<String> values;
        try (ResultsReader reader = new ResultsReader(consumer, TOPIC)) {
            values = reader.readAll(SHORT_IDLE, 100);
        }

        assertThat(values).containsExactlyInAnyOrder(result("T-1"), result("T-2"), result("T-3"));
        assertThat(values.indexOf(result("T-1"))).isLessThan(values.indexOf(result("T-2")));
        assertThat(consumer.assignment()).containsExactlyInAnyOrder(P0, P1);
        assertThat(consumer.subscription()).as("assign(), never subscribe()").isEmpty();
    }

    @Test
    void shouldStopAfterMaxRecords() {
        topicWithTwoPartitions();
        consumer.schedulePollTask(() -> {
            for (int i = 0; i < 5; i++) {
                addRecord(P0, i, "T-" + i, result("T-" + i));
            }
        });
        List<String> seen = new ArrayList<>();

        ReadResult result = new ResultsReader(consumer, TOPIC).read(true, Optional.of(SHORT_IDLE), 3, seen::add);

        assertThat(result).isEqualTo(new ReadResult(3, StopReason.MAX_RECORDS));
        assertThat(seen).containsExactly(result("T-0"), result("T-1"), result("T-2"));
    }

    @Test
    void shouldStartAtTheEndWithoutFromBeginning() {
        topicWithTwoPartitions();
        consumer.updateEndOffsets(Map.of(P0, 2L, P1, 0L));
        consumer.schedulePollTask(() -> {
            addRecord(P0, 0, "old-1", result("old-1"));
            addRecord(P0, 1, "old-2", result("old-2"));
            addRecord(P0, 2, "T-new", result("T-new"));
        });
        List<String> seen = new ArrayList<>();

        ReadResult result = new ResultsReader(consumer, TOPIC).read(false, Optional.of(SHORT_IDLE), Long.MAX_VALUE,
                seen::add);

        assertThat(seen).containsExactly(result("T-new"));
        assertThat(result.reason()).isEqualTo(StopReason.IDLE_TIMEOUT);
    }

    @Test
    void shouldPrintValuesExactlyAndSkipNullValues() {
        topicWithTwoPartitions();
        String odd = "{ \"id\" : \"T-1\",\t\"note\":\"não\" }";
        consumer.schedulePollTask(() -> {
            addRecord(P0, 0, "T-1", odd);
            addRecord(P0, 1, "T-2", null);
        });

        List<String> values = new ResultsReader(consumer, TOPIC).readAll(SHORT_IDLE, 10);

        assertThat(values).containsExactly(odd);
    }

    @Test
    void shouldGiveUpWhenTopicDoesNotAppearWithinIdleTimeout() {
        ReadResult result = new ResultsReader(consumer, TOPIC).read(true, Optional.of(SHORT_IDLE), 10, v -> { });

        assertThat(result).isEqualTo(new ReadResult(0, StopReason.TOPIC_NOT_FOUND));
        assertThat(new ResultsReader(consumer, TOPIC).readAll(SHORT_IDLE, 10)).isEmpty();
    }

    @Test
    void shouldReturnWhenWokenUp() {
        topicWithTwoPartitions();
        ResultsReader reader = new ResultsReader(consumer, TOPIC);
        consumer.schedulePollTask(() -> addRecord(P0, 0, "T-1", result("T-1")));
        consumer.schedulePollTask(reader::wakeup);
        List<String> seen = new ArrayList<>();

        ReadResult result = reader.read(true, Optional.empty(), Long.MAX_VALUE, seen::add);

        assertThat(result).isEqualTo(new ReadResult(1, StopReason.WOKEN_UP));
        assertThat(seen).containsExactly(result("T-1"));
    }

    @Test
    void shouldConfigureReadCommittedWithoutCommits() {
        Map<String, Object> config = ResultsReader.consumerConfig("broker:9092",
                Map.of("security.protocol", "SSL", "value.deserializer", "x.Y"));

        assertThat(config).containsEntry("isolation.level", "read_committed")
                .containsEntry("enable.auto.commit", false)
                .containsEntry("allow.auto.create.topics", false)
                .containsEntry("bootstrap.servers", "broker:9092")
                .containsEntry("security.protocol", "SSL")
                .doesNotContainKeys("group.id", "value.deserializer");
    }

    @Test
    void shouldStopAtTheEndOffsetsSeenAtTheStartUntilEndWhileTheTopicKeepsGrowing() {
        topicWithTwoPartitions();
        consumer.updateEndOffsets(Map.of(P0, 2L, P1, 1L));
        consumer.schedulePollTask(() -> {
            addRecord(P0, 0, "T-1", result("T-1"));
            addRecord(P1, 0, "T-2", result("T-2"));
        });
        consumer.schedulePollTask(() -> {
            addRecord(P0, 1, "T-3", result("T-3"));
            // written after the start: the end moves on, the read does not follow it
            consumer.updateEndOffsets(Map.of(P0, 10L, P1, 10L));
            addRecord(P0, 2, "T-4", result("T-4"));
        });
        for (int i = 0; i < 20; i++) {
            int n = i;
            consumer.schedulePollTask(() -> addRecord(P1, 1 + n, "L-" + n, result("L-" + n)));
        }
        List<String> seen = new ArrayList<>();

        ReadResult result = new ResultsReader(consumer, TOPIC).read(true, true, Optional.empty(), Long.MAX_VALUE, seen::add, () -> { });

        assertThat(result.reason()).isEqualTo(StopReason.END_REACHED);
        assertThat(seen).contains(result("T-1"), result("T-2"), result("T-3"));
        assertThat(seen).as("stops within the records past the start's end: never follows them all").hasSizeLessThan(10);
    }

    @Test
    void shouldReportAMissingTopicUntilEndInsteadOfWaitingForItForever() {
        java.util.concurrent.atomic.AtomicInteger lookups = new java.util.concurrent.atomic.AtomicInteger();
        MockConsumer<String, String> missing = new MockConsumer<>("latest") {
            @Override
            public synchronized List<PartitionInfo> partitionsFor(String topic, Duration timeout) {
                if (lookups.incrementAndGet() > 3) {
                    throw new IllegalStateException("still waiting for " + topic + " after " + (lookups.get() - 1) + " lookups");
                }
                return List.of();
            }
        };

        ReadResult result = new ResultsReader(missing, TOPIC).read(true, true, Optional.empty(), Long.MAX_VALUE, v -> { }, () -> { });

        assertThat(result).isEqualTo(new ReadResult(0, StopReason.TOPIC_NOT_FOUND));
        assertThat(lookups).as("one metadata lookup, no wait: the topic has no end to read to").hasValue(1);
    }

    @Test
    void shouldEndAtOnceUntilEndOnAnEmptyTopic() {
        topicWithTwoPartitions();
        consumer.updateEndOffsets(Map.of(P0, 0L, P1, 0L));

        ReadResult result = new ResultsReader(consumer, TOPIC).read(true, true, Optional.empty(), Long.MAX_VALUE, v -> { }, () -> { });

        assertThat(result).isEqualTo(new ReadResult(0, StopReason.END_REACHED));
    }
}

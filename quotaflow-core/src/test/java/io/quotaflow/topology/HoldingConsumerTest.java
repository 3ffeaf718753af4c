package io.quotaflow.topology;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class HoldingConsumerTest {

    private static final TopicPartition DISPATCH = new TopicPartition("app-dispatch-repartition", 0);
    private static final TopicPartition BULK = new TopicPartition("tickets.bulk", 0);
    private static final TopicPartition INTERACTIVE = new TopicPartition("tickets.interactive", 0);
    private static final IntakeHold HOLD = new IntakeHold(Set.of(DISPATCH.topic()), Set.of(INTERACTIVE.topic()), 500);

    private final MockConsumer<byte[], byte[]> mock = new MockConsumer<>("earliest");
    private final AtomicInteger holds = new AtomicInteger();
    private final Consumer<byte[], byte[]> consumer = HoldingConsumer.wrap(mock, HOLD, holds::incrementAndGet);

    @BeforeEach
    void assign() {
        mock.assign(List.of(DISPATCH, BULK, INTERACTIVE));
        Map<TopicPartition, Long> zero = new HashMap<>(Map.of(DISPATCH, 0L, BULK, 0L, INTERACTIVE, 0L));
        mock.updateBeginningOffsets(zero);
        zero.keySet().forEach(tp -> mock.seek(tp, 0));
    }

    private void dispatchLag(long records) {
        mock.updateEndOffsets(Map.of(DISPATCH, mock.position(DISPATCH) + records));
    }

    private void ticket(TopicPartition tp, long offset) {
        mock.addRecord(new ConsumerRecord<>(tp.topic(), tp.partition(), offset, null, new byte[] {1}));
    }

    private List<String> polledTopics() {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ZERO);
        List<String> topics = new ArrayList<>();
        records.forEach(r -> topics.add(r.topic()));
        return topics;
    }

    @Test
    void shouldHoldTheBulkInputWhileTheDispatchPartitionLagsAndReadItOnceItCaughtUp() {
        dispatchLag(2_000);
        ticket(BULK, 0);
        ticket(INTERACTIVE, 0);

        assertEquals(List.of(INTERACTIVE.topic()), polledTopics(), "the interactive input is never held");
        assertEquals(Set.of(BULK), mock.paused());
        assertEquals(Set.of(), consumer.paused(), "Kafka Streams sees only its own pauses");
        polledTopics();
        assertEquals(1, holds.get(), "one hold, however many polls it lasts");

        dispatchLag(500);
        assertEquals(List.of(BULK.topic()), polledTopics());
        assertEquals(Set.of(), mock.paused());
        dispatchLag(501);
        polledTopics();
        assertEquals(2, holds.get());
    }

    @Test
    void shouldKeepAPartitionKafkaStreamsPausedPausedWhenTheHoldLetsGo() {
        dispatchLag(2_000);
        consumer.poll(Duration.ZERO);
        consumer.pause(List.of(BULK));
        assertEquals(Set.of(BULK), consumer.paused());

        dispatchLag(0);
        ticket(BULK, 0);
        assertEquals(List.of(), polledTopics());
        assertEquals(Set.of(BULK), mock.paused());

        consumer.resume(List.of(BULK));
        assertEquals(List.of(BULK.topic()), polledTopics());
    }

    @Test
    void shouldKeepAHeldPartitionPausedWhenKafkaStreamsResumesIt() {
        consumer.pause(List.of(BULK));
        dispatchLag(2_000);
        consumer.poll(Duration.ZERO);

        consumer.resume(List.of(BULK));
        assertEquals(Set.of(), consumer.paused());
        assertEquals(Set.of(BULK), mock.paused(), "still held");

        dispatchLag(0);
        ticket(BULK, 0);
        assertEquals(List.of(BULK.topic()), polledTopics());
    }

    @Test
    void shouldNotHoldBehindADispatchPartitionKafkaStreamsPaused() {
        consumer.pause(List.of(DISPATCH));
        dispatchLag(2_000);
        ticket(BULK, 0);

        assertEquals(List.of(BULK.topic()), polledTopics());
    }

    @Test
    void shouldForgetARevokedPartition() {
        dispatchLag(2_000);
        consumer.poll(Duration.ZERO);
        assertEquals(Set.of(BULK), mock.paused());

        consumer.assign(List.of(INTERACTIVE));
        consumer.poll(Duration.ZERO);
        consumer.assign(List.of(DISPATCH, BULK, INTERACTIVE));
        mock.seek(DISPATCH, 2_000);
        mock.seek(BULK, 0);
        ticket(BULK, 0);

        assertEquals(List.of(BULK.topic()), polledTopics());
    }

    @Test
    void shouldPauseAgainAHeldPartitionWhosePauseARebalanceDropped() {
        dispatchLag(2_000);
        consumer.poll(Duration.ZERO);
        mock.resume(List.of(BULK)); // as a rebalance that revoked and assigned it again would
        ticket(BULK, 0);

        assertEquals(List.of(), polledTopics(), "still held");
        assertEquals(Set.of(BULK), mock.paused());
    }

    @Test
    void shouldBeTheConsumerItselfWhenTheHoldIsOff() {
        assertSame(mock, HoldingConsumer.wrap(mock, new IntakeHold(Set.of(DISPATCH.topic()), Set.of(), 0), holds::incrementAndGet));
    }
}

package io.quotaflow.publish;

import io.quotaflow.settings.TopicNames;
import io.quotaflow.records.Priority;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TicketCancellerTest {

    private final MockProducer<String, byte[]> producer =
            new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());

    private List<CancelOutcome> cancel(TopicNames topics, List<String> ids, List<Priority> priorities) {
        try (TicketCanceller canceller = new TicketCanceller(producer, topics)) {
            return canceller.cancel(ids, priorities);
        }
    }

    @Test
    void shouldWriteANullValuedRecordKeyedByIdToEveryPriorityTopicAskedFor() {
        List<CancelOutcome> outcomes = cancel(TopicNames.DEFAULT, List.of("T-1", "T-2"), List.of(Priority.values()));

        assertThat(producer.history()).extracting(ProducerRecord::topic, ProducerRecord::key).containsExactly(
                org.assertj.core.groups.Tuple.tuple("tickets.interactive", "T-1"),
                org.assertj.core.groups.Tuple.tuple("tickets.standard", "T-1"),
                org.assertj.core.groups.Tuple.tuple("tickets.bulk", "T-1"),
                org.assertj.core.groups.Tuple.tuple("tickets.interactive", "T-2"),
                org.assertj.core.groups.Tuple.tuple("tickets.standard", "T-2"),
                org.assertj.core.groups.Tuple.tuple("tickets.bulk", "T-2"));
        assertThat(producer.history()).allSatisfy(r -> assertThat(r.value()).isNull());
        assertThat(producer.flushed()).isTrue();
        assertThat(outcomes).hasSize(2).allMatch(o -> o instanceof CancelOutcome.Written);
        assertThat(((CancelOutcome.Written) outcomes.get(1)).describe())
                .isEqualTo("tombstone T-2 tickets.interactive-0@1 tickets.standard-0@1 tickets.bulk-0@1");
    }

    @Test
    void shouldWriteToTheOnePriorityTopicUnderThePrefixAndEachIdOnce() {
        List<CancelOutcome> outcomes = cancel(new TopicNames("team-a."), List.of("T-1", "T-1", "7"),
                List.of(Priority.BULK));

        assertThat(producer.history()).extracting(ProducerRecord::topic).containsOnly("team-a.tickets.bulk");
        assertThat(producer.history()).extracting(ProducerRecord::key).containsExactly("T-1", "7");
        assertThat(outcomes).extracting(CancelOutcome::id).containsExactly("T-1", "7");
        assertThat(outcomes.get(1).written()).containsExactly(new Accepted("7", "team-a.tickets.bulk", 0, 1));
    }

    @Test
    void shouldReportAnIdWhoseTombstoneWasNotAcknowledgedAsFailedWithTheOthersItGot() {
        MockProducer<String, byte[]> failing = new MockProducer<>(true, null, new StringSerializer(),
                new ByteArraySerializer()) {
            @Override
            public synchronized Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, Callback callback) {
                if ("T-2".equals(record.key()) && record.topic().equals("tickets.standard")) {
                    return CompletableFuture.failedFuture(new TimeoutException("no answer"));
                }
                return super.send(record, callback);
            }
        };
        List<CancelOutcome> outcomes;
        try (TicketCanceller canceller = new TicketCanceller(failing, TopicNames.DEFAULT)) {
            outcomes = canceller.cancel(List.of("T-1", "T-2"), List.of(Priority.values()));
        }

        assertThat(outcomes.get(0)).isInstanceOf(CancelOutcome.Written.class);
        CancelOutcome.Failed failed = (CancelOutcome.Failed) outcomes.get(1);
        assertThat(failed.topic()).isEqualTo("tickets.standard");
        assertThat(failed.written()).extracting(Accepted::topic).containsExactly("tickets.interactive", "tickets.bulk");
        assertThat(failed.describe())
                .isEqualTo("T-2: tombstone to tickets.standard not acknowledged: TimeoutException: no answer");
    }

    @Test
    void shouldRefuseABlankIdAndNoTopic() {
        assertThatThrownBy(() -> cancel(TopicNames.DEFAULT, List.of(" "), List.of(Priority.BULK)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> cancel(TopicNames.DEFAULT, List.of("T-1"), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(producer.history()).isEmpty();
    }

    @Test
    void shouldUseAnIdempotentProducerWithItsOwnClientId() {
        assertThat(TicketCanceller.producerConfig("b:9092", java.util.Map.of("acks", "all", "client.id", "mine")))
                .containsEntry("enable.idempotence", true)
                .containsEntry("bootstrap.servers", "b:9092")
                .containsEntry("client.id", "mine");
        assertThat(TicketCanceller.producerConfig("b:9092", java.util.Map.of()))
                .containsEntry("client.id", "quotaflow-cancel").containsEntry("acks", "all");
    }
}

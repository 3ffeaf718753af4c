package io.quotaflow.dlq;

import io.quotaflow.records.DeadLetterHeaders;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A dead letter goes back to its own deployment's topics ({@code topics.prefix}), never another's. */
class PrefixedReplayTargetTest {

    private static ConsumerRecord<byte[], byte[]> deadLetter(String dlqTopic, String origin) {
        RecordHeaders headers = new RecordHeaders();
        if (origin != null) {
            headers.add(DeadLetterHeaders.ORIGIN_TOPIC, origin.getBytes(StandardCharsets.UTF_8));
        }
        return new ConsumerRecord<>(dlqTopic, 0, 7, 0L, TimestampType.CREATE_TIME, 0, 0,
                "T-1".getBytes(StandardCharsets.UTF_8), "{}".getBytes(StandardCharsets.UTF_8), headers, Optional.empty());
    }

    @Test
    void shouldReplayToTheOriginUnderTheSamePrefix() {
        assertThat(ReplayRecords.replayRecord(deadLetter("team-a.tickets.dlq", "team-a.tickets.bulk")).topic())
                .isEqualTo("team-a.tickets.bulk");
        assertThat(ReplayRecords.replayRecord(deadLetter("tickets.dlq", "tickets.bulk")).topic())
                .isEqualTo("tickets.bulk");
    }

    @Test
    void shouldFallBackToItsOwnStandardTopicForAnotherDeploymentsOrigin() {
        assertThat(ReplayRecords.replayRecord(deadLetter("team-a.tickets.dlq", "team-b.tickets.bulk")).topic())
                .isEqualTo("team-a.tickets.standard");
        assertThat(ReplayRecords.replayRecord(deadLetter("team-a.tickets.dlq", null)).topic())
                .isEqualTo("team-a.tickets.standard");
        assertThat(ReplayRecords.replayRecord(deadLetter("tickets.dlq", "team-a.tickets.bulk")).topic())
                .isEqualTo("tickets.standard");
    }
}

package io.quotaflow.topology;

import io.quotaflow.dispatch.ledger.DispatchTopics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DispatchLanesTest {

    private final DispatchLanes.Timestamps timestamps = new DispatchLanes.Timestamps();

    private static ConsumerRecord<Object, Object> record(String topic, long timestamp) {
        return new ConsumerRecord<>(topic, 0, 0, timestamp, org.apache.kafka.common.record.TimestampType.CREATE_TIME, 0, 0, "k", "v",
                new org.apache.kafka.common.header.internals.RecordHeaders(), java.util.Optional.empty());
    }

    @Test
    void shouldDateInteractiveTicketsAnHourEarlierOnTheirLaneOnly() {
        long t = 1_800_000_000_000L;
        assertThat(timestamps.extract(record(DispatchTopics.interactiveTopic("qf"), t), -1)).isEqualTo(t - 3_600_000L);
        assertThat(timestamps.extract(record(DispatchTopics.dispatchTopic("qf"), t), -1)).isEqualTo(t);
        assertThat(timestamps.extract(record("tickets.standard", t), -1)).isEqualTo(t);
        // another deployment's lookalike name is a lane too only when it ends like one
        assertThat(timestamps.extract(record("qf-dispatch-interactive-repartition-copy", t), -1)).isEqualTo(t);
    }

    @Test
    void shouldDateTheInteractiveInputTopicEarlierWhateverItsPrefixAndIntakeTakeTheLeadBack() {
        long t = 1_800_000_000_000L;
        for (String topic : new String[] {"tickets.interactive", "eu.tickets.interactive"}) {
            long lane = timestamps.extract(record(topic, t), -1);
            assertThat(lane).isEqualTo(t - 3_600_000L);
            assertThat(DispatchLanes.publishedTime(topic, lane)).isEqualTo(t);
        }
        assertThat(DispatchLanes.publishedTime("tickets.standard", t)).isEqualTo(t);
    }

    @Test
    void shouldLeaveTimestampsNearTheEpochAsTheyAreAndRefuseAnInvalidOneAsKafkaStreamsDoes() {
        // within the first hour after the epoch (tests' clocks); the second hour is the one ambiguous span
        for (long t : new long[] {0L, 1_000L, 3_599_999L}) {
            assertThat(timestamps.extract(record(DispatchTopics.interactiveTopic("qf"), t), -1)).isEqualTo(t);
            assertThat(DispatchLanes.publishedTime("tickets.interactive", timestamps.extract(record("tickets.interactive", t), -1)))
                    .isEqualTo(t);
        }
        assertThat(DispatchLanes.publishedTime("tickets.interactive", timestamps.extract(record("tickets.interactive", 7_200_000L), -1)))
                .isEqualTo(7_200_000L);
        assertThatThrownBy(() -> timestamps.extract(record("tickets.bulk", -1L), -1)).isInstanceOf(StreamsException.class);
    }
}

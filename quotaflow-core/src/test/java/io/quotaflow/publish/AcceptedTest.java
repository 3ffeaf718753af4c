package io.quotaflow.publish;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AcceptedTest {

    @Test
    void shouldDescribeItselfAsIdAndTopicPartitionAtOffset() {
        assertThat(new Accepted("T-123", "tickets.standard", 2, 17).describe())
                .isEqualTo("accepted T-123 tickets.standard-2@17");
    }

    @Test
    void shouldWriteOneJsonLineWithIdTopicPartitionAndOffset() throws Exception {
        String json = new Accepted("T-\"9\"", "team-a.tickets.bulk", 1, 40_000_000_000L).toJson();

        assertThat(json).doesNotContain("\n");
        JsonNode node = new ObjectMapper().readTree(json);
        assertThat(node.get("id").asText()).isEqualTo("T-\"9\"");
        assertThat(node.get("key").asText()).isEqualTo("T-\"9\"");
        assertThat(node.get("tenant").asText()).isEqualTo("default");
        assertThat(node.get("topic").asText()).isEqualTo("team-a.tickets.bulk");
        assertThat(node.get("partition").asInt()).isEqualTo(1);
        assertThat(node.get("offset").asLong()).isEqualTo(40_000_000_000L);
        assertThat(node.size()).isEqualTo(6);
        JsonNode tenant = new ObjectMapper().readTree(new Accepted("acme:T-9", "tickets.bulk", 0, 1).toJson());
        assertThat(tenant.get("key").asText()).isEqualTo("acme:T-9");
        assertThat(tenant.get("id").asText()).isEqualTo("T-9");
        assertThat(tenant.get("tenant").asText()).isEqualTo("acme");
    }

    @Test
    void shouldSayWhenTheOffsetIsUnknown() throws Exception {
        RecordMetadata noOffset = new RecordMetadata(new TopicPartition("tickets.bulk", 3), -1, 0, -1, 0, 0);
        Accepted accepted = Accepted.of("T-1", noOffset);

        assertThat(accepted.offset()).isEqualTo(Accepted.UNKNOWN_OFFSET);
        assertThat(accepted.describe()).isEqualTo("accepted T-1 tickets.bulk-3@?");
        assertThat(new ObjectMapper().readTree(accepted.toJson()).get("offset").isNull()).isTrue();
    }

    @Test
    void shouldTakeTopicPartitionAndOffsetFromTheBrokersAnswer() {
        RecordMetadata metadata = new RecordMetadata(new TopicPartition("tickets.interactive", 5), 12, 0, 0, 3, 4);

        assertThat(Accepted.of("T-7", metadata)).isEqualTo(new Accepted("T-7", "tickets.interactive", 5, 12));
    }

    @Test
    void shouldRefuseANegativePartition() {
        assertThatThrownBy(() -> new Accepted("T-1", "tickets.bulk", -1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

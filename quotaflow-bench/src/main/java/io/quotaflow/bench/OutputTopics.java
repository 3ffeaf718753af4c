package io.quotaflow.bench;

import io.quotaflow.admin.KafkaClients;
import io.quotaflow.records.Json;
import io.quotaflow.topology.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reading the pipeline's output topics ({@code tickets.classified}, {@code tickets.dlq}) as a chaos run does: read_committed. */
final class OutputTopics {

    private OutputTopics() {
    }

    /** A read_committed consumer that never commits. */
    static KafkaConsumer<String, byte[]> consumer(String bootstrap, String clientId) {
        Map<String, Object> p = KafkaClients.properties(Map.of(ConsumerConfig.CLIENT_ID_CONFIG, clientId), bootstrap, Map.of());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /** Every partition of the two output topics. */
    static List<TopicPartition> partitions(KafkaConsumer<String, byte[]> consumer) {
        List<TopicPartition> out = new ArrayList<>();
        for (String topic : List.of(Topics.CLASSIFIED.name(), Topics.DLQ.name())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
            infos.forEach(pi -> out.add(new TopicPartition(topic, pi.partition())));
        }
        return out;
    }

    /** The {@code classifiedAt} of a result, in epoch milliseconds; null when it has none. */
    static Long classifiedAtMs(byte[] result) {
        try {
            String text = Json.MAPPER.readTree(result).path("classifiedAt").asText(null);
            return text == null ? null : Instant.parse(text).toEpochMilli();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}

package io.quotaflow.dlq;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Client configuration and topic lookups shared by the dead-letter tools. */
final class DlqClients {

    /** Bound on metadata lookups (the topic's partitions). */
    static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);

    private DlqClients() {
    }

    /**
     * A {@code read_committed} consumer configuration without auto-commit. The settings quotaflow
     * relies on win over the pass-through properties; the group id is set only when given.
     */
    static Map<String, Object> consumerConfig(String bootstrapServers, Map<String, ?> clientProperties, String clientId,
                                              String groupId, int maxPollRecords) {
        Map<String, Object> config = io.quotaflow.admin.KafkaClients.properties(Map.of(
                ConsumerConfig.CLIENT_ID_CONFIG, clientId,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords), bootstrapServers, clientProperties);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        if (groupId != null) {
            config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        } else {
            config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        }
        return config;
    }

    /** A transactional, idempotent producer configuration; the transactional id wins over pass-through properties. */
    static Map<String, Object> producerConfig(String bootstrapServers, Map<String, ?> clientProperties, String clientId,
                                              String transactionalId) {
        Map<String, Object> config = io.quotaflow.admin.KafkaClients.properties(Map.of(
                ProducerConfig.CLIENT_ID_CONFIG, clientId,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 5), bootstrapServers, clientProperties);
        // consumer-only pass-through settings would only draw "unknown config" warnings
        config.remove(ConsumerConfig.ISOLATION_LEVEL_CONFIG);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        // a truncated dead letter replays its whole original, which may be far over 1 MiB uncompressed:
        // the broker still checks the (compressed) batch against the topic's max.message.bytes
        config.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        config.putIfAbsent(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 64 * 1024 * 1024);
        config.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        return config;
    }

    /**
     * The partitions of {@code topic}, in partition order.
     *
     * @throws DeadLetterException when the topic does not exist
     */
    static List<TopicPartition> partitions(Consumer<?, ?> consumer, String topic) {
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic, METADATA_TIMEOUT);
        } catch (TimeoutException e) {
            throw new DeadLetterException("no answer from the cluster about topic " + topic + " within "
                    + METADATA_TIMEOUT.toSeconds() + " s: " + e.getMessage(), e);
        }
        if (infos == null || infos.isEmpty()) {
            throw new DeadLetterException("topic " + topic + " does not exist (run `quotaflow topics apply`)");
        }
        return infos.stream().map(p -> new TopicPartition(p.topic(), p.partition()))
                .sorted(Comparator.comparingInt(TopicPartition::partition)).toList();
    }
}

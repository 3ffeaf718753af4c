package io.quotaflow.it;

import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.OutcomeCounter;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.records.DeadLetterHeaders;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link OutcomeCounter} for the topics under one {@code topics.prefix}: what reached
 * {@code <prefix>tickets.classified} and {@code <prefix>tickets.dlq} as a {@code read_committed}
 * consumer sees it. The integration tests share one broker, each class under a prefix of its own,
 * and count only their own outcomes. Same counting as {@link OutcomeCounter}, which reads the
 * unprefixed topics only.
 */
final class PrefixedOutcomeCounter implements AutoCloseable {

    private final KafkaConsumer<String, byte[]> consumer;
    private final String classifiedTopic;
    private final Map<String, Integer> classified = new ConcurrentHashMap<>();
    private final Map<String, String> deadLettered = new ConcurrentHashMap<>();
    private final Map<String, byte[]> results = new ConcurrentHashMap<>();
    private long duplicates;
    private long read;

    PrefixedOutcomeCounter(String bootstrapServers, TopicNames topics) {
        Map<String, Object> p = KafkaClients.properties(Map.of(ConsumerConfig.CLIENT_ID_CONFIG,
                topics.prefix() + "quotaflow-outcome-counter"), bootstrapServers, Map.of());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        classifiedTopic = topics.classified();
        consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(topics.classified(), topics.dlq())) {
            consumer.partitionsFor(topic, Duration.ofSeconds(30)).forEach(pi -> partitions.add(new TopicPartition(topic, pi.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Reads whatever is there within {@code timeout}. */
    synchronized void poll(Duration timeout) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(timeout)) {
            read++;
            if (r.topic().equals(classifiedTopic)) {
                if (classified.merge(r.key(), 1, Integer::sum) > 1) {
                    duplicates++;
                }
                results.put(r.key(), r.value());
            } else {
                deadLettered.put(r.key(), FailureHeaders.string(r.headers(), DeadLetterHeaders.ERROR_KIND).orElse("unknown"));
            }
        }
    }

    int classified() {
        return classified.size();
    }

    int deadLettered() {
        return deadLettered.size();
    }

    synchronized long duplicates() {
        return duplicates;
    }

    Set<String> classifiedIds() {
        return Set.copyOf(classified.keySet());
    }

    Map<String, byte[]> results() {
        return Map.copyOf(results);
    }

    /** Dead letters by key, with their kind. */
    Map<String, String> deadLetters() {
        return Map.copyOf(deadLettered);
    }

    Map<String, Long> deadLettersByKind() {
        Map<String, Long> out = new TreeMap<>();
        deadLettered.values().forEach(k -> out.merge(k, 1L, Long::sum));
        return out;
    }

    /** Keys seen in either topic. */
    int accountedFor(Set<String> keys) {
        int n = 0;
        for (String k : keys) {
            if (classified.containsKey(k) || deadLettered.containsKey(k)) {
                n++;
            }
        }
        return n;
    }

    /** How many records have been read so far: unchanged while nothing new arrives. */
    synchronized long read() {
        return read;
    }

    @Override
    public synchronized void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}

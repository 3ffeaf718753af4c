package io.quotaflow.bench;

import io.quotaflow.admin.KafkaClients;
import io.quotaflow.settings.TopicNames;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * The soak scenario's outcome count, kept small whatever the run's length (a leak in the bench would
 * read as one in the pipeline): a {@code read_committed} consumer of the results and the dead
 * letters that remembers each generated ticket ({@code BT-000001} …) as one bit.
 */
final class SoakTally implements AutoCloseable {

    private final KafkaConsumer<String, byte[]> consumer;
    private final String classifiedTopic;
    private final BitSet classified = new BitSet();
    private final BitSet deadLettered = new BitSet();
    private long classifiedCount;
    private long deadLetteredCount;
    private long duplicates;
    private long foreign;

    SoakTally(String bootstrapServers) {
        TopicNames topics = new TopicNames("");
        Map<String, Object> p = KafkaClients.properties(Map.of(ConsumerConfig.CLIENT_ID_CONFIG, "quotaflow-soak-tally"),
                bootstrapServers, Map.of());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        classifiedTopic = topics.classified();
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(topics.classified(), topics.dlq())) {
            consumer.partitionsFor(topic, Duration.ofSeconds(30)).forEach(pi -> partitions.add(new TopicPartition(topic, pi.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    void poll(Duration timeout) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(timeout)) {
            int index = index(r.key());
            if (index < 0) {
                foreign++;
            } else if (r.topic().equals(classifiedTopic)) {
                if (classified.get(index)) {
                    duplicates++;
                } else {
                    classified.set(index);
                    classifiedCount++;
                }
            } else if (!deadLettered.get(index)) {
                deadLettered.set(index);
                deadLetteredCount++;
            }
        }
    }

    /** The generated ticket's index in a key ending in {@code BT-000123} (a tenant may come first), or -1. */
    static int index(String key) {
        int at = key == null ? -1 : key.lastIndexOf("BT-");
        if (at < 0) {
            return -1;
        }
        try {
            return Integer.parseInt(key.substring(at + 3)) - 1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    long classified() {
        return classifiedCount;
    }

    long deadLettered() {
        return deadLetteredCount;
    }

    /** Results seen again for a ticket already classified. */
    long duplicates() {
        return duplicates;
    }

    /** Outcomes of keys that are no generated ticket's. */
    long foreign() {
        return foreign;
    }

    /** Tickets among the first {@code n} with neither a result nor a dead letter. */
    long missing(int n) {
        BitSet seen = (BitSet) classified.clone();
        seen.or(deadLettered);
        return n - seen.get(0, n).cardinality();
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}

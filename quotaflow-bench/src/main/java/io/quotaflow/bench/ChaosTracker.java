package io.quotaflow.bench;

import io.quotaflow.topology.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Follows {@code tickets.classified} and {@code tickets.dlq} ({@code read_committed}) while the
 * run goes on: distinct ids accounted for, and the first record committed after a kill.
 */
final class ChaosTracker implements AutoCloseable {
    private final KafkaConsumer<String, byte[]> consumer;
    private final List<TopicPartition> partitions;
    private final Set<String> classified = new HashSet<>();
    private final Set<String> deadLettered = new HashSet<>();
    private final Set<String> accounted = new HashSet<>();
    private Map<TopicPartition, Long> watermark;
    private long watchSince;
    private long classifiedSince;
    private Long firstNewAt;

    ChaosTracker(String bootstrap) {
        consumer = OutputTopics.consumer(bootstrap, "quotaflow-chaos-tracker");
        partitions = OutputTopics.partitions(consumer);
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    void poll(Duration timeout) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(timeout)) {
            String key = String.valueOf(r.key());
            if (r.topic().equals(Topics.CLASSIFIED.name())) {
                classified.add(key);
            } else {
                deadLettered.add(key);
            }
            accounted.add(key);
            if (watermark != null && firstNewAt == null) {
                long now = System.currentTimeMillis();
                TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                if (now >= watchSince && r.offset() >= watermark.getOrDefault(tp, 0L) && newEnough(r)) {
                    firstNewAt = now;
                }
            }
        }
    }

    /** The read_committed end (last stable offset) of every partition; empty when the broker does not answer. */
    Map<TopicPartition, Long> endOffsets() {
        try {
            return Map.copyOf(consumer.endOffsets(partitions, Duration.ofSeconds(10)));
        } catch (KafkaException e) {
            return Map.of();
        }
    }

    /**
     * From now on, remember when the first new record arrives: one at or past {@code watermark},
     * received at or after {@code since}, and, unless {@code classifiedSince} is
     * {@link Long#MIN_VALUE}, a result whose {@code classifiedAt} is not before it (a dead letter
     * does not tell when it was made, so then it does not count).
     */
    void watch(Map<TopicPartition, Long> watermark, long since, long classifiedSince) {
        this.watermark = watermark;
        this.watchSince = since;
        this.classifiedSince = classifiedSince;
        this.firstNewAt = null;
    }

    private boolean newEnough(ConsumerRecord<String, byte[]> r) {
        if (classifiedSince == Long.MIN_VALUE) {
            return true;
        }
        if (!r.topic().equals(Topics.CLASSIFIED.name())) {
            return false;
        }
        Long at = OutputTopics.classifiedAtMs(r.value());
        return at != null && at >= classifiedSince;
    }

    Long firstNewAt() {
        return firstNewAt;
    }

    long accounted() {
        return accounted.size();
    }

    long classified() {
        return classified.size();
    }

    long deadLettered() {
        return deadLettered.size();
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}

package io.quotaflow.dlq;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** Counts of one replay batch or of a whole replay, in records. Mutable; one thread. */
final class ReplayTally {
    long examined;
    long replayed;
    long filtered;
    long maxReplays;
    long originalGone;
    final Map<String, Long> byTopic = new TreeMap<>();
    final Map<String, Long> byKind = new TreeMap<>();
    final Map<String, Long> needsForce = new TreeMap<>();
    /** Next offset per partition after the records handled. */
    final Map<TopicPartition, Long> next = new HashMap<>();
    boolean interrupted;

    /** Counts one record; {@code topic} is where a replayed record went. */
    void count(ConsumerRecord<byte[], byte[]> record, ReplayDecision decision, String topic) {
        examined++;
        switch (decision) {
            case FILTERED -> filtered++;
            case MAX_REPLAYS -> maxReplays++;
            case ORIGINAL_GONE -> originalGone++;
            case NEEDS_FORCE -> needsForce.merge(ReplaySelector.kind(record.headers()), 1L, Long::sum);
            case REPLAY -> {
                replayed++;
                byTopic.merge(topic, 1L, Long::sum);
                byKind.merge(ReplaySelector.kind(record.headers()), 1L, Long::sum);
            }
        }
        next.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
    }

    void add(ReplayTally other) {
        examined += other.examined;
        replayed += other.replayed;
        filtered += other.filtered;
        maxReplays += other.maxReplays;
        originalGone += other.originalGone;
        other.byTopic.forEach((k, v) -> byTopic.merge(k, v, Long::sum));
        other.byKind.forEach((k, v) -> byKind.merge(k, v, Long::sum));
        other.needsForce.forEach((k, v) -> needsForce.merge(k, v, Long::sum));
        interrupted |= other.interrupted;
    }

    ReplaySummary summary(boolean dryRun, ReplaySummary.Outcome outcome, long remaining, Duration elapsed) {
        return new ReplaySummary(dryRun, outcome, examined, replayed, filtered, maxReplays, byTopic, byKind, remaining,
                elapsed, originalGone, needsForce);
    }
}

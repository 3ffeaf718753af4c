package io.quotaflow.dlq;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a scan of the dead-letter topic stands on each partition, between the positions it started
 * from and the end offsets captured at start; and how many records are left, estimated from the
 * share of records among the offsets read so far (transaction markers take offsets but are no
 * records). Mutable; one thread.
 */
final class ReplayPositions {

    private final Map<TopicPartition, Long> ends;
    private final Map<TopicPartition, Long> starts = new HashMap<>();
    private final Map<TopicPartition, Long> positions = new HashMap<>();
    private final Set<TopicPartition> active = new HashSet<>();

    private ReplayPositions(Map<TopicPartition, Long> ends) {
        this.ends = ends;
    }

    /** The consumer's positions on {@code partitions} (already sought) against {@code ends}. */
    static ReplayPositions capture(Consumer<?, ?> consumer, List<TopicPartition> partitions, Map<TopicPartition, Long> ends) {
        ReplayPositions p = new ReplayPositions(new HashMap<>(ends));
        for (TopicPartition tp : partitions) {
            long end = p.end(tp);
            long position = Math.min(consumer.position(tp), end);
            p.starts.put(tp, position);
            p.positions.put(tp, position);
            if (position < end) {
                p.active.add(tp);
            }
        }
        return p;
    }

    long end(TopicPartition tp) {
        return ends.getOrDefault(tp, 0L);
    }

    /** Partitions with nothing (left) to read. */
    List<TopicPartition> finished() {
        return positions.keySet().stream().filter(tp -> !active.contains(tp)).toList();
    }

    boolean done() {
        return active.isEmpty();
    }

    /** Records the records handled up to {@code next} (exclusive) per partition. */
    void advance(Map<TopicPartition, Long> next) {
        next.forEach((tp, offset) -> positions.merge(tp, offset, Math::max));
    }

    /**
     * After a whole batch was handled: takes the consumer's positions (which pass transaction
     * markers) and returns the partitions that reached their end, no longer active.
     */
    List<TopicPartition> refresh(Consumer<?, ?> consumer) {
        List<TopicPartition> reached = new ArrayList<>();
        for (TopicPartition tp : active) {
            long position = Math.min(consumer.position(tp), end(tp));
            positions.merge(tp, position, Math::max);
            if (position >= end(tp)) {
                reached.add(tp);
            }
        }
        reached.forEach(active::remove);
        return reached;
    }

    /** Offsets left on the active partitions: an upper bound on the records left. */
    long offsetsLeft() {
        long left = 0;
        for (TopicPartition tp : active) {
            left += Math.max(0, end(tp) - positions.getOrDefault(tp, 0L));
        }
        return left;
    }

    /** Offsets passed since the start, on every partition. */
    long offsetsRead() {
        long read = 0;
        for (Map.Entry<TopicPartition, Long> e : positions.entrySet()) {
            read += Math.max(0, e.getValue() - starts.getOrDefault(e.getKey(), 0L));
        }
        return read;
    }

    /** Records left, estimated: the offsets left times the records per offset seen so far ({@code examined} records). */
    long recordsLeft(long examined) {
        long left = offsetsLeft();
        long read = offsetsRead();
        if (left == 0 || read == 0 || examined == 0) {
            return left;
        }
        double perOffset = Math.min(1.0, (double) examined / read);
        return (long) Math.ceil(left * perOffset);
    }

    @Override
    public String toString() {
        return "positions " + positions + " to end offsets " + ends;
    }
}

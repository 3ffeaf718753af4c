package io.quotaflow.publish;

import org.apache.kafka.common.utils.Time;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Reads classification results ({@code tickets.classified}) as a {@code read_committed}
 * consumer: only results of committed pipeline transactions are seen, so no result is seen twice
 * and none that was rolled back. Uses {@code assign()} on all partitions, no consumer group and no
 * offset commits: reading never disturbs anyone else.
 *
 * <p>Not thread-safe, except {@link #wakeup()}, which may be called from any thread (Ctrl+C).
 */
public final class ResultsReader implements AutoCloseable {

    public static final String DEFAULT_TOPIC = "tickets.classified";

    static final Duration POLL_SLICE = Duration.ofMillis(500);
    static final Duration METADATA_SLICE = Duration.ofSeconds(2);
    static final long PARTITION_REFRESH_NANOS = Duration.ofSeconds(10).toNanos();

    /** Why a read ended. */
    public enum StopReason {
        /** {@code max} records were delivered. */
        MAX_RECORDS,
        /** No new record within the idle timeout. */
        IDLE_TIMEOUT,
        /** The topic did not exist (or the broker did not answer) within the idle timeout. */
        TOPIC_NOT_FOUND,
        /** Every partition was read up to the end offset it had when the read started ({@code untilEnd}). */
        END_REACHED,
        /** {@link #wakeup()} was called. */
        WOKEN_UP
    }

    /** How many records a read delivered and why it ended. */
    public record ReadResult(long records, StopReason reason) {
    }

    private final Consumer<String, String> consumer;
    private final String topic;
    /** Deadlines and elapsed times: Kafka's adapter over the JVM's monotonic clock. */
    private final Time time = Time.SYSTEM;

    /** Reads {@value #DEFAULT_TOPIC}. */
    public ResultsReader(String bootstrapServers, Map<String, ?> clientProperties) {
        this(bootstrapServers, clientProperties, DEFAULT_TOPIC);
    }

    /**
     * @param bootstrapServers Kafka bootstrap servers; when non-null it wins over a
     *                         {@code bootstrap.servers} entry in {@code clientProperties}
     * @param clientProperties extra consumer properties, e.g. security settings (may be empty)
     * @param topic            the topic to read
     */
    public ResultsReader(String bootstrapServers, Map<String, ?> clientProperties, String topic) {
        this(new KafkaConsumer<>(consumerConfig(bootstrapServers, clientProperties), new StringDeserializer(),
                new StringDeserializer()), topic);
    }

    /** Uses a consumer made elsewhere (a {@code MockConsumer} in tests). {@link #close()} closes it. */
    public ResultsReader(Consumer<String, String> consumer, String topic) {
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.topic = Objects.requireNonNull(topic, "topic");
    }

    /** The consumer configuration used by {@link #ResultsReader(String, Map, String)}. */
    public static Map<String, Object> consumerConfig(String bootstrapServers, Map<String, ?> clientProperties) {
        return io.quotaflow.admin.KafkaClients.properties(Map.of(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false,
                ConsumerConfig.CLIENT_ID_CONFIG, "quotaflow-results"), bootstrapServers, clientProperties);
    }

    /**
     * Reads all results from the beginning of the topic until {@code max} records were read or
     * none arrived for {@code idleTimeout}. Returns an empty list when the topic does not appear
     * within {@code idleTimeout}.
     */
    public List<String> readAll(Duration idleTimeout, int max) {
        List<String> values = new ArrayList<>();
        read(true, Optional.of(idleTimeout), max, values::add, () -> { });
        return values;
    }

    /** {@link #read(boolean, Optional, long, java.util.function.Consumer, Runnable)} without a batch hook. */
    public ReadResult read(boolean fromBeginning, Optional<Duration> idleTimeout, long max,
                           java.util.function.Consumer<String> sink) {
        return read(fromBeginning, idleTimeout, max, sink, () -> { });
    }

    /**
     * Streams record values (exactly as stored; records with a null value are skipped) to
     * {@code sink}, in order within each partition.
     *
     * @param fromBeginning start at the beginning of every partition; otherwise at the current end
     *                      (only results committed from now on are seen)
     * @param idleTimeout   return after this long without a new record; empty = follow: never
     *                      return on idle (only on {@code max} or {@link #wakeup()})
     * @param max           return after this many records ({@code Long.MAX_VALUE}: no limit)
     * @param sink          receives each value
     * @param afterBatch    runs after each non-empty batch handed to {@code sink} (e.g. flush stdout)
     */
    public ReadResult read(boolean fromBeginning, Optional<Duration> idleTimeout, long max,
                           java.util.function.Consumer<String> sink, Runnable afterBatch) {
        return read(fromBeginning, false, idleTimeout, max, sink, afterBatch);
    }

    /**
     * As {@link #read(boolean, Optional, long, java.util.function.Consumer, Runnable)}; with {@code untilEnd}
     * it also returns ({@link StopReason#END_REACHED}) once every partition has been read up to the end offset
     * it had when the read started (for this {@code read_committed} consumer: the last stable offset), as
     * {@code kcat -e} does: a topic that keeps growing still ends the read. Partitions added later are not
     * waited for, and neither is a topic missing at the start: it has no end to read to, so the read returns
     * {@link StopReason#TOPIC_NOT_FOUND} after one metadata lookup, whatever {@code idleTimeout} says.
     */
    public ReadResult read(boolean fromBeginning, boolean untilEnd, Optional<Duration> idleTimeout, long max,
                           java.util.function.Consumer<String> sink, Runnable afterBatch) {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(sink, "sink");
        if (max < 0) {
            throw new IllegalArgumentException("max must be >= 0, was " + max);
        }
        long idleNanos = idleTimeout.map(Duration::toNanos).orElse(Long.MAX_VALUE);
        long count = 0;
        try {
            if (max == 0) {
                return new ReadResult(0, StopReason.MAX_RECORDS);
            }
            long started = time.nanoseconds();
            Set<TopicPartition> assigned = waitForPartitions(started, idleNanos, untilEnd);
            if (assigned.isEmpty()) {
                return new ReadResult(0, StopReason.TOPIC_NOT_FOUND);
            }
            consumer.assign(assigned);
            position(assigned, fromBeginning);
            Map<TopicPartition, Long> ends = untilEnd ? consumer.endOffsets(assigned) : Map.of();

            long lastActivity = time.nanoseconds();
            long lastRefresh = lastActivity;
            while (true) {
                if (untilEnd && reached(ends)) {
                    return new ReadResult(count, StopReason.END_REACHED);
                }
                long now = time.nanoseconds();
                long idleLeft = idleNanos == Long.MAX_VALUE ? Long.MAX_VALUE : idleNanos - (now - lastActivity);
                if (idleLeft <= 0) {
                    return new ReadResult(count, StopReason.IDLE_TIMEOUT);
                }
                if (now - lastRefresh >= PARTITION_REFRESH_NANOS) {
                    lastRefresh = now;
                    assigned = addNewPartitions(assigned);
                }
                ConsumerRecords<String, String> records =
                        consumer.poll(Duration.ofNanos(Math.min(POLL_SLICE.toNanos(), idleLeft)));
                boolean delivered = false;
                for (ConsumerRecord<String, String> record : records) {
                    if (record.value() == null) {
                        continue;
                    }
                    sink.accept(record.value());
                    delivered = true;
                    if (++count >= max) {
                        afterBatch.run();
                        return new ReadResult(count, StopReason.MAX_RECORDS);
                    }
                }
                if (delivered) {
                    afterBatch.run();
                    lastActivity = time.nanoseconds();
                }
            }
        } catch (WakeupException e) {
            return new ReadResult(count, StopReason.WOKEN_UP);
        }
    }

    /** Whether this consumer's position is at or past {@code ends} on every partition. */
    private boolean reached(Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    /** Makes a blocked or later {@link #read} return {@link StopReason#WOKEN_UP}. Any thread. */
    public void wakeup() {
        consumer.wakeup();
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }

    /** The topic's partitions, waited for up to {@code idleNanos}; until the end, not waited for (a missing topic has no end). */
    private Set<TopicPartition> waitForPartitions(long started, long idleNanos, boolean untilEnd) {
        if (untilEnd) {
            return partitions();
        }
        while (true) {
            Set<TopicPartition> partitions = partitions();
            if (!partitions.isEmpty()) {
                return partitions;
            }
            long left = idleNanos == Long.MAX_VALUE ? Long.MAX_VALUE : idleNanos - (time.nanoseconds() - started);
            if (left <= 0) {
                return Set.of();
            }
            sleep(Math.min(Duration.ofMillis(500).toNanos(), left));
        }
    }

    private Set<TopicPartition> partitions() {
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic, METADATA_SLICE);
        } catch (TimeoutException e) {
            return Set.of(); // broker not reachable (yet): treated like a missing topic, retried
        }
        Set<TopicPartition> partitions = new LinkedHashSet<>();
        if (infos != null) {
            infos.stream()
                    .sorted(Comparator.comparingInt(PartitionInfo::partition))
                    .forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
        }
        return partitions;
    }

    private void position(Set<TopicPartition> partitions, boolean fromBeginning) {
        if (fromBeginning) {
            consumer.seekToBeginning(partitions);
        } else {
            consumer.seekToEnd(partitions);
            // resolve the lazy seek now, so "the end" means the end when reading started
            for (TopicPartition tp : partitions) {
                consumer.position(tp);
            }
        }
    }

    private Set<TopicPartition> addNewPartitions(Set<TopicPartition> assigned) {
        Set<TopicPartition> current = partitions();
        if (current.isEmpty() || assigned.containsAll(current)) {
            return assigned;
        }
        Set<TopicPartition> added = new LinkedHashSet<>(current);
        added.removeAll(assigned);
        Set<TopicPartition> all = new LinkedHashSet<>(assigned);
        all.addAll(added);
        consumer.assign(all); // keeps the positions of partitions that stay assigned
        consumer.seekToBeginning(added); // a new partition only holds results newer than the start
        return all;
    }

    private static void sleep(long nanos) {
        try {
            Thread.sleep(Math.max(1, nanos / 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WakeupException();
        }
    }
}

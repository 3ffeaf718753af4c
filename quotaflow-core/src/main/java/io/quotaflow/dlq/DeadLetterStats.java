package io.quotaflow.dlq;

import org.apache.kafka.common.utils.Time;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.topology.Topics;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Summarises the dead-letter topic: scans it from the beginning to the end offsets captured at
 * the start, as a {@code read_committed} consumer with {@code assign()} and no consumer group, so
 * it never disturbs anyone and commits nothing.
 *
 * <p>Not thread-safe. {@link #close()} closes the consumer.
 */
public final class DeadLetterStats implements AutoCloseable {

    public static final String CLIENT_ID = "quotaflow-dlq-stats";
    /** How many of the most frequent error messages the report lists. */
    public static final int TOP_MESSAGES = 10;
    /** Distinct error messages counted at most (memory bound); see {@link DeadLetterReport#messagesTruncated()}. */
    static final int MAX_DISTINCT_MESSAGES = 10_000;
    static final Duration POLL = Duration.ofMillis(500);

    private final Consumer<byte[], byte[]> consumer;
    private final String topic;
    private final Duration stallTimeout;
    private final Time time = Time.SYSTEM;

    /** Reads {@code tickets.dlq}. */
    public DeadLetterStats(String bootstrapServers, Map<String, ?> clientProperties) {
        this(bootstrapServers, clientProperties, Topics.DLQ.name());
    }

    /**
     * Reads {@code topic}.
     *
     * @throws KafkaException when the client properties are invalid
     */
    public DeadLetterStats(String bootstrapServers, Map<String, ?> clientProperties, String topic) {
        this(new KafkaConsumer<>(DlqClients.consumerConfig(bootstrapServers, clientProperties, CLIENT_ID, null, 2_000),
                new ByteArrayDeserializer(), new ByteArrayDeserializer()), topic, Duration.ofSeconds(60));
    }

    /**
     * @param consumer     a consumer without a group (a {@code MockConsumer} in tests); closed by {@link #close()}
     * @param topic        the dead-letter topic
     * @param stallTimeout fail when a scan reads nothing for this long before reaching the end
     */
    public DeadLetterStats(Consumer<byte[], byte[]> consumer, String topic, Duration stallTimeout) {
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.stallTimeout = Objects.requireNonNull(stallTimeout, "stallTimeout");
    }

    /**
     * Scans the topic and summarises it.
     *
     * @throws DeadLetterException when the topic does not exist or the cluster stops answering
     */
    public DeadLetterReport read() {
        try {
            List<TopicPartition> partitions = DlqClients.partitions(consumer, topic);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions));
            Set<TopicPartition> active = new HashSet<>();
            for (TopicPartition tp : partitions) {
                if (consumer.position(tp) < ends.getOrDefault(tp, 0L)) {
                    active.add(tp);
                } else {
                    consumer.pause(List.of(tp));
                }
            }
            Accumulator acc = new Accumulator();
            long lastAdvance = time.nanoseconds();
            while (!active.isEmpty()) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
                for (TopicPartition tp : records.partitions()) {
                    long end = ends.getOrDefault(tp, 0L);
                    for (ConsumerRecord<byte[], byte[]> record : records.records(tp)) {
                        if (record.offset() < end) {
                            acc.add(record.timestamp(), record.headers());
                        }
                    }
                }
                List<TopicPartition> reached = new ArrayList<>();
                for (TopicPartition tp : active) {
                    if (consumer.position(tp) >= ends.get(tp)) {
                        reached.add(tp);
                    }
                }
                reached.forEach(active::remove);
                consumer.pause(reached);
                long now = time.nanoseconds();
                if (!records.isEmpty() || !reached.isEmpty()) {
                    lastAdvance = now;
                } else if (now - lastAdvance > stallTimeout.toNanos()) {
                    throw new DeadLetterException("no progress reading " + topic + " for " + stallTimeout.toSeconds()
                            + " s; is the cluster reachable?");
                }
            }
            return acc.report(topic);
        } catch (KafkaException e) {
            throw new DeadLetterException(topic + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        consumer.close();
    }

    /** Counts dead letters one by one; Kafka-free, so tests can feed it directly. */
    static final class Accumulator {
        private long total;
        private final Map<String, Long> byKind = new HashMap<>();
        private final Map<String, Long> byStatus = new HashMap<>();
        private final Map<String, Long> byOrigin = new HashMap<>();
        private final Map<String, Long> byReplayCount = new HashMap<>();
        private final Map<String, Long> messages = new HashMap<>();
        private boolean messagesTruncated;
        private long replayed;
        private long oldest = Long.MAX_VALUE;
        private long newest = Long.MIN_VALUE;

        void add(long timestamp, Headers headers) {
            total++;
            if (timestamp >= 0) {
                oldest = Math.min(oldest, timestamp);
                newest = Math.max(newest, timestamp);
            }
            byKind.merge(header(headers, DeadLetterHeaders.ERROR_KIND), 1L, Long::sum);
            byStatus.merge(header(headers, DeadLetterHeaders.ERROR_STATUS), 1L, Long::sum);
            byOrigin.merge(header(headers, DeadLetterHeaders.ORIGIN_TOPIC), 1L, Long::sum);
            int replays = ReplaySelector.replayCount(headers);
            byReplayCount.merge(Integer.toString(replays), 1L, Long::sum);
            if (replays > 0) {
                replayed++;
            }
            String message = header(headers, DeadLetterHeaders.ERROR_MESSAGE);
            if (messages.containsKey(message) || messages.size() < MAX_DISTINCT_MESSAGES) {
                messages.merge(message, 1L, Long::sum);
            } else {
                messagesTruncated = true;
            }
        }

        private static String header(Headers headers, String name) {
            return FailureHeaders.string(headers, name).map(String::strip).filter(s -> !s.isEmpty())
                    .orElse(DeadLetterReport.NONE);
        }

        DeadLetterReport report(String topic) {
            List<DeadLetterReport.MessageCount> top = sorted(messages).entrySet().stream().limit(TOP_MESSAGES)
                    .map(e -> new DeadLetterReport.MessageCount(e.getKey(), e.getValue())).toList();
            return new DeadLetterReport(topic, total, sorted(byKind), sorted(byStatus), sorted(byOrigin),
                    total == 0 || oldest == Long.MAX_VALUE ? null : Instant.ofEpochMilli(oldest),
                    total == 0 || newest == Long.MIN_VALUE ? null : Instant.ofEpochMilli(newest),
                    top, replayed, sorted(byReplayCount), messagesTruncated);
        }

        /** Highest count first, then by name. */
        private static Map<String, Long> sorted(Map<String, Long> counts) {
            Map<String, Long> out = new LinkedHashMap<>();
            counts.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                            .thenComparing(Map.Entry.comparingByKey()))
                    .forEach(e -> out.put(e.getKey(), e.getValue()));
            return out;
        }
    }
}

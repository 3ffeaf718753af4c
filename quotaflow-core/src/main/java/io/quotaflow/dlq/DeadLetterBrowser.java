package io.quotaflow.dlq;

import org.apache.kafka.common.utils.Time;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.failure.FailureHeaders;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Finds the dead letters a {@link DeadLetterQuery} asks for: reads the dead-letter topic as a
 * {@code read_committed} consumer with {@code assign()} and no group (it commits nothing and
 * disturbs no one), from the beginning (or the lowest offset asked for) to the end offsets
 * captured at start, and stops once {@code max} were found. Not thread-safe; {@link #close()}
 * closes the consumer.
 */
public final class DeadLetterBrowser implements AutoCloseable {

    public static final String CLIENT_ID = "quotaflow-dlq-show";
    static final Duration POLL = Duration.ofMillis(200);

    private final Consumer<byte[], byte[]> consumer;
    private final Duration stallTimeout;
    private final Time time = Time.SYSTEM;

    /**
     * @throws KafkaException when the client properties are invalid
     */
    public DeadLetterBrowser(String bootstrapServers, Map<String, ?> clientProperties) {
        this(new KafkaConsumer<>(DlqClients.consumerConfig(bootstrapServers, clientProperties, CLIENT_ID, null, 500),
                new ByteArrayDeserializer(), new ByteArrayDeserializer()), Duration.ofSeconds(30));
    }

    /** A consumer without a group (a {@code MockConsumer} in tests); closed by {@link #close()}. */
    DeadLetterBrowser(Consumer<byte[], byte[]> consumer, Duration stallTimeout) {
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.stallTimeout = Objects.requireNonNull(stallTimeout, "stallTimeout");
    }

    /**
     * The dead letters asked for, at most {@code query.max()}, ordered by partition and offset.
     *
     * @throws DeadLetterException when the topic does not exist or the cluster stops answering
     */
    public List<DeadLetterView> find(DeadLetterQuery query) {
        try {
            List<TopicPartition> partitions = DlqClients.partitions(consumer, query.topic()).stream()
                    .filter(tp -> query.reads(tp.partition())).toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> ends = ends(query, partitions);
            List<TopicPartition> active = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                OptionalLong first = query.firstOffset(tp.partition());
                if (first.isPresent()) {
                    consumer.seek(tp, first.getAsLong());
                } else {
                    consumer.seekToBeginning(List.of(tp));
                }
                if (consumer.position(tp) < ends.get(tp)) {
                    active.add(tp);
                } else {
                    consumer.pause(List.of(tp));
                }
            }
            return scan(query, ends, active);
        } catch (KafkaException e) {
            throw new DeadLetterException(query.topic() + ": " + e.getMessage(), e);
        }
    }

    private Map<TopicPartition, Long> ends(DeadLetterQuery query, List<TopicPartition> partitions) {
        Map<TopicPartition, Long> ends = new HashMap<>();
        consumer.endOffsets(partitions).forEach((tp, end) -> {
            OptionalLong asked = query.endOffset(tp.partition());
            ends.put(tp, asked.isPresent() ? Math.min(end, asked.getAsLong()) : end);
        });
        partitions.forEach(tp -> ends.putIfAbsent(tp, 0L));
        return ends;
    }

    private List<DeadLetterView> scan(DeadLetterQuery query, Map<TopicPartition, Long> ends, List<TopicPartition> active) {
        List<DeadLetterView> found = new ArrayList<>();
        long lastAdvance = time.nanoseconds();
        while (!active.isEmpty() && found.size() < query.max()) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
            for (ConsumerRecord<byte[], byte[]> r : records) {
                if (found.size() < query.max() && r.offset() < ends.get(new TopicPartition(r.topic(), r.partition()))
                        && query.matches(r.partition(), r.offset(), key(r),
                                FailureHeaders.string(r.headers(), DeadLetterHeaders.ERROR_KIND).orElse(null))) {
                    found.add(DeadLetterView.of(r));
                }
            }
            List<TopicPartition> reached = active.stream().filter(tp -> consumer.position(tp) >= ends.get(tp)).toList();
            active.removeAll(reached);
            consumer.pause(reached);
            long now = time.nanoseconds();
            if (!records.isEmpty() || !reached.isEmpty()) {
                lastAdvance = now;
            } else if (now - lastAdvance > stallTimeout.toNanos()) {
                throw new DeadLetterException("no progress reading " + query.topic() + " for "
                        + stallTimeout.toSeconds() + " s; is the cluster reachable?");
            }
        }
        found.sort(Comparator.comparingInt(DeadLetterView::partition).thenComparingLong(DeadLetterView::offset));
        return found;
    }

    private static String key(ConsumerRecord<byte[], byte[]> r) {
        return r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        consumer.close();
    }
}

package io.quotaflow.dlq;

import org.apache.kafka.common.utils.Time;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the producer's whole record back from its origin topic, for a dead letter that carries
 * only a truncated value ({@code qf.value.truncated=true}): it is there while the topic retains it.
 */
public interface OriginalReader extends AutoCloseable {

    /** Reads nothing: every truncated dead letter counts as gone. */
    OriginalReader NONE = (topic, partition, offset) -> Optional.empty();

    /** The value at {@code topic}-{@code partition}@{@code offset}, if still retained. */
    Optional<byte[]> read(String topic, int partition, long offset);

    @Override
    default void close() {
    }

    /** Whether the dead letter's value is not the producer's whole record. */
    static boolean truncated(Headers headers) {
        return FailureHeaders.string(headers, DeadLetterHeaders.VALUE_TRUNCATED).filter("true"::equals).isPresent();
    }

    /**
     * The whole original of a truncated dead letter, checked against its {@code qf.original.sha256},
     * or empty when its origin no longer holds it (retention) or holds something else.
     */
    static Optional<byte[]> original(OriginalReader reader, Headers headers) {
        Optional<String> topic = FailureHeaders.string(headers, DeadLetterHeaders.ORIGIN_TOPIC);
        Optional<Integer> partition = FailureHeaders.integer(headers, DeadLetterHeaders.ORIGIN_PARTITION);
        java.util.OptionalLong offset = FailureHeaders.longValue(headers, DeadLetterHeaders.ORIGIN_OFFSET);
        Optional<String> sha = FailureHeaders.string(headers, DeadLetterHeaders.ORIGINAL_SHA256);
        if (topic.isEmpty() || partition.isEmpty() || offset.isEmpty() || sha.isEmpty()) {
            return Optional.empty();
        }
        return reader.read(topic.get(), partition.get(), offset.getAsLong())
                .filter(bytes -> WorkItem.sha256(bytes).equals(sha.get()));
    }

    /** Reads with a consumer of its own (no group), fetching as large a record as the origin holds. */
    static OriginalReader consumer(String bootstrapServers, Map<String, ?> clientProperties) {
        Map<String, Object> config = DlqClients.consumerConfig(bootstrapServers, clientProperties,
                DeadLetterReplayer.CLIENT_ID + "-originals", null, 1);
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 64 * 1024 * 1024);
        config.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 * 1024 * 1024);
        Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        return new OriginalReader() {
            @Override
            public Optional<byte[]> read(String topic, int partition, long offset) {
                TopicPartition tp = new TopicPartition(topic, partition);
                consumer.assign(List.of(tp));
                Long earliest = consumer.beginningOffsets(List.of(tp)).get(tp);
                Long end = consumer.endOffsets(List.of(tp)).get(tp);
                if (earliest == null || end == null || offset < earliest || offset >= end) {
                    return Optional.empty();
                }
                consumer.seek(tp, offset);
                long deadline = Time.SYSTEM.nanoseconds() + Duration.ofSeconds(15).toNanos();
                while (Time.SYSTEM.nanoseconds() < deadline) {
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                        if (r.offset() == offset) {
                            return Optional.ofNullable(r.value());
                        }
                        if (r.offset() > offset) {
                            return Optional.empty(); // compacted or aborted away
                        }
                    }
                }
                return Optional.empty();
            }

            @Override
            public void close() {
                consumer.close(Duration.ofSeconds(5));
            }
        };
    }
}

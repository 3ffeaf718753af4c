package io.quotaflow.publish;

import org.apache.kafka.common.utils.Time;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds a finished ticket's last record in an output topic ({@code tickets.classified} or
 * {@code tickets.dlq}) by its key: reads, {@code read_committed} and without a consumer group, only
 * the partition the key hashes to (Kafka's default partitioner, which the pipeline writes them with),
 * from its start to its end as of the lookup. For {@code quotaflow status} when no instance knows the
 * ticket (none runs, or its status has expired).
 */
public final class FinishedTicketLookup implements AutoCloseable {

    /** A ticket's record: where it is, and its value and headers. */
    public record Found(String topic, int partition, long offset, long timestamp, byte[] value, Map<String, String> headers) {

        /** {@code topic-partition@offset}, as {@code publish} prints positions. */
        public String position() {
            return topic + "-" + partition + "@" + offset;
        }
    }

    /** Why a lookup found nothing. */
    public enum Missing {
        /** The partition was read to its end: the key is not there. */
        NOT_THERE,
        /** The topic does not exist. */
        NO_TOPIC,
        /** The partition could not be read to its end in time. */
        NOT_READ
    }

    /** The outcome of a lookup: the record found, or why none was. */
    public record Outcome(Optional<Found> found, Missing missing) {
    }

    private final Consumer<String, byte[]> consumer;
    /** Deadlines and elapsed times: Kafka's adapter over the JVM's monotonic clock. */
    private final Time time = Time.SYSTEM;

    public FinishedTicketLookup(String bootstrapServers, Map<String, ?> clientProperties) {
        Map<String, Object> config = new java.util.HashMap<>(ResultsReader.consumerConfig(bootstrapServers, clientProperties));
        config.put("client.id", "quotaflow-status");
        this.consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /** The last record keyed {@code key} in {@code topic}, reading for at most {@code timeout}. */
    public Outcome find(String topic, String key, Duration timeout) {
        long deadline = time.nanoseconds() + timeout.toNanos();
        List<PartitionInfo> partitions = consumer.partitionsFor(topic, timeout);
        if (partitions == null || partitions.isEmpty()) {
            return new Outcome(Optional.empty(), Missing.NO_TOPIC);
        }
        int partition = Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions.size();
        TopicPartition tp = new TopicPartition(topic, partition);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        long end = consumer.endOffsets(List.of(tp), timeout).get(tp);
        Found last = null;
        while (consumer.position(tp, timeout) < end) {
            long left = deadline - time.nanoseconds();
            if (left <= 0) {
                return new Outcome(Optional.ofNullable(last), last == null ? Missing.NOT_READ : null);
            }
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofNanos(Math.min(left, Duration.ofMillis(500).toNanos())))) {
                if (key.equals(r.key()) && r.value() != null) {
                    last = new Found(r.topic(), r.partition(), r.offset(), r.timestamp(), r.value(), headers(r));
                }
            }
        }
        return new Outcome(Optional.ofNullable(last), last == null ? Missing.NOT_THERE : null);
    }

    private static Map<String, String> headers(ConsumerRecord<String, byte[]> r) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Header h : r.headers()) {
            out.putIfAbsent(h.key(), h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8));
        }
        return out;
    }

    @Override
    public void close() {
        consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(5)));
    }
}

package io.quotaflow.testkit;

import io.quotaflow.records.DeadLetterHeaders;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts what reached {@code tickets.classified}, {@code tickets.dlq} and {@code tickets.handoff} (under a
 * {@code topics.prefix}, when given one) as a {@code read_committed} consumer sees it: distinct
 * keys, duplicates, dead letters by kind, hand-offs. Used by the demo, the benchmark and the integration tests,
 * never by the pipeline: it lives in the test kit so that the production jar does not carry it. The topic
 * names are spelled here ({@code <prefix>tickets.classified}, as core's {@code TopicNames} does) because the
 * test kit sits below core.
 */
public final class OutcomeCounter implements AutoCloseable {

    private final KafkaConsumer<String, byte[]> consumer;
    private final String classifiedTopic;
    private final String handoffTopic;
    private final Map<String, Integer> handedOff = new ConcurrentHashMap<>();
    private final Map<String, Integer> classified = new ConcurrentHashMap<>();
    private final Map<String, String> deadLettered = new ConcurrentHashMap<>();
    private final Map<String, byte[]> results = new ConcurrentHashMap<>();
    private long duplicates;
    private long deadLetterRecords;
    private long read;

    public OutcomeCounter(String bootstrapServers, Map<String, ?> extra) {
        this(bootstrapServers, extra, "");
    }

    /** Counts the outcomes on the result and dead-letter topics under {@code topicsPrefix} ({@code topics.prefix}). */
    public OutcomeCounter(String bootstrapServers, Map<String, ?> extra, String topicsPrefix) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, topicsPrefix + "quotaflow-outcome-counter");
        if (extra != null) {
            p.putAll(extra);
        }
        if (bootstrapServers != null) {
            p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        }
        // the consumer gets deserializer instances: (de)serializer class names from the pass-through would only be ignored
        for (String key : new String[] {"key.serializer", "value.serializer", "key.deserializer", "value.deserializer"}) {
            p.remove(key);
        }
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        classifiedTopic = topicsPrefix + "tickets.classified";
        handoffTopic = topicsPrefix + "tickets.handoff";
        for (String topic : List.of(classifiedTopic, topicsPrefix + "tickets.dlq", handoffTopic)) {
            consumer.partitionsFor(topic, Duration.ofSeconds(30)).forEach(pi -> partitions.add(new TopicPartition(topic, pi.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Reads whatever is there within {@code timeout}. */
    public synchronized void poll(Duration timeout) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(timeout)) {
            read++;
            if (r.topic().equals(classifiedTopic)) {
                if (classified.merge(r.key(), 1, Integer::sum) > 1) {
                    duplicates++;
                }
                results.put(r.key(), r.value());
            } else if (r.topic().equals(handoffTopic)) {
                handedOff.merge(r.key(), 1, Integer::sum);
            } else {
                deadLetterRecords++;
                deadLettered.put(r.key(), errorKind(r.headers().lastHeader(DeadLetterHeaders.ERROR_KIND)));
            }
        }
    }

    private static String errorKind(Header header) {
        return header == null || header.value() == null ? "unknown" : new String(header.value(), StandardCharsets.UTF_8);
    }

    public int classified() {
        return classified.size();
    }

    /** Tickets handed off to people ({@code tickets.handoff}). */
    public int handedOff() {
        return handedOff.size();
    }

    public Set<String> handedOffIds() {
        return Set.copyOf(handedOff.keySet());
    }

    public int deadLettered() {
        return deadLettered.size();
    }

    public synchronized long duplicates() {
        return duplicates;
    }

    public Set<String> classifiedIds() {
        return Set.copyOf(classified.keySet());
    }

    public Map<String, byte[]> results() {
        return Map.copyOf(results);
    }

    /** Dead letters by key, with their kind. */
    public Map<String, String> deadLetters() {
        return Map.copyOf(deadLettered);
    }

    /** Dead-letter records read, counting a ticket dead-lettered twice twice. */
    public synchronized long deadLetterRecords() {
        return deadLetterRecords;
    }

    public Map<String, Long> deadLettersByKind() {
        Map<String, Long> out = new TreeMap<>();
        deadLettered.values().forEach(k -> out.merge(k, 1L, Long::sum));
        return out;
    }

    /** Keys seen in any of the three topics. */
    public int accountedFor(Set<String> keys) {
        int n = 0;
        for (String k : keys) {
            if (classified.containsKey(k) || deadLettered.containsKey(k) || handedOff.containsKey(k)) {
                n++;
            }
        }
        return n;
    }

    /** How many records have been read so far: unchanged while nothing new arrives. */
    public synchronized long read() {
        return read;
    }

    @Override
    public synchronized void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}

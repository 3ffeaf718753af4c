package io.quotaflow.bench;

import io.quotaflow.dispatch.ledger.DispatchTopics;
import io.quotaflow.records.ResultHeaders;
import io.quotaflow.records.TicketKey;
import io.quotaflow.ticket.BinarySerde;
import io.quotaflow.ticket.WorkItem;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * (j), (x), (t): when each interactive ticket became readable on the interactive lane (the dispatcher's
 * input, once intake's transaction committed) and when its result became readable on
 * {@code tickets.classified}, as a {@code read_committed} consumer of its own thread sees them, with the
 * result's {@link ResultHeaders#SENT_AT}. With the result's own fields these split a ticket's time into
 * its hops ({@link Hops}). Holds at most {@value #MAX_TICKETS} tickets (the lane carries only the
 * interactive ones).
 */
final class LaneWatch implements AutoCloseable {

    static final int MAX_TICKETS = 10_000;

    /**
     * What the watch saw of one interactive ticket, in epoch ms (0: not seen): when it was readable on the lane,
     * when its result was, and the result's {@link ResultHeaders#SENT_AT} and {@link ResultHeaders#ARRIVED_AT}.
     */
    record Seen(long onLaneAt, long resultAt, long sentAt, long arrivedAt) {
        static final Seen NONE = new Seen(0, 0, 0, 0);
    }

    private final KafkaConsumer<String, byte[]> consumer;
    private final String lane;
    private final Map<String, Long> onLane = new ConcurrentHashMap<>();
    private final Map<String, long[]> results = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean running = true;

    LaneWatch(String bootstrapServers, String applicationId) {
        Map<String, Object> p = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.CLIENT_ID_CONFIG, "quotaflow-bench-lane-watch");
        this.consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        this.lane = DispatchTopics.interactiveTopic(applicationId);
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : List.of(lane, "tickets.classified")) {
            consumer.partitionsFor(topic, Duration.ofSeconds(30)).forEach(pi -> partitions.add(new TopicPartition(topic, pi.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        this.thread = new Thread(this::run, "lane-watch");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** A watch for an interactive scenario's run; null for any other. */
    static LaneWatch forScenario(Scenario scenario, String bootstrapServers, String applicationId) {
        return scenario.kind() == Scenario.Kind.INTERACTIVE ? new LaneWatch(bootstrapServers, applicationId) : null;
    }

    /** What {@code watch} saw so far ({@link #all()}); nothing without one. */
    static Map<String, Seen> all(LaneWatch watch) {
        return watch == null ? Map.of() : watch.all();
    }

    private void run() {
        try (BinarySerde<WorkItem> serde = new BinarySerde<>(WorkItem.class)) {
            while (running) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(20))) {
                    long now = System.currentTimeMillis();
                    if (r.topic().equals(lane)) {
                        if (r.value() != null && onLane.size() < MAX_TICKETS) {
                            WorkItem item = serde.deserializer().deserialize(lane, r.value());
                            onLane.putIfAbsent(item.id(), now);
                        }
                    } else if (r.key() != null) {
                        String id = TicketKey.parse(r.key()).id();
                        if (onLane.containsKey(id)) {
                            results.putIfAbsent(id, new long[] {now, header(r.headers().lastHeader(ResultHeaders.SENT_AT)),
                                header(r.headers().lastHeader(ResultHeaders.ARRIVED_AT))});
                        }
                    }
                }
            }
        } finally {
            consumer.close(Duration.ofSeconds(1));
        }
    }

    private static long header(Header h) {
        return h == null || h.value() == null ? 0 : Long.parseLong(new String(h.value(), StandardCharsets.US_ASCII));
    }

    /** What was seen of ticket {@code id}. */
    Seen seen(String id) {
        long[] result = results.get(id);
        return result == null ? new Seen(onLane.getOrDefault(id, 0L), 0, 0, 0)
                : new Seen(onLane.getOrDefault(id, 0L), result[0], result[1], result[2]);
    }

    /** Everything seen so far, by ticket id. */
    Map<String, Seen> all() {
        Map<String, Seen> out = new java.util.LinkedHashMap<>();
        onLane.keySet().forEach(id -> out.put(id, seen(id)));
        return out;
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

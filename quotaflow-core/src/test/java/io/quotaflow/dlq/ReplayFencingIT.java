package io.quotaflow.dlq;

import org.apache.kafka.common.utils.Time;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.testkit.KafkaBrokerExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Overlapping {@code dlq replay} runs of one group on the shared in-process broker: the newer one
 * fences the older, and every dead letter is written back exactly once (counted
 * {@code read_committed}). Each test applies the topics under a {@code topics.prefix} of its own
 * and replays with the default group, which lives under that prefix.
 */
@Order(13) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
@ExtendWith(KafkaBrokerExtension.class)
class ReplayFencingIT {

    private static final int DEAD_LETTERS = 40;
    /** The finding's pace: at 4 records per second, 40 dead letters take about 10 s, so two replays overlap. */
    private static final double RATE = 4;
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(90);

    private final String bootstrap = KafkaBrokerExtension.bootstrapServers();

    @Test
    void shouldWriteEachDeadLetterOnceWhenTwoReplaysOfOneGroupOverlap() throws Exception {
        TopicNames topics = applyTopics();
        List<String> keys = writeDeadLetters(topics);
        ReplayOptions options = options(topics);
        assertThat(options.groupId()).isEqualTo(topics.prefix() + "quotaflow-dlq-replay");

        DeadLetterReplayer older = new DeadLetterReplayer(bootstrap, Map.of(), options);
        CountDownLatch olderCommitted = new CountDownLatch(1);
        CompletableFuture<ReplaySummary> first = runInThread("older", () -> older.run(progress -> {
            if (progress.replayed() >= 8) { // two batches of 4 committed
                olderCommitted.countDown();
            }
        }));
        assertThat(olderCommitted.await(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as("the older replay commits").isTrue();
        CompletableFuture<ReplaySummary> second = runInThread("newer",
                () -> new DeadLetterReplayer(bootstrap, Map.of(), options).run());

        ReplaySummary newer = second.get(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        Throwable olderOutcome = outcome(first);

        assertExactlyOnce(topics, keys);
        assertThat(newer.outcome()).isEqualTo(ReplaySummary.Outcome.COMPLETED);
        assertThat(olderOutcome).as("the older replay was fenced").isInstanceOf(ReplayFencedException.class)
                .hasMessageContaining("took over").hasMessageContaining(options.groupId());
        long olderReplayed = ((ReplayFencedException) olderOutcome).replayed();
        assertThat(olderReplayed).isBetween(8L, (long) DEAD_LETTERS - 1);
        assertThat(olderReplayed + newer.replayed()).isEqualTo(DEAD_LETTERS);

        // run again, not overlapping: it starts from the committed offsets and finds nothing to do
        ReplaySummary again = new DeadLetterReplayer(bootstrap, Map.of(), options).run();
        assertThat(again.outcome()).isEqualTo(ReplaySummary.Outcome.COMPLETED);
        assertThat(again.replayed()).isZero();
        assertExactlyOnce(topics, keys);
    }

    /**
     * The race of the finding, made certain: the newer replay is slow to get its producer (held
     * until the older one has committed one more batch). Reading the group's offsets before
     * fencing the older replay would start the newer one before that batch and write it again.
     */
    @Test
    void shouldWriteNothingTwiceWhenTheOlderReplayCommitsWhileTheNewerOneStarts() throws Exception {
        TopicNames topics = applyTopics();
        List<String> keys = writeDeadLetters(topics);
        ReplayOptions options = options(topics);

        AtomicLong olderReplayed = new AtomicLong();
        DeadLetterReplayer older = new DeadLetterReplayer(bootstrap, Map.of(), options);
        CompletableFuture<ReplaySummary> first = runInThread("older", () -> older.run(p -> olderReplayed.set(p.replayed())));
        await("the older replay commits").atMost(RUN_TIMEOUT).until(() -> olderReplayed.get() >= 4);

        long replayedWhenTheNewerStarted = olderReplayed.get();
        Supplier<Producer<byte[], byte[]>> slowProducer = () -> {
            await("the older replay commits another batch").atMost(RUN_TIMEOUT)
                    .until(() -> olderReplayed.get() > replayedWhenTheNewerStarted);
            return new KafkaProducer<>(DlqClients.producerConfig(bootstrap, Map.of(), DeadLetterReplayer.CLIENT_ID,
                    options.transactionalId()), new ByteArraySerializer(), new ByteArraySerializer());
        };
        DeadLetterReplayer newer = new DeadLetterReplayer(options,
                () -> new KafkaConsumer<>(DlqClients.consumerConfig(bootstrap, Map.of(), DeadLetterReplayer.CLIENT_ID,
                        options.groupId(), DeadLetterReplayer.maxPollRecords(options)),
                        new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                slowProducer, Time.SYSTEM);
        ReplaySummary second = runInThread("newer", newer::run).get(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        Throwable olderOutcome = outcome(first);

        assertExactlyOnce(topics, keys);
        assertThat(second.outcome()).isEqualTo(ReplaySummary.Outcome.COMPLETED);
        assertThat(olderOutcome).isInstanceOf(ReplayFencedException.class);
        assertThat(((ReplayFencedException) olderOutcome).replayed() + second.replayed()).isEqualTo(DEAD_LETTERS);
    }

    // ---------------------------------------------------------------- helpers

    private static ReplayOptions options(TopicNames topics) {
        // --force --rate 4, as in the finding; the default group
        return ReplayOptions.builder().dlqTopic(topics.dlq()).ratePerSecond(RATE).force(true).build();
    }

    private static <T> CompletableFuture<T> runInThread(String name, Supplier<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                result.complete(task.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, "replay-" + name);
        thread.setDaemon(true);
        thread.start();
        return result;
    }

    /** What the replay ended with: its exception, or null when it returned a summary. */
    private static Throwable outcome(CompletableFuture<ReplaySummary> replay) throws Exception {
        try {
            ReplaySummary summary = replay.get(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            throw new AssertionError("the older replay was not fenced: " + summary);
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private TopicNames applyTopics() {
        String prefix = KafkaBrokerExtension.uniqueName("fence") + ".";
        TopicNames topics = new TopicNames(prefix);
        try (Admin admin = KafkaClients.admin(bootstrap, Map.of())) {
            TopicsApplier.bundled().withPrefix(prefix).apply(admin);
            // the topic exists for the controller before the broker serves its partitions
            await("the broker serves " + topics.all()).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions().until(() -> {
                        endOffsets(admin, topics.all());
                        return true;
                    });
        }
        return topics;
    }

    /** {@value #DEAD_LETTERS} retries-exhausted dead letters in one transaction, from the interactive and standard topics. */
    private List<String> writeDeadLetters(TopicNames topics) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topics.prefix() + "writer");
        List<String> keys = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < DEAD_LETTERS; i++) {
                String key = topics.prefix() + "T-" + i;
                keys.add(key);
                String origin = i % 2 == 0 ? topics.input(Priority.INTERACTIVE)
                        : topics.input(Priority.STANDARD);
                RecordHeaders h = new RecordHeaders();
                put(h, DeadLetterHeaders.VERSION, "1");
                put(h, DeadLetterHeaders.ATTEMPT, "5");
                put(h, DeadLetterHeaders.ERROR_KIND, ErrorKind.RETRIES_EXHAUSTED.wire());
                put(h, DeadLetterHeaders.ERROR_STATUS, "503");
                put(h, DeadLetterHeaders.ERROR_MESSAGE, "HTTP 503: overloaded");
                put(h, DeadLetterHeaders.ORIGIN_TOPIC, origin);
                put(h, DeadLetterHeaders.ORIGIN_PARTITION, "0");
                put(h, DeadLetterHeaders.ORIGIN_OFFSET, Integer.toString(i));
                put(h, DeadLetterHeaders.REPLAY_COUNT, "0");
                byte[] value = ("{\"id\":\"" + key + "\",\"subject\":\"Order late\",\"body\":\"Not delivered\"}")
                        .getBytes(StandardCharsets.UTF_8);
                producer.send(new ProducerRecord<>(topics.dlq(), null, Instant.now().toEpochMilli(),
                        key.getBytes(StandardCharsets.UTF_8), value, h));
            }
            producer.commitTransaction();
        }
        return keys;
    }

    private static void put(RecordHeaders h, String key, String value) {
        h.add(key, value.getBytes(StandardCharsets.UTF_8));
    }

    /** Every dead letter is on its origin topic exactly once, counted {@code read_committed}. */
    private void assertExactlyOnce(TopicNames topics, List<String> keys) throws Exception {
        Map<String, Integer> counts = committedKeyCounts(List.of(topics.input(Priority.INTERACTIVE),
                topics.input(Priority.STANDARD), topics.input(Priority.BULK)));
        Map<String, Integer> duplicates = new TreeMap<>();
        counts.forEach((k, n) -> {
            if (n > 1) {
                duplicates.put(k, n);
            }
        });
        assertThat(duplicates).as("dead letters written back more than once").isEmpty();
        assertThat(counts.keySet()).as("each dead letter written back").containsExactlyInAnyOrderElementsOf(keys);
    }

    /** Records per key on {@code topicNames}, from the beginning to the last stable offset, {@code read_committed}. */
    private Map<String, Integer> committedKeyCounts(List<String> topicNames) throws Exception {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Map<String, Integer> counts = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            topicNames.forEach(t -> consumer.partitionsFor(t, Duration.ofSeconds(30))
                    .forEach(p -> partitions.add(new TopicPartition(t, p.partition()))));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions); // read_committed: the last stable offsets
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                assertThat(System.nanoTime()).as("reading back the origin topics").isLessThan(deadline);
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    counts.merge(new String(r.key(), StandardCharsets.UTF_8), 1, Integer::sum);
                }
            }
        }
        return counts;
    }

    private static Map<TopicPartition, Long> endOffsets(Admin admin, List<String> topicNames) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(topicNames).allTopicNames().get(10, TimeUnit.SECONDS).values()
                .forEach(d -> d.partitions().forEach(p -> latest.put(new TopicPartition(d.name(), p.partition()),
                        OffsetSpec.latest())));
        Map<TopicPartition, Long> out = new HashMap<>();
        admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS).forEach((tp, info) -> out.put(tp, info.offset()));
        return out;
    }
}

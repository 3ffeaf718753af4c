package io.quotaflow.bench;

import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.dlq.DeadLetterReplayer;
import io.quotaflow.dlq.ReplayOptions;
import io.quotaflow.dlq.ReplaySummary;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.records.Priority;
import io.quotaflow.topology.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Scenario (k): how fast {@code quotaflow dlq replay} empties a dead-letter topic. On a fresh
 * in-process broker with the bundled topics it writes N small dead letters to {@code tickets.dlq}
 * (kind {@code retries-exhausted}, quotaflow's failure headers, origins spread over the three
 * priority topics), times a {@link DeadLetterReplayer} with {@code --kind retries-exhausted --rate 0},
 * checks with a {@code read_committed} consumer that every one is back on its origin topic exactly
 * once, then times a second replay group paced at {@code --rate} {@value #PACED_RATE} (the default
 * before replays went unpaced) over the first {@value Scenario#REPLAY_DEFAULT_RATE_RECORDS} records.
 */
final class ReplayBenchmark {

    static final String GROUP = "quotaflow-bench-replay";
    static final String DEFAULT_RATE_GROUP = "quotaflow-bench-replay-default-rate";
    /** The paced replay's {@code --rate}. */
    static final double PACED_RATE = 50;
    private static final String[] SUBJECTS = {"Charged twice", "Cannot log in", "Parcel not delivered", "App crashes on start",
            "Cobrança duplicada", "Não consigo entrar", "Pedido não chegou", "Question about my plan"};

    private final BenchmarkRunner.Listener listener;
    private final Duration timeout;

    ReplayBenchmark(BenchmarkRunner.Listener listener, Duration timeout) {
        this.listener = Objects.requireNonNull(listener, "listener");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** The origin topic of the {@code i}-th dead letter: half standard, 40 % bulk, 10 % interactive. */
    static Priority origin(int i) {
        int r = i % 10;
        return r == 0 ? Priority.INTERACTIVE : r <= 5 ? Priority.STANDARD : Priority.BULK;
    }

    /** The key of the {@code i}-th dead letter (0-based): {@code DL-000001} onwards. */
    static String key(int i) {
        return String.format(Locale.ROOT, "DL-%06d", i + 1);
    }

    /**
     * The {@code i}-th dead letter as quotaflow writes one after its retries ran out: a small ticket
     * JSON (about 150 bytes) with the failure headers of {@link FailureHeaders#forItem}.
     */
    static ProducerRecord<byte[], byte[]> deadLetter(int i, long nowMs) {
        String key = key(i);
        Priority origin = origin(i);
        String value = "{\"id\":\"" + key + "\",\"subject\":\"" + SUBJECTS[i % SUBJECTS.length] + "\",\"body\":\"Ticket " + key
                + " waited through a provider outage and was dead-lettered.\",\"tenant\":\"tenant-" + (i % 6) + "\"}";
        RecordHeaders h = new RecordHeaders();
        put(h, DeadLetterHeaders.VERSION, DeadLetterHeaders.SCHEMA_VERSION);
        put(h, DeadLetterHeaders.ATTEMPT, "8");
        put(h, DeadLetterHeaders.NOT_BEFORE, Long.toString(nowMs));
        put(h, DeadLetterHeaders.ENQUEUED_AT, Long.toString(nowMs - 3_600_000));
        put(h, DeadLetterHeaders.FIRST_FAILURE, Long.toString(nowMs - 3_500_000));
        put(h, DeadLetterHeaders.LAST_FAILURE, Long.toString(nowMs - 1_000));
        put(h, DeadLetterHeaders.ERROR_KIND, ErrorKind.RETRIES_EXHAUSTED.wire());
        put(h, DeadLetterHeaders.ERROR_STATUS, "503");
        put(h, DeadLetterHeaders.ERROR_MESSAGE, "HTTP 503: The server is overloaded or not ready yet.");
        put(h, DeadLetterHeaders.ORIGIN_TOPIC, origin.topic());
        put(h, DeadLetterHeaders.ORIGIN_PARTITION, Integer.toString(i % 6));
        put(h, DeadLetterHeaders.ORIGIN_OFFSET, Long.toString(i / 6));
        put(h, DeadLetterHeaders.REPLAY_COUNT, "0");
        return new ProducerRecord<>(Topics.DLQ.name(), null, nowMs, key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8), h);
    }

    private static void put(RecordHeaders h, String key, String value) {
        h.add(key, value.getBytes(StandardCharsets.UTF_8));
    }

    ScenarioResult run(Scenario scenario) {
        int n = scenario.tickets();
        listener.phase(scenario, "starting Kafka broker (KRaft, in-process)");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            String bootstrap = broker.bootstrapServers();
            try (Admin admin = KafkaClients.admin(bootstrap, Map.of())) {
                TopicsApplier.bundled().apply(admin);
            }
            listener.phase(scenario, "writing " + n + " dead letters to " + Topics.DLQ.name());
            long writeStart = System.currentTimeMillis();
            writeDeadLetters(bootstrap, n);
            listener.phase(scenario, "written in " + (System.currentTimeMillis() - writeStart) + " ms; replaying with --rate 0");

            ReplayOptions unlimited = ReplayOptions.builder().kinds(ErrorKind.RETRIES_EXHAUSTED.wire()).ratePerSecond(0).groupId(GROUP).build();
            ReplaySummary first = replay(scenario, bootstrap, unlimited);
            listener.phase(scenario, first.progressLine() + " in " + first.elapsed().toMillis() + " ms; checking the origin topics");
            Found found = readOrigins(bootstrap, n, first.replayed());

            int sample = Math.min(n, Scenario.REPLAY_DEFAULT_RATE_RECORDS);
            listener.phase(scenario, "replaying " + sample + " again at --rate " + (long) PACED_RATE
                    + " (group " + DEFAULT_RATE_GROUP + ")");
            ReplayOptions paced = ReplayOptions.builder().kinds(ErrorKind.RETRIES_EXHAUSTED.wire()).groupId(DEFAULT_RATE_GROUP)
                    .ratePerSecond(PACED_RATE)
                    .maxRecords(sample).build();
            ReplaySummary second = replay(scenario, bootstrap, paced);
            return result(scenario, n, first, found, paced.ratePerSecond(), second);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("writing the dead letters failed: " + e.getCause(), e.getCause());
        }
    }

    static ScenarioResult result(Scenario scenario, long n, ReplaySummary first, Found found, double defaultRate,
                                 ReplaySummary second) {
        long elapsed = Math.max(1, first.elapsed().toMillis());
        long pacedElapsed = Math.max(1, second.elapsed().toMillis());
        ScenarioFigures.Replay replay = new ScenarioFigures.Replay(n, first.replayed(), elapsed, first.replayed() * 1000.0 / elapsed,
                found.distinct(), found.duplicates(), first.outcome().name().toLowerCase(Locale.ROOT).replace('_', '-'),
                defaultRate, second.replayed(), pacedElapsed, second.replayed() * 1000.0 / pacedElapsed);
        ScenarioFigures figures = new ScenarioFigures(Scenario.Kind.DLQ_REPLAY.name(), null, n - found.distinct(), null, null, null,
                null, null, null, null, null, null, null, null, replay);
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "replay: %d small dead letters (retries-exhausted), --rate 0: %,d records in %s "
                        + "(%,.0f records/s), %d back on their origin topics, %d duplicated; --rate %s: %d records in %s "
                        + "(%.1f records/s)", n, first.replayed(), ResultTable.duration(elapsed), replay.recordsPerSecond(),
                found.distinct(), found.duplicates(), number(defaultRate), second.replayed(), ResultTable.duration(pacedElapsed),
                replay.defaultRateRecordsPerSecond()));
        return new ScenarioResult(scenario.key(), scenario.name(), scenario.description(), false, 0, scenario.rpm(), scenario.tpm(),
                scenario.simBurstSeconds(), scenario.binding(), n, null, null, null, found.duplicates(), null, null, 0, 0, 0, 0,
                elapsed, null, null, null, null, 0, 0, 0, notes, figures);
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private ReplaySummary replay(Scenario scenario, String bootstrap, ReplayOptions options) {
        DeadLetterReplayer replayer = new DeadLetterReplayer(bootstrap, Map.of(), options);
        long[] nextTick = {System.currentTimeMillis() + 5_000};
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        return replayer.run(progress -> {
            long now = System.currentTimeMillis();
            if (now >= nextTick[0]) {
                listener.phase(scenario, progress.progressLine());
                nextTick[0] = now + 5_000;
            }
            if (now > deadline) {
                replayer.requestStop();
            }
        });
    }

    private static void writeDeadLetters(String bootstrap, int n) throws InterruptedException, ExecutionException {
        Map<String, Object> p = KafkaClients.properties(Map.of(
                ProducerConfig.CLIENT_ID_CONFIG, "quotaflow-bench-dead-letters",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"), bootstrap, Map.of());
        long now = System.currentTimeMillis();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            List<Future<?>> sent = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                sent.add(producer.send(deadLetter(i, now)));
            }
            producer.flush();
            for (Future<?> f : sent) {
                f.get();
            }
        }
    }

    /** Distinct dead-letter keys found on the origin topics, and records beyond one per key. */
    record Found(long distinct, long duplicates) {
    }

    /** Reads the three priority topics ({@code read_committed}) until {@code expected} records or 15 s without any. */
    private static Found readOrigins(String bootstrap, int deadLetters, long expected) {
        Map<String, Object> p = KafkaClients.properties(Map.of(ConsumerConfig.CLIENT_ID_CONFIG, "quotaflow-bench-replay-check"),
                bootstrap, Map.of());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
        Map<String, Integer> seen = new HashMap<>();
        long records = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (Priority pr : Priority.values()) {
                consumer.partitionsFor(pr.topic(), Duration.ofSeconds(30))
                        .forEach(pi -> partitions.add(new TopicPartition(pi.topic(), pi.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long idleSince = System.currentTimeMillis();
            while (records < expected && System.currentTimeMillis() - idleSince < 15_000) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    records++;
                    idleSince = System.currentTimeMillis();
                    seen.merge(new String(r.key(), StandardCharsets.UTF_8), 1, Integer::sum);
                }
            }
        }
        long distinct = 0;
        for (int i = 0; i < deadLetters; i++) {
            if (seen.containsKey(key(i))) {
                distinct++;
            }
        }
        long duplicates = seen.values().stream().mapToLong(c -> c - 1L).sum();
        return new Found(distinct, duplicates);
    }
}

package io.quotaflow.dlq;

import org.apache.kafka.common.utils.Time;
import io.quotaflow.records.DeadLetterHeaders;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.cli.DlqCommand;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.testkit.KafkaBrokerExtension;
import io.quotaflow.topology.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link DeadLetterStats}, {@link DeadLetterReplayer} and the {@code quotaflow dlq} command line on
 * the shared in-process broker and the real topic
 * names. Other tests write to the same topics, so each test writes its dead letters with a key
 * prefix of its own and timestamps in a time window of its own (days in the past), filters its
 * replays on that window and counts only its own keys.
 */
@Order(12) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
@ExtendWith(KafkaBrokerExtension.class)
class DeadLetterReplayIT {

    private static final String INTERACTIVE = Topics.INTERACTIVE.name();
    private static final String STANDARD = Topics.STANDARD.name();
    private static final String DLQ = Topics.DLQ.name();
    private static final AtomicLong WINDOWS = new AtomicLong();

    private static Admin admin;
    private static String bootstrap;

    @BeforeAll
    static void topics() {
        bootstrap = KafkaBrokerExtension.bootstrapServers();
        admin = KafkaBrokerExtension.admin();
        TopicsApplier.bundled().apply(admin);
    }

    @AfterAll
    static void close() {
        admin.close();
    }

    /** One test's dead letters: key prefix, time window and what was written where. */
    record Written(String prefix, Instant since, Instant until, Map<String, ConsumerRecord<byte[], byte[]>> byKey) {
    }

    /**
     * Writes 30 dead letters in one transaction (as the pipeline does) plus 2 outside the time
     * window. Ticket i: origin interactive (even) or standard (odd); retries-exhausted with status
     * 503/529 (i &lt; 20) or bad-input with status 0; replayed once before (i = 3, 4) or three times
     * (i = 5, over the default --max-replays); a non-qf tracing header on every third.
     */
    private static Written writeDeadLetters() throws Exception {
        String prefix = KafkaBrokerExtension.uniqueName("dlq");
        // a window of its own, days in the past: replays filtered on it see only this test's records
        Instant since = Instant.now().minus(Duration.ofDays(2)).minus(Duration.ofHours(WINDOWS.incrementAndGet()))
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Instant until = since.plus(Duration.ofMinutes(5));
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            records.add(deadLetter(prefix + "-" + i, since.plusSeconds(i), i));
        }
        records.add(deadLetter(prefix + "-early", since.minusSeconds(1), 0));
        records.add(deadLetter(prefix + "-late", until, 0));

        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, prefix + "-writer");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            List<java.util.concurrent.Future<RecordMetadata>> sent = new ArrayList<>();
            records.forEach(r -> sent.add(producer.send(r)));
            producer.commitTransaction();
            Map<String, ConsumerRecord<byte[], byte[]>> byKey = new LinkedHashMap<>();
            for (int i = 0; i < records.size(); i++) {
                ProducerRecord<byte[], byte[]> r = records.get(i);
                RecordMetadata m = sent.get(i).get();
                ConsumerRecord<byte[], byte[]> asRead = new ConsumerRecord<>(DLQ, m.partition(), m.offset(),
                        r.timestamp(), org.apache.kafka.common.record.TimestampType.CREATE_TIME, 0, 0, r.key(),
                        r.value(), r.headers(), java.util.Optional.empty());
                byKey.put(new String(r.key(), StandardCharsets.UTF_8), asRead);
            }
            awaitReadCommitted(byKey.values());
            return new Written(prefix, since, until, byKey);
        }
    }

    /**
     * Waits until a {@code read_committed} reader can see {@code written}: the topic is shared with the ITs running
     * beside this one, and an open transaction of theirs holds the partition's last stable offset back until it ends.
     */
    private static void awaitReadCommitted(java.util.Collection<ConsumerRecord<byte[], byte[]>> written) {
        Map<org.apache.kafka.common.TopicPartition, Long> last = new HashMap<>();
        written.forEach(r -> last.merge(new org.apache.kafka.common.TopicPartition(r.topic(), r.partition()), r.offset(), Math::max));
        Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> specs = new HashMap<>();
        last.keySet().forEach(tp -> specs.put(tp, org.apache.kafka.clients.admin.OffsetSpec.latest()));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            var stable = admin.listOffsets(specs, new org.apache.kafka.clients.admin.ListOffsetsOptions(
                    org.apache.kafka.common.IsolationLevel.READ_COMMITTED)).all().get(30, java.util.concurrent.TimeUnit.SECONDS);
            return last.entrySet().stream().allMatch(e -> stable.get(e.getKey()).offset() > e.getValue());
        });
    }

    private static ProducerRecord<byte[], byte[]> deadLetter(String key, Instant timestamp, int i) {
        boolean exhausted = i < 20;
        RecordHeaders h = new RecordHeaders();
        put(h, DeadLetterHeaders.VERSION, "1");
        put(h, DeadLetterHeaders.ATTEMPT, exhausted ? "5" : "0");
        put(h, DeadLetterHeaders.ERROR_KIND, exhausted ? ErrorKind.RETRIES_EXHAUSTED.wire() : ErrorKind.BAD_INPUT.wire());
        put(h, DeadLetterHeaders.ERROR_STATUS, exhausted ? (i % 2 == 0 ? "503" : "529") : "0");
        put(h, DeadLetterHeaders.ERROR_MESSAGE, exhausted
                ? "HTTP " + (i % 2 == 0 ? "503" : "529") + ": overloaded (" + key.substring(0, key.lastIndexOf('-')) + ")"
                : "not a JSON object (" + key.substring(0, key.lastIndexOf('-')) + ")");
        put(h, DeadLetterHeaders.ORIGIN_TOPIC, i % 2 == 0 ? INTERACTIVE : STANDARD);
        put(h, DeadLetterHeaders.ORIGIN_PARTITION, "0");
        put(h, DeadLetterHeaders.ORIGIN_OFFSET, Integer.toString(100 + i));
        put(h, DeadLetterHeaders.REPLAY_COUNT, i == 3 || i == 4 ? "1" : i == 5 ? "3" : "0");
        if (i % 3 == 0) {
            put(h, "traceparent", "00-" + i + "-01");
        }
        byte[] value = exhausted
                ? ("{\"id\":\"" + key + "\",\"subject\":\"Fatura duplicada\",\"body\":\"Cobrança em dobro — urgente\"}")
                        .getBytes(StandardCharsets.UTF_8)
                : new byte[] {'n', 'o', 't', ' ', 'j', 's', 'o', 'n', (byte) 0xff};
        return new ProducerRecord<>(DLQ, null, timestamp.toEpochMilli(), key.getBytes(StandardCharsets.UTF_8), value, h);
    }

    private static void put(RecordHeaders h, String key, String value) {
        h.add(key, value.getBytes(StandardCharsets.UTF_8));
    }

    private static ReplayOptions.Builder options(Written w, String group) {
        return ReplayOptions.builder().since(w.since()).until(w.until()).groupId(group).ratePerSecond(0);
    }

    private static Map<TopicPartition, Long> endOffsets(String... topics) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (var d : admin.describeTopics(List.of(topics)).allTopicNames().get(30, TimeUnit.SECONDS).values()) {
            d.partitions().forEach(p -> request.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest()));
        }
        return admin.listOffsets(request).all().get(30, TimeUnit.SECONDS).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    /** Committed records of the given partitions from the given offsets to their current end, keyed by nothing. */
    private static List<ConsumerRecord<byte[], byte[]>> readFrom(Map<TopicPartition, Long> from) throws Exception {
        Map<TopicPartition, Long> ends = endOffsets(from.keySet().stream().map(TopicPartition::topic).distinct()
                .toArray(String[]::new));
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(from.keySet());
            from.forEach(consumer::seek);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (from.keySet().stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                assertThat(System.nanoTime()).as("reading back the origin topics").isLessThan(deadline);
                consumer.poll(Duration.ofMillis(100)).forEach(out::add);
            }
        }
        return out;
    }

    private static List<ConsumerRecord<byte[], byte[]>> mine(List<ConsumerRecord<byte[], byte[]>> records, String prefix) {
        return records.stream().filter(r -> r.key() != null && key(r).startsWith(prefix + "-")).toList();
    }

    private static String key(ConsumerRecord<byte[], byte[]> r) {
        return new String(r.key(), StandardCharsets.UTF_8);
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        return FailureHeaders.string(r.headers(), name).orElse(null);
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(String group) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetAndMetadata> present = new HashMap<>();
        offsets.forEach((tp, o) -> {
            if (o != null) {
                present.put(tp, o);
            }
        });
        return present;
    }

    // ---------------------------------------------------------------- stats

    @Test
    void statsShouldCountTheDeadLettersByKindStatusOriginAndMessage() throws Exception {
        DeadLetterReport before;
        try (DeadLetterStats stats = new DeadLetterStats(bootstrap, Map.of())) {
            before = stats.read();
        }
        Written w = writeDeadLetters();
        // commitTransaction returns before every partition has its commit marker: the read_committed
        // end (the last stable offset) can trail for a moment, so read until the new records are visible
        DeadLetterReport after;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        do {
            try (DeadLetterStats stats = new DeadLetterStats(bootstrap, Map.of())) {
                after = stats.read();
            }
        } while (after.total() - before.total() < 32 && System.nanoTime() < deadline);

        assertThat(after.topic()).isEqualTo(DLQ);
        assertThat(after.total() - before.total()).isEqualTo(32);
        assertThat(delta(before.byKind(), after.byKind()))
                .containsOnly(Map.entry(ErrorKind.RETRIES_EXHAUSTED.wire(), 22L), Map.entry(ErrorKind.BAD_INPUT.wire(), 10L));
        assertThat(delta(before.byStatus(), after.byStatus()))
                .containsOnly(Map.entry("503", 12L), Map.entry("529", 10L), Map.entry("0", 10L));
        assertThat(delta(before.byOriginTopic(), after.byOriginTopic()))
                .containsOnly(Map.entry(INTERACTIVE, 17L), Map.entry(STANDARD, 15L));
        assertThat(after.replayed() - before.replayed()).isEqualTo(3);
        assertThat(delta(before.byReplayCount(), after.byReplayCount()))
                .containsOnly(Map.entry("0", 29L), Map.entry("1", 2L), Map.entry("3", 1L));
        // each test writes three messages of its own, 12, 10 and 10 times: the 12 stays in the top ten
        // as long as fewer than ten tests of this run wrote dead letters
        assertThat(after.topMessages()).hasSizeLessThanOrEqualTo(DeadLetterStats.TOP_MESSAGES)
                .contains(new DeadLetterReport.MessageCount("HTTP 503: overloaded (" + w.prefix() + ")", 12));
        assertThat(after.topMessages()).filteredOn(m -> m.message().contains(w.prefix()))
                .allMatch(m -> m.count() == (m.message().startsWith("HTTP 503") ? 12 : 10));
        assertThat(after.oldest()).isBeforeOrEqualTo(w.since().minusSeconds(1));
        assertThat(after.newest()).isAfterOrEqualTo(w.until());
        assertThat(after.toJson().path("oldest").asText()).isEqualTo(after.oldest().toString());
    }

    private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> out = new HashMap<>();
        after.forEach((k, v) -> {
            long d = v - before.getOrDefault(k, 0L);
            if (d != 0) {
                out.put(k, d);
            }
        });
        return out;
    }

    // ---------------------------------------------------------------- replay

    @Test
    void dryRunShouldCountWithoutWritingOrCommitting() throws Exception {
        Written w = writeDeadLetters();
        String group = KafkaBrokerExtension.uniqueName("dry");
        Map<TopicPartition, Long> originsBefore = endOffsets(INTERACTIVE, STANDARD);

        ReplaySummary summary = new DeadLetterReplayer(bootstrap, Map.of(),
                options(w, group).kinds(ErrorKind.RETRIES_EXHAUSTED.wire()).dryRun(true).build()).run();

        assertThat(summary.dryRun()).isTrue();
        assertThat(summary.outcome()).isEqualTo(ReplaySummary.Outcome.COMPLETED);
        assertThat(summary.replayed()).isEqualTo(19);
        assertThat(summary.skippedMaxReplays()).isEqualTo(1);
        assertThat(summary.replayedByTopic()).containsOnly(Map.entry(INTERACTIVE, 10L), Map.entry(STANDARD, 9L));
        assertThat(summary.replayedByKind()).containsOnly(Map.entry(ErrorKind.RETRIES_EXHAUSTED.wire(), 19L));
        assertThat(summary.examined()).isEqualTo(summary.replayed() + summary.skippedByFilter() + summary.skippedMaxReplays());
        assertThat(endOffsets(INTERACTIVE, STANDARD)).isEqualTo(originsBefore);
        assertThat(committed(group)).isEmpty();
    }

    @Test
    void replayByKindShouldWriteExactlyThoseRecordsBackWithTheirBytesAndReplayHeaders() throws Exception {
        Written w = writeDeadLetters();
        String group = KafkaBrokerExtension.uniqueName("kind");
        Map<TopicPartition, Long> originsBefore = endOffsets(INTERACTIVE, STANDARD);

        ReplaySummary summary = new DeadLetterReplayer(bootstrap, Map.of(),
                options(w, group).kinds(ErrorKind.RETRIES_EXHAUSTED.wire()).build()).run();

        assertThat(summary.dryRun()).isFalse();
        assertThat(summary.outcome()).isEqualTo(ReplaySummary.Outcome.COMPLETED);
        assertThat(summary.replayed()).isEqualTo(19);
        assertThat(summary.skippedMaxReplays()).isEqualTo(1);
        assertThat(summary.replayedByTopic()).containsOnly(Map.entry(INTERACTIVE, 10L), Map.entry(STANDARD, 9L));

        List<ConsumerRecord<byte[], byte[]>> replayed = mine(readFrom(originsBefore), w.prefix());
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            if (i != 5) {
                expected.add(w.prefix() + "-" + i);
            }
        }
        assertThat(replayed).extracting(DeadLetterReplayIT::key).containsExactlyInAnyOrderElementsOf(expected);
        for (ConsumerRecord<byte[], byte[]> r : replayed) {
            ConsumerRecord<byte[], byte[]> dead = w.byKey().get(key(r));
            assertThat(r.topic()).isEqualTo(header(dead, DeadLetterHeaders.ORIGIN_TOPIC));
            assertThat(r.value()).isEqualTo(dead.value());
            assertThat(header(r, DeadLetterHeaders.REPLAY_OF)).isEqualTo(dead.partition() + ":" + dead.offset());
            assertThat(Integer.parseInt(header(r, DeadLetterHeaders.REPLAY_COUNT)))
                    .isEqualTo(Integer.parseInt(header(dead, DeadLetterHeaders.REPLAY_COUNT)) + 1);
            List<String> names = new ArrayList<>();
            for (Header h : r.headers()) {
                names.add(h.key());
            }
            List<String> expectedNames = new ArrayList<>(List.of(DeadLetterHeaders.REPLAY_COUNT, DeadLetterHeaders.REPLAY_OF));
            if (header(dead, "traceparent") != null) {
                expectedNames.add("traceparent");
                assertThat(header(r, "traceparent")).isEqualTo(header(dead, "traceparent"));
            }
            assertThat(names).containsExactlyInAnyOrderElementsOf(expectedNames);
        }

        // the group's offsets moved to the end captured at start, and a second run finds nothing to do
        assertThat(committed(group)).isNotEmpty();
        ReplaySummary again = new DeadLetterReplayer(bootstrap, Map.of(),
                options(w, group).kinds(ErrorKind.RETRIES_EXHAUSTED.wire()).build()).run();
        assertThat(again.replayed()).isZero();
        assertThat(mine(readFrom(originsBefore), w.prefix())).hasSize(19);
    }

    @Test
    void anInterruptedReplayShouldResumeWithoutDuplicatesOrLosses() throws Exception {
        Written w = writeDeadLetters();
        String group = KafkaBrokerExtension.uniqueName("resume");
        Map<TopicPartition, Long> originsBefore = endOffsets(INTERACTIVE, STANDARD);

        // 1: stops after 7 replayed records
        ReplaySummary first = new DeadLetterReplayer(bootstrap, Map.of(), options(w, group).maxRecords(7).build()).run();
        assertThat(first.outcome()).isEqualTo(ReplaySummary.Outcome.MAX_RECORDS);
        assertThat(first.replayed()).isEqualTo(7);
        assertThat(mine(readFrom(originsBefore), w.prefix())).hasSize(7);

        // 2: crashes in the middle of a transaction: 5 records sent, then no commit and no abort
        AtomicInteger sends = new AtomicInteger();
        ReplayOptions crashing = options(w, group).build();
        DeadLetterReplayer crashes = new DeadLetterReplayer(crashing,
                () -> new KafkaConsumer<>(DlqClients.consumerConfig(bootstrap, Map.of(), "it", group, 500),
                        new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                () -> crashAfter(5, sends, new KafkaProducer<>(DlqClients.producerConfig(bootstrap, Map.of(), "it",
                        crashing.transactionalId()), new ByteArraySerializer(), new ByteArraySerializer())),
                Time.SYSTEM);
        assertThatThrownBy(crashes::run).isInstanceOf(DeadLetterException.class).hasMessageContaining("simulated crash");
        assertThat(sends.get()).isEqualTo(6);

        // 3: stopped on request (Ctrl+C) after at least 6 more; batches of 3 make the stop prompt
        ReplayOptions stopping = options(w, group).build();
        DeadLetterReplayer third = new DeadLetterReplayer(stopping,
                () -> new KafkaConsumer<>(DlqClients.consumerConfig(bootstrap, Map.of(), "it", group, 3),
                        new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                () -> new KafkaProducer<>(DlqClients.producerConfig(bootstrap, Map.of(), "it",
                        stopping.transactionalId()), new ByteArraySerializer(), new ByteArraySerializer()),
                Time.SYSTEM);
        ReplaySummary stopped = third.run(progress -> {
            if (progress.replayed() >= 6) {
                third.requestStop();
            }
        });
        assertThat(stopped.outcome()).isEqualTo(ReplaySummary.Outcome.STOPPED);
        assertThat(stopped.replayed()).isBetween(6L, 8L);
        assertThat(stopped.remaining()).isPositive();

        // 4: finishes
        ReplaySummary last = new DeadLetterReplayer(bootstrap, Map.of(), options(w, group).build()).run();
        assertThat(last.outcome()).isEqualTo(ReplaySummary.Outcome.COMPLETED);
        assertThat(last.remaining()).isZero();

        List<String> replayedKeys = mine(readFrom(originsBefore), w.prefix()).stream().map(DeadLetterReplayIT::key).toList();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) { // 20..29 are bad-input: held back without --force
            if (i != 5) {
                expected.add(w.prefix() + "-" + i);
            }
        }
        assertThat(replayedKeys).as("each selected dead letter exactly once").containsExactlyInAnyOrderElementsOf(expected);
        Map<String, Long> counts = replayedKeys.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(counts.values()).containsOnly(1L);
    }


    // ---------------------------------------------------------------- the command line

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Exit code and output of {@code quotaflow dlq ARGS}, run in-process. */
    record Cli(int exitCode, String out, String err) {
    }

    private static Cli cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new DlqCommand())
                .setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true)).execute(args);
        return new Cli(exit, out.toString().replace(System.lineSeparator(), "\n"),
                err.toString().replace(System.lineSeparator(), "\n"));
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void theCliShouldPrintStatsThenDryRunThenReplayTheSelectedKeys() throws Exception {
        String prefix = KafkaBrokerExtension.uniqueName("cli-dlq");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 3; i++) {
                RecordHeaders h = new RecordHeaders();
                h.add(DeadLetterHeaders.ERROR_KIND, "retries-exhausted".getBytes(StandardCharsets.UTF_8));
                h.add(DeadLetterHeaders.ERROR_STATUS, "503".getBytes(StandardCharsets.UTF_8));
                h.add(DeadLetterHeaders.ERROR_MESSAGE, ("HTTP 503 " + prefix).getBytes(StandardCharsets.UTF_8));
                h.add(DeadLetterHeaders.ORIGIN_TOPIC, "tickets.bulk".getBytes(StandardCharsets.UTF_8));
                producer.send(new ProducerRecord<>(DLQ, null, (prefix + "-" + i).getBytes(StandardCharsets.UTF_8),
                        ("{\"id\":\"" + prefix + "-" + i + "\",\"body\":\"x\"}").getBytes(StandardCharsets.UTF_8), h));
            }
            producer.flush();
        }

        Cli stats = cli("stats", "--bootstrap-servers", bootstrap, "--json");
        assertThat(stats.exitCode()).as(stats.err()).isZero();
        JsonNode report = MAPPER.readTree(stats.out());
        assertThat(report.path("total").asLong()).isGreaterThanOrEqualTo(3);
        assertThat(report.path("byOriginTopic").path("tickets.bulk").asLong()).isGreaterThanOrEqualTo(3);

        Cli table = cli("stats", "--bootstrap-servers", bootstrap);
        assertThat(table.exitCode()).isZero();
        assertThat(table.out()).startsWith("tickets.dlq: ").contains("error kind", "origin topic", "top error messages");

        String group = KafkaBrokerExtension.uniqueName("cli-replay");
        String[] select = {"--bootstrap-servers", bootstrap, "--group", group, "--key", prefix + "-0", "--key",
                prefix + "-2", "--rate", "0"};
        Cli dry = cli(concat(new String[] {"replay", "--dry-run"}, select));
        assertThat(dry.exitCode()).as(dry.err()).isZero();
        assertThat(dry.out()).startsWith("Dry run complete").containsPattern("would be replayed +2\n")
                .containsPattern("tickets.bulk +2\n");
        assertThat(dry.err()).contains("Dry run of a replay of tickets.dlq (group " + group);

        Cli real = cli(concat(new String[] {"replay", "--json"}, select));
        assertThat(real.exitCode()).as(real.err()).isZero();
        JsonNode summary = MAPPER.readTree(real.out());
        assertThat(summary.path("outcome").asText()).isEqualTo("completed");
        assertThat(summary.path("replayed").asLong()).isEqualTo(2);
        assertThat(summary.path("replayedByTopic").path("tickets.bulk").asLong()).isEqualTo(2);

        Cli again = cli(concat(new String[] {"replay", "--json"}, select));
        assertThat(MAPPER.readTree(again.out()).path("replayed").asLong()).as("the group's offsets moved on").isZero();

        Cli missing = cli("stats", "--bootstrap-servers", bootstrap, "--topic",
                KafkaBrokerExtension.uniqueName("absent"));
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("does not exist");
    }


    // ---------------------------------------------------------------- defaults, --force, show

    @Test
    void aReplayWithTheDefaultOptionsShouldNotBeThrottled() throws Exception {
        String prefix = KafkaBrokerExtension.uniqueName("fast");
        Instant since = Instant.now().minus(Duration.ofDays(5)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        int n = 1_000;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < n; i++) {
                producer.send(deadLetter(prefix + "-" + i, since.plusMillis(i), 0));
            }
            producer.flush();
        }
        Map<TopicPartition, Long> originsBefore = endOffsets(INTERACTIVE, STANDARD);
        ReplayOptions defaults = ReplayOptions.builder().since(since).until(since.plusSeconds(5))
                .groupId(KafkaBrokerExtension.uniqueName("fast-group")).build();
        assertThat(defaults.ratePerSecond()).as("the default").isZero();

        long started = System.nanoTime();
        ReplaySummary summary = new DeadLetterReplayer(bootstrap, Map.of(), defaults).run();
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(summary.outcome()).isEqualTo(ReplaySummary.Outcome.COMPLETED);
        assertThat(summary.replayed()).isEqualTo(n);
        assertThat(mine(readFrom(originsBefore), prefix)).hasSize(n);
        // at the old default of 50 records/s this took n / 50 = 20 s
        assertThat(took).as("replay of %d records", n).isLessThan(Duration.ofSeconds(n / 50 / 2));
    }

    @Test
    void badInputShouldBeHeldBackUnlessForcedAndSayWhy() throws Exception {
        Written w = writeDeadLetters();
        String group = KafkaBrokerExtension.uniqueName("force");
        Map<TopicPartition, Long> originsBefore = endOffsets(INTERACTIVE, STANDARD);
        String[] window = {"--bootstrap-servers", bootstrap, "--group", group, "--since", w.since().toString(),
            "--until", w.until().toString()};

        Cli plain = cli(concat(new String[] {"replay"}, window));
        assertThat(plain.exitCode()).as(plain.err()).isZero();
        assertThat(plain.out()).containsPattern("\n  replayed +19\n").containsPattern("\n  skipped \\(need --force\\) +10\n")
                .contains("held back (need --force):\n");
        assertThat(plain.err()).contains("dlq replay: held back 10 bad-input dead letters: the value is not a valid ticket")
                .contains("quotaflow dlq replay --kind bad-input --force --reset");
        List<String> afterPlain = mine(readFrom(originsBefore), w.prefix()).stream().map(DeadLetterReplayIT::key).toList();
        assertThat(afterPlain).hasSize(19).noneMatch(k -> Integer.parseInt(k.substring(k.lastIndexOf('-') + 1)) >= 20);

        Cli forced = cli(concat(new String[] {"replay", "--kind", "bad-input", "--force", "--reset", "--json"}, window));
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        JsonNode summary = MAPPER.readTree(forced.out());
        assertThat(summary.path("replayed").asLong()).isEqualTo(10);
        assertThat(summary.path("skippedNeedsForce").size()).isZero();
        assertThat(forced.err()).doesNotContain("held back");
        List<String> bad = mine(readFrom(originsBefore), w.prefix()).stream().map(DeadLetterReplayIT::key)
                .filter(k -> Integer.parseInt(k.substring(k.lastIndexOf('-') + 1)) >= 20).toList();
        assertThat(bad).hasSize(10).doesNotHaveDuplicates();
    }

    @Test
    void showShouldPrintDeadLettersWithTheirHeaders() throws Exception {
        Written w = writeDeadLetters();
        String p = w.prefix();
        ConsumerRecord<byte[], byte[]> third = w.byKey().get(p + "-3");

        Cli one = cli("show", "--bootstrap-servers", bootstrap, "--key", p + "-3");
        assertThat(one.exitCode()).as(one.err()).isZero();
        assertThat(one.out()).startsWith(DLQ + " " + third.partition() + ":" + third.offset() + "  "
                        + Instant.ofEpochMilli(third.timestamp()) + "  key " + p + "-3\n")
                .containsPattern("\n  qf.error.kind +retries-exhausted\n")
                .containsPattern("\n  qf.error.status +529\n")
                .containsPattern("\n  qf.error.message +HTTP 529: overloaded \\(" + p + "\\)\n")
                .containsPattern("\n  qf.origin.topic +tickets.standard\n")
                .containsPattern("\n  qf.replay.count +1\n")
                .containsPattern("\n  traceparent +00-3-01\n")
                .containsPattern("\n  value \\(\\d+ bytes\\) +\\{\"id\":\"" + p + "-3\"");

        Cli byOffset = cli("show", "--bootstrap-servers", bootstrap, "--offset", third.partition() + ":" + third.offset());
        assertThat(byOffset.exitCode()).as(byOffset.err()).isZero();
        assertThat(byOffset.out()).isEqualTo(one.out());

        String[] mineOnly = new String[30];
        for (int i = 0; i < 30; i++) {
            mineOnly[i] = "--key=" + p + "-" + i;
        }
        Cli kind = cli(concat(new String[] {"show", "--bootstrap-servers", bootstrap, "--kind", "bad-input", "--max", "50"},
                mineOnly));
        assertThat(kind.exitCode()).as(kind.err()).isZero();
        assertThat(kind.out().split("\n")).filteredOn(l -> l.startsWith(DLQ + " ")).hasSize(10);
        assertThat(kind.out()).doesNotContain("retries-exhausted").contains("value (9 bytes, not UTF-8)  base64:");

        Cli json = cli(concat(new String[] {"show", "--bootstrap-servers", bootstrap, "--max", "4", "--json"}, mineOnly));
        assertThat(json.exitCode()).as(json.err()).isZero();
        List<String> lines = json.out().lines().toList();
        assertThat(lines).hasSize(4);
        for (String line : lines) {
            JsonNode d = MAPPER.readTree(line);
            ConsumerRecord<byte[], byte[]> written = w.byKey().get(d.path("key").asText());
            assertThat(written).as(line).isNotNull();
            assertThat(d.path("partition").asInt()).isEqualTo(written.partition());
            assertThat(d.path("offset").asLong()).isEqualTo(written.offset());
            assertThat(d.path("headers").path(DeadLetterHeaders.ERROR_KIND).asText())
                    .isEqualTo(header(written, DeadLetterHeaders.ERROR_KIND));
            assertThat(d.path("headers").path(DeadLetterHeaders.ORIGIN_OFFSET).asText())
                    .isEqualTo(header(written, DeadLetterHeaders.ORIGIN_OFFSET));
            assertThat(d.path("valueBytes").asInt()).isEqualTo(written.value().length);
        }

        Cli none = cli("show", "--bootstrap-servers", bootstrap, "--key", p + "-absent");
        assertThat(none.exitCode()).isEqualTo(1);
        assertThat(none.out()).isEmpty();
        assertThat(none.err()).contains("no dead letter in tickets.dlq matched (filters: key in [" + p + "-absent])");
    }

    /** A producer that throws on send number {@code n + 1} and then refuses to abort: a crash mid-transaction. */
    @SuppressWarnings("unchecked")
    private static Producer<byte[], byte[]> crashAfter(int n, AtomicInteger sends, Producer<byte[], byte[]> real) {
        return (Producer<byte[], byte[]>) Proxy.newProxyInstance(Producer.class.getClassLoader(),
                new Class<?>[] {Producer.class}, (proxy, method, args) -> {
                    if (method.getName().equals("send") && sends.incrementAndGet() > n) {
                        throw new KafkaException("simulated crash");
                    }
                    if (method.getName().equals("abortTransaction")) {
                        throw new KafkaException("simulated crash: no abort");
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}

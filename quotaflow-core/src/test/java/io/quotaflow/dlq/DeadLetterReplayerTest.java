package io.quotaflow.dlq;

import io.quotaflow.testkit.ManualTime;
import org.apache.kafka.common.utils.Time;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.failure.FailureHeaders;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The per-record rules (Kafka-free) and the replay loop on a MockConsumer and a MockProducer. */
class DeadLetterReplayerTest {

    private static final String DLQ = "tickets.dlq";

    private static ConsumerRecord<byte[], byte[]> deadLetter(int partition, long offset, long timestamp, String key,
                                                             String kind, String status, String origin, String replayCount) {
        RecordHeaders h = new RecordHeaders();
        add(h, DeadLetterHeaders.VERSION, "1");
        add(h, DeadLetterHeaders.ATTEMPT, "5");
        if (kind != null) {
            add(h, DeadLetterHeaders.ERROR_KIND, kind);
        }
        if (status != null) {
            add(h, DeadLetterHeaders.ERROR_STATUS, status);
        }
        add(h, DeadLetterHeaders.ERROR_MESSAGE, "HTTP 503: overloaded");
        if (origin != null) {
            add(h, DeadLetterHeaders.ORIGIN_TOPIC, origin);
            add(h, DeadLetterHeaders.ORIGIN_PARTITION, "2");
            add(h, DeadLetterHeaders.ORIGIN_OFFSET, "77");
        }
        if (replayCount != null) {
            add(h, DeadLetterHeaders.REPLAY_COUNT, replayCount);
            add(h, DeadLetterHeaders.REPLAY_OF, "0:1");
        }
        add(h, "traceparent", "00-abc-01");
        return new ConsumerRecord<>(DLQ, partition, offset, timestamp, TimestampType.CREATE_TIME, 0, 0,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                ("{\"id\":\"" + key + "\",\"body\":\"Cobrança — ü\"}").getBytes(StandardCharsets.UTF_8), h,
                Optional.empty());
    }

    private static ConsumerRecord<byte[], byte[]> deadLetter(int partition, long offset, String key, String kind,
                                                             String replayCount) {
        return deadLetter(partition, offset, 1_000, key, kind, "503", "tickets.interactive", replayCount);
    }

    private static void add(RecordHeaders h, String key, String value) {
        h.add(key, value.getBytes(StandardCharsets.UTF_8));
    }

    private static String header(ProducerRecord<byte[], byte[]> r, String name) {
        return FailureHeaders.string(r.headers(), name).orElse(null);
    }

    // ---------------------------------------------------------------- rules

    @Test
    void shouldRewriteTheHeadersForAFreshStartAndKeepKeyAndValueBytes() {
        ConsumerRecord<byte[], byte[]> dead = deadLetter(2, 41, 1_000, "T-1", "retries-exhausted", "503",
                "tickets.interactive", "1");

        ProducerRecord<byte[], byte[]> replay = ReplayRecords.replayRecord(dead);

        assertThat(replay.topic()).isEqualTo("tickets.interactive");
        assertThat(replay.partition()).as("partitioned by key, as when first published").isNull();
        assertThat(replay.timestamp()).as("stamped by the producer").isNull();
        assertThat(replay.key()).isEqualTo(dead.key());
        assertThat(replay.value()).isEqualTo(dead.value());
        assertThat(header(replay, DeadLetterHeaders.REPLAY_COUNT)).isEqualTo("2");
        assertThat(header(replay, DeadLetterHeaders.REPLAY_OF)).isEqualTo("2:41");
        List<String> names = new ArrayList<>();
        for (Header h : replay.headers()) {
            names.add(h.key());
        }
        assertThat(names).containsExactly("traceparent", DeadLetterHeaders.REPLAY_COUNT, DeadLetterHeaders.REPLAY_OF);
    }

    @Test
    void shouldStartTheReplayCountAtOneWhenTheHeaderIsMissingOrUnreadable() {
        assertThat(header(ReplayRecords.replayRecord(deadLetter(0, 0, "T-1", "bad-input", null)),
                DeadLetterHeaders.REPLAY_COUNT)).isEqualTo("1");
        assertThat(header(ReplayRecords.replayRecord(deadLetter(0, 0, "T-1", "bad-input", "x")),
                DeadLetterHeaders.REPLAY_COUNT)).isEqualTo("1");
        assertThat(header(ReplayRecords.replayRecord(deadLetter(0, 0, "T-1", "bad-input", "-4")),
                DeadLetterHeaders.REPLAY_COUNT)).isEqualTo("1");
    }

    @Test
    void shouldReplayToTheOriginPriorityTopicElseToStandard() {
        for (String origin : List.of("tickets.interactive", "tickets.standard", "tickets.bulk")) {
            assertThat(ReplayRecords.replayRecord(deadLetter(0, 0, 1, "T", "k", "0", origin, null)).topic())
                    .isEqualTo(origin);
        }
        for (String origin : new String[] {null, "tickets.retry", "tickets.dlq", "tickets.classified", "elsewhere", ""}) {
            assertThat(ReplayRecords.replayRecord(deadLetter(0, 0, 1, "T", "k", "0", origin, null)).topic())
                    .as(String.valueOf(origin)).isEqualTo("tickets.standard");
        }
    }

    @Test
    void shouldSkipFilteredRecordsAndRecordsReplayedMaxReplaysTimes() {
        ReplayOptions options = ReplayOptions.builder().kinds("retries-exhausted").maxReplays(3).build();

        assertThat(ReplaySelector.decide(deadLetter(0, 0, "T", "bad-input", "0"), options))
                .isEqualTo(ReplayDecision.FILTERED);
        assertThat(ReplaySelector.decide(deadLetter(0, 0, "T", null, "0"), options))
                .isEqualTo(ReplayDecision.FILTERED);
        assertThat(ReplaySelector.decide(deadLetter(0, 0, "T", "retries-exhausted", null), options))
                .isEqualTo(ReplayDecision.REPLAY);
        assertThat(ReplaySelector.decide(deadLetter(0, 0, "T", "retries-exhausted", "2"), options))
                .isEqualTo(ReplayDecision.REPLAY);
        assertThat(ReplaySelector.decide(deadLetter(0, 0, "T", "retries-exhausted", "3"), options))
                .isEqualTo(ReplayDecision.MAX_REPLAYS);
        assertThat(ReplaySelector.decide(deadLetter(0, 0, "T", "retries-exhausted", "7"), options))
                .isEqualTo(ReplayDecision.MAX_REPLAYS);
        assertThat(ReplaySelector.decide(deadLetter(0, 0, "T", "bad-input", "7"), options))
                .as("filters first").isEqualTo(ReplayDecision.FILTERED);
        assertThat(ReplaySelector.decide(deadLetter(0, 0, "T", "retries-exhausted", "1"),
                options.toBuilder().maxReplays(1).build())).isEqualTo(ReplayDecision.MAX_REPLAYS);
        assertThat(ReplaySelector.decide(deadLetter(0, 0, null, "retries-exhausted", "0"),
                options.toBuilder().keys("T").build())).isEqualTo(ReplayDecision.FILTERED);
    }

    @Test
    void shouldSizeBatchesToAboutOneSecondOfTheRate() {
        assertThat(DeadLetterReplayer.maxPollRecords(ReplayOptions.builder().build())).as("unpaced by default").isEqualTo(5_000);
        assertThat(DeadLetterReplayer.maxPollRecords(ReplayOptions.builder().ratePerSecond(50).build())).isEqualTo(50);
        assertThat(DeadLetterReplayer.maxPollRecords(ReplayOptions.builder().ratePerSecond(0.5).build())).isEqualTo(1);
        assertThat(DeadLetterReplayer.maxPollRecords(ReplayOptions.builder().ratePerSecond(10_000).build())).isEqualTo(500);
        assertThat(DeadLetterReplayer.maxPollRecords(ReplayOptions.builder().ratePerSecond(0).build())).isEqualTo(5_000);
        assertThat(DeadLetterReplayer.maxPollRecords(ReplayOptions.builder().ratePerSecond(5).dryRun(true).build())).isEqualTo(5_000);
    }

    // ---------------------------------------------------------------- the loop, on mocks

    private static final class Mocks {
        /** What the group has committed (the mock forgets its own commits on assign()). */
        final Map<TopicPartition, OffsetAndMetadata> committed = new java.util.HashMap<>();
        /** Per reading of the committed offsets: whether the producer had fenced older replays by then. */
        final List<Boolean> fencedWhenOffsetsRead = new ArrayList<>();
        final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest") {
            @Override
            public synchronized Map<TopicPartition, OffsetAndMetadata> committed(java.util.Set<TopicPartition> partitions) {
                fencedWhenOffsetsRead.add(producer.transactionInitialized());
                Map<TopicPartition, OffsetAndMetadata> out = new java.util.HashMap<>();
                partitions.stream().filter(committed::containsKey).forEach(tp -> out.put(tp, committed.get(tp)));
                return out;
            }
        };
        final MockProducer<byte[], byte[]> producer =
                new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        final TopicPartition p0 = new TopicPartition(DLQ, 0);
        final TopicPartition p1 = new TopicPartition(DLQ, 1);
        final ManualTime clock = new ManualTime(0);

        Mocks(Map<TopicPartition, Long> ends, List<ConsumerRecord<byte[], byte[]>> records) {
            Node node = new Node(0, "localhost", 9092);
            consumer.updatePartitions(DLQ, List.of(new PartitionInfo(DLQ, 0, node, null, null),
                    new PartitionInfo(DLQ, 1, node, null, null)));
            consumer.updateBeginningOffsets(Map.of(p0, 0L, p1, 0L));
            consumer.updateEndOffsets(ends);
            consumer.schedulePollTask(() -> records.forEach(consumer::addRecord));
        }

        DeadLetterReplayer replayer(ReplayOptions options) {
            return new DeadLetterReplayer(options, () -> consumer, () -> producer, clock);
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> sixDeadLetters() {
        return List.of(
                deadLetter(0, 0, "A", "retries-exhausted", "0"),
                deadLetter(0, 1, "B", "bad-input", "0"),
                deadLetter(0, 2, "C", "retries-exhausted", "3"),
                deadLetter(1, 0, "D", "retries-exhausted", "1"),
                deadLetter(1, 1, "E", "retries-exhausted", "0"),
                deadLetter(1, 2, "LATE", "retries-exhausted", "0")); // after the end offset captured at start
    }

    @Test
    void shouldReplayInOneTransactionWithTheOffsetsUpToTheEndCapturedAtStart() {
        Mocks m = new Mocks(Map.of(new TopicPartition(DLQ, 0), 3L, new TopicPartition(DLQ, 1), 2L), sixDeadLetters());

        ReplaySummary summary = m.replayer(ReplayOptions.builder().kinds("retries-exhausted").ratePerSecond(0).build()).run();

        assertThat(summary.outcome()).isEqualTo(ReplaySummary.Outcome.COMPLETED);
        assertThat(summary.examined()).isEqualTo(5);
        assertThat(summary.replayed()).isEqualTo(3);
        assertThat(summary.skippedByFilter()).isEqualTo(1);
        assertThat(summary.skippedMaxReplays()).isEqualTo(1);
        assertThat(summary.remaining()).isZero();
        assertThat(summary.replayedByTopic()).containsExactly(Map.entry("tickets.interactive", 3L));
        assertThat(summary.replayedByKind()).containsExactly(Map.entry("retries-exhausted", 3L));
        assertThat(m.producer.history()).extracting(r -> new String(r.key(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder("A", "D", "E");
        assertThat(m.producer.transactionCommitted()).isTrue();
        assertThat(m.producer.consumerGroupOffsetsHistory()).hasSize(1);
        assertThat(m.producer.consumerGroupOffsetsHistory().get(0).values().iterator().next())
                .containsOnly(Map.entry(m.p0, new OffsetAndMetadata(3)), Map.entry(m.p1, new OffsetAndMetadata(2)));
        assertThat(m.consumer.closed()).isTrue();
        assertThat(m.producer.closed()).isTrue();
    }

    @Test
    void aDryRunShouldNeitherWriteNorCommitNorEvenCreateAProducer() {
        Mocks m = new Mocks(Map.of(new TopicPartition(DLQ, 0), 3L, new TopicPartition(DLQ, 1), 2L), sixDeadLetters());
        DeadLetterReplayer replayer = new DeadLetterReplayer(ReplayOptions.builder().dryRun(true).build(),
                () -> m.consumer, () -> {
                    throw new AssertionError("a dry run needs no producer");
                }, m.clock);

        ReplaySummary summary = replayer.run();

        assertThat(summary.dryRun()).isTrue();
        assertThat(summary.replayed()).isEqualTo(3);
        assertThat(summary.skippedMaxReplays()).isEqualTo(1);
        assertThat(summary.skippedNeedsForce()).as("a dry run shows what --force would add").containsExactly(Map.entry("bad-input", 1L));
        assertThat(summary.replayedByKind()).containsExactly(Map.entry("retries-exhausted", 3L));
    }

    @Test
    void shouldHoldBackBadInputAndTooLargeWithoutForceAndCountThem() {
        ReplayOptions options = ReplayOptions.builder().build();
        for (String kind : List.of("bad-input", "too-large", " too-large ")) {
            assertThat(ReplaySelector.decide(deadLetter(0, 0, "T", kind, "0"), options)).as(kind)
                    .isEqualTo(ReplayDecision.NEEDS_FORCE);
            assertThat(ReplaySelector.decide(deadLetter(0, 0, "T", kind, "0"), options.toBuilder().force(true).build()))
                    .as(kind + " --force").isEqualTo(ReplayDecision.REPLAY);
        }
        for (String kind : new String[] {"retries-exhausted", "invalid-output", "non-retryable", "internal-error", null}) {
            assertThat(ReplaySelector.decide(deadLetter(0, 0, "T", kind, "0"), options)).as(String.valueOf(kind))
                    .isEqualTo(ReplayDecision.REPLAY);
        }
        assertThat(ReplaySelector.decide(deadLetter(0, 0, "T", "bad-input", "3"), options))
                .as("loop protection before the force rule").isEqualTo(ReplayDecision.MAX_REPLAYS);
        assertThat(ReplaySelector.decide(deadLetter(0, 0, "T", "bad-input", "0"), options.toBuilder().kinds("retries-exhausted").build()))
                .as("filters first").isEqualTo(ReplayDecision.FILTERED);
        assertThat(ForceRule.reason("bad-input")).get().asString().contains("intake would dead-letter the same bytes again");
        assertThat(ForceRule.reason("too-large")).get().asString().contains("context window");
        assertThat(ForceRule.reason("retries-exhausted")).isEmpty();

        List<ConsumerRecord<byte[], byte[]>> records = List.of(
                deadLetter(0, 0, "A", "retries-exhausted", "0"),
                deadLetter(0, 1, "B", "bad-input", "0"),
                deadLetter(0, 2, "C", "too-large", "0"),
                deadLetter(0, 3, "D", "bad-input", "0"));
        Mocks held = new Mocks(Map.of(new TopicPartition(DLQ, 0), 4L, new TopicPartition(DLQ, 1), 0L), records);
        ReplaySummary without = held.replayer(ReplayOptions.builder().build()).run();
        assertThat(held.producer.history()).extracting(r -> new String(r.key(), StandardCharsets.UTF_8)).containsExactly("A");
        assertThat(without.replayed()).isEqualTo(1);
        assertThat(without.skippedNeedsForce()).containsExactly(Map.entry("bad-input", 2L), Map.entry("too-large", 1L));
        assertThat(without.skippedNeedsForceTotal()).isEqualTo(3);
        assertThat(without.examined()).isEqualTo(4);
        assertThat(without.toJson().path("skippedNeedsForce").path("bad-input").asLong()).isEqualTo(2);
        assertThat(held.producer.consumerGroupOffsetsHistory().get(0).values().iterator().next())
                .as("held-back records are consumed like filtered ones").containsOnly(Map.entry(held.p0, new OffsetAndMetadata(4)));

        Mocks forced = new Mocks(Map.of(new TopicPartition(DLQ, 0), 4L, new TopicPartition(DLQ, 1), 0L), records);
        ReplaySummary with = forced.replayer(ReplayOptions.builder().force(true).build()).run();
        assertThat(forced.producer.history()).extracting(r -> new String(r.key(), StandardCharsets.UTF_8))
                .containsExactly("A", "B", "C", "D");
        assertThat(with.skippedNeedsForce()).isEmpty();
        assertThat(with.replayedByKind()).containsExactly(Map.entry("bad-input", 2L), Map.entry("retries-exhausted", 1L),
                Map.entry("too-large", 1L));
    }

    @Test
    void shouldReportProgressInRecordsNotOffsets() {
        // a transactional writer leaves a commit marker around each record: 3 records over offsets 0..5
        List<ConsumerRecord<byte[], byte[]>> records = List.of(
                deadLetter(0, 1, "A", "retries-exhausted", "0"),
                deadLetter(0, 3, "B", "retries-exhausted", "0"),
                deadLetter(0, 5, "C", "retries-exhausted", "0"));
        Mocks m = new Mocks(Map.of(new TopicPartition(DLQ, 0), 12L, new TopicPartition(DLQ, 1), 0L), records);
        List<ReplaySummary> reports = new ArrayList<>();
        DeadLetterReplayer replayer = m.replayer(ReplayOptions.builder().build());
        ReplaySummary summary = replayer.run(progress -> {
            reports.add(progress);
            replayer.requestStop();
        });

        assertThat(summary.outcome()).isEqualTo(ReplaySummary.Outcome.STOPPED);
        assertThat(summary.examined()).isEqualTo(3);
        assertThat(summary.remaining()).as("6 offsets left at one record per two offsets").isEqualTo(3);
        assertThat(reports).first().satisfies(r -> assertThat(r.progressLine())
                .startsWith("replay: 3 examined, 3 replayed, 0 filtered out, 0 need --force, 0 over max replays, ~3 left, "));
    }

    @Test
    void shouldStopAfterMaxRecordsAndCommitOnlyTheRecordsHandled() {
        Mocks m = new Mocks(Map.of(new TopicPartition(DLQ, 0), 3L, new TopicPartition(DLQ, 1), 2L), sixDeadLetters());

        ReplaySummary summary = m.replayer(ReplayOptions.builder().maxRecords(2).ratePerSecond(0).build()).run();

        assertThat(summary.outcome()).isEqualTo(ReplaySummary.Outcome.MAX_RECORDS);
        assertThat(summary.replayed()).isEqualTo(2);
        assertThat(summary.remaining()).isPositive();
        assertThat(m.producer.history()).hasSize(2);
        Map<TopicPartition, OffsetAndMetadata> committed = m.producer.consumerGroupOffsetsHistory().get(0).values()
                .iterator().next();
        long handled = committed.values().stream().mapToLong(OffsetAndMetadata::offset).sum();
        assertThat(handled).as("offsets of the records handled, not of the whole poll").isEqualTo(summary.examined());
    }

    @Test
    void shouldStartFromTheCommittedOffsetsUnlessReset() {
        for (boolean reset : new boolean[] {false, true}) {
            Mocks m = new Mocks(Map.of(new TopicPartition(DLQ, 0), 3L, new TopicPartition(DLQ, 1), 2L), sixDeadLetters());
            m.committed.putAll(Map.of(m.p0, new OffsetAndMetadata(2), m.p1, new OffsetAndMetadata(2)));

            ReplaySummary summary = m.replayer(ReplayOptions.builder().dryRun(true).reset(reset).build()).run();

            assertThat(summary.examined()).as("reset " + reset).isEqualTo(reset ? 5 : 1);
        }
    }

    @Test
    void shouldFenceOlderReplaysBeforeReadingTheCommittedOffsets() {
        Mocks m = new Mocks(Map.of(new TopicPartition(DLQ, 0), 3L, new TopicPartition(DLQ, 1), 2L), sixDeadLetters());

        m.replayer(ReplayOptions.builder().ratePerSecond(0).build()).run();

        assertThat(m.fencedWhenOffsetsRead).as("initTransactions() before the group's offsets are read").containsExactly(true);
    }

    @Test
    void shouldStopWithAFencedOutcomeWhenANewerReplayOfTheGroupTookOver() {
        Mocks m = new Mocks(Map.of(new TopicPartition(DLQ, 0), 3L, new TopicPartition(DLQ, 1), 2L), sixDeadLetters());
        m.producer.commitTransactionException = new ProducerFencedException("there is a newer producer");

        assertThatThrownBy(() -> m.replayer(ReplayOptions.builder().groupId("ops").ratePerSecond(0).build()).run())
                .isInstanceOf(ReplayFencedException.class)
                .hasMessageContaining("another replay of group ops (transactional.id quotaflow-dlq-replay-ops) started "
                        + "and took over").hasMessageContaining("nothing is written twice")
                .satisfies(e -> assertThat(((ReplayFencedException) e).replayed()).isZero());
        assertThat(m.producer.transactionCommitted()).isFalse();
        assertThat(m.producer.closed()).isTrue();

        // wrapped (an error state reported later), or from the offsets: fenced all the same, and not aborted
        Mocks wrapped = new Mocks(Map.of(new TopicPartition(DLQ, 0), 3L, new TopicPartition(DLQ, 1), 2L), sixDeadLetters());
        wrapped.producer.sendOffsetsToTransactionException = new KafkaException("Cannot execute transactional method",
                new InvalidProducerEpochException("epoch is old"));
        assertThatThrownBy(() -> wrapped.replayer(ReplayOptions.builder().ratePerSecond(0).build()).run())
                .isInstanceOf(ReplayFencedException.class);
        assertThat(wrapped.producer.transactionAborted()).isFalse();
        assertThat(ReplayFencing.fenced(new KafkaException("broker said no"))).isFalse();
    }

    @Test
    void shouldAbortTheBatchAndFailWhenASendFails() {
        Mocks m = new Mocks(Map.of(new TopicPartition(DLQ, 0), 3L, new TopicPartition(DLQ, 1), 2L), sixDeadLetters());
        m.producer.sendOffsetsToTransactionException = new KafkaException("broker said no");

        assertThatThrownBy(() -> m.replayer(ReplayOptions.builder().ratePerSecond(0).build()).run())
                .isInstanceOf(DeadLetterException.class).isNotInstanceOf(ReplayFencedException.class)
                .hasMessageContaining("rolled back").hasMessageContaining("broker said no");
        assertThat(m.producer.transactionAborted()).isTrue();
        assertThat(m.producer.transactionCommitted()).isFalse();
    }

    @Test
    void shouldFailClearlyWhenTheTopicDoesNotExist() {
        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
        DeadLetterReplayer replayer = new DeadLetterReplayer(ReplayOptions.builder().build(), () -> consumer,
                () -> {
                    throw new AssertionError("no producer for a missing topic");
                }, Time.SYSTEM);
        assertThatThrownBy(replayer::run).isInstanceOf(DeadLetterException.class).hasMessageContaining("does not exist");
    }

    @Test
    void shouldPaceWritesAtTheRate() {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            records.add(deadLetter(0, i, "K" + i, "retries-exhausted", "0"));
        }
        Mocks m = new Mocks(Map.of(new TopicPartition(DLQ, 0), 6L, new TopicPartition(DLQ, 1), 0L), records);
        DeadLetterReplayer replayer = new DeadLetterReplayer(ReplayOptions.builder().ratePerSecond(100).build(),
                () -> m.consumer, () -> m.producer, Time.SYSTEM);

        long started = System.nanoTime();
        assertThat(replayer.run().replayed()).isEqualTo(6);
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;
        assertThat(elapsedMs).as("6 records at 100/s: 5 gaps of 10 ms").isGreaterThanOrEqualTo(45);
    }

    @Test
    void shouldPaceWritesOnTheInjectedClockWithoutSleepingForReal() {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            records.add(deadLetter(0, i, "K" + i, "retries-exhausted", "0"));
        }
        Mocks m = new Mocks(Map.of(new TopicPartition(DLQ, 0), 6L, new TopicPartition(DLQ, 1), 0L), records);
        List<Long> sleeps = new ArrayList<>();
        ReplayClock manual = ReplayClock.of(m.clock, nanos -> {
            sleeps.add(nanos);
            m.clock.advanceNanos(nanos);
        });
        DeadLetterReplayer replayer = new DeadLetterReplayer(ReplayOptions.builder().ratePerSecond(100).build(),
                () -> m.consumer, () -> m.producer, manual, () -> OriginalReader.NONE);

        long started = System.nanoTime();
        ReplaySummary summary = replayer.run();

        assertThat(summary.replayed()).isEqualTo(6);
        assertThat(sleeps.stream().mapToLong(Long::longValue).sum()).as("6 records at 100/s: 5 gaps of 10 ms")
                .isEqualTo(50_000_000L);
        assertThat(summary.elapsed()).as("the summary's time is the same clock's").isEqualTo(Duration.ofMillis(50));
        assertThat((System.nanoTime() - started) / 1_000_000).as("nothing slept for real").isLessThan(2_000);
    }

    @Test
    void shouldReplayTheWholeOriginalOfATruncatedDeadLetterWhileItsOriginHoldsIt() {
        byte[] whole = ("{\"id\":\"BIG\",\"body\":\"help\",\"log\":\"" + "x".repeat(5_000) + "\"}").getBytes(StandardCharsets.UTF_8);
        ConsumerRecord<byte[], byte[]> kept = truncated(deadLetter(0, 0, "BIG", "retries-exhausted", "0"), whole);
        ConsumerRecord<byte[], byte[]> gone = truncated(deadLetter(0, 1, "GONE", "retries-exhausted", "0"), "{}".getBytes(StandardCharsets.UTF_8));
        Mocks m = new Mocks(Map.of(new TopicPartition(DLQ, 0), 2L, new TopicPartition(DLQ, 1), 0L), List.of(kept, gone));
        List<String> reads = new java.util.ArrayList<>();
        OriginalReader origin = (topic, partition, offset) -> {
            reads.add(topic + "-" + partition + "@" + offset);
            return reads.size() == 1 ? Optional.of(whole) : Optional.of("{\"other\":1}".getBytes(StandardCharsets.UTF_8));
        };
        DeadLetterReplayer replayer = new DeadLetterReplayer(ReplayOptions.builder().ratePerSecond(0).build(),
                () -> m.consumer, () -> m.producer, m.clock, () -> origin);

        ReplaySummary summary = replayer.run();

        assertThat(summary.replayed()).isEqualTo(1);
        assertThat(summary.skippedOriginalGone()).as("a record that no longer matches its SHA-256 is not replayed").isEqualTo(1);
        assertThat(reads).containsExactly("tickets.interactive-2@77", "tickets.interactive-2@77");
        assertThat(m.producer.history()).singleElement().satisfies(r -> {
            assertThat(r.value()).isEqualTo(whole);
            assertThat(r.headers().lastHeader(DeadLetterHeaders.VALUE_TRUNCATED)).isNull();
        });
    }

    private static ConsumerRecord<byte[], byte[]> truncated(ConsumerRecord<byte[], byte[]> letter, byte[] whole) {
        RecordHeaders h = new RecordHeaders(letter.headers().toArray());
        add(h, DeadLetterHeaders.VALUE_TRUNCATED, "true");
        add(h, DeadLetterHeaders.ORIGINAL_SIZE, Integer.toString(whole.length));
        add(h, DeadLetterHeaders.ORIGINAL_SHA256, io.quotaflow.ticket.WorkItem.sha256(whole));
        return new ConsumerRecord<>(letter.topic(), letter.partition(), letter.offset(), letter.timestamp(), TimestampType.CREATE_TIME,
                0, 0, letter.key(), java.util.Arrays.copyOf(whole, Math.min(whole.length, 100)), h, Optional.empty());
    }
}

package io.quotaflow.dlq;

import org.apache.kafka.common.utils.Time;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Replays dead letters ({@code tickets.dlq}) to the topics they came from, exactly once.
 *
 * <p>For each dead letter, in offset order per partition, from the replay group's committed
 * offsets (or the beginning, for a new group or with {@link ReplayOptions#reset()}) up to the end
 * offsets captured at start, {@link ReplaySelector} decides: filtered out, over
 * {@link ReplayOptions#maxReplays()} (loop protection), held back for {@code --force}
 * ({@link ForceRule}), or written back as {@link ReplayRecords#replayRecord} makes it. Every
 * skipped record is counted in the {@link ReplaySummary}.
 *
 * <p>Exactly once: the consumer reads {@code read_committed} without auto-commit; each polled
 * batch is written by a transactional producer ({@code transactional.id} =
 * {@link ReplayOptions#transactionalId()}) and the batch's offsets are committed to the replay
 * group in the same transaction ({@code sendOffsetsToTransaction}), which is aborted on error.
 * Skipped records are consumed too: their offsets advance with the batch. A replay that stops
 * (Ctrl+C, {@link #requestStop()}, {@code maxRecords}) or crashes resumes from the committed
 * offsets and never writes a record twice.
 *
 * <p>Overlapping replays of one group: the newer one fences the older, which stops with a
 * {@link ReplayFencedException}. What fences is the {@code transactional.id}, one per group, not
 * the consumer group metadata. The consumer uses {@code assign()}, never joins the group, and so
 * {@code groupMetadata()} carries generation -1 and no member id: the group coordinator accepts
 * such a transactional offset commit without any generation check (KIP-447's check applies to
 * members of a group that {@code subscribe()}s). {@code subscribe()} would not fence either: two
 * replays would join, split the partitions in a rebalance and both go on, and a replay could no
 * longer stop at the end offsets it captured on every partition. Instead
 * {@code initTransactions()} of the newer replay bumps the producer epoch of the transactional id,
 * aborts the older replay's open transaction and waits until it is complete; from then on every
 * transactional request of the older producer (a send, {@code sendOffsetsToTransaction}, the
 * commit) fails with {@code ProducerFencedException} or {@code InvalidProducerEpochException}.
 * Hence the order in {@link #run}: <em>fence first</em>, then read the group's committed offsets.
 * The other way round, the older replay could commit a batch between the read and the fence, and
 * the newer one would write that batch again. Read after the fence, the offsets are final (the
 * {@code read_committed} consumer asks for stable offsets, so no pending transactional commit is
 * missed) and include every batch the older replay committed. Replays run one after the other see
 * each other's commits the same way.
 *
 * <p>A dry run reads from the same starting point but writes nothing and commits nothing.
 *
 * <p>{@link #run} is meant to be called once, on one thread; {@link #requestStop()} may be called
 * from any thread.
 */
public final class DeadLetterReplayer {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterReplayer.class);

    public static final String CLIENT_ID = "quotaflow-dlq-replay";

    static final Duration POLL = Duration.ofMillis(200);
    /** A replay that reads nothing new for this long, before reaching its end, fails. */
    static final Duration STALL_TIMEOUT = Duration.ofSeconds(60);
    private static final int MAX_POLL_RECORDS = 500;
    /** Unpaced (or a dry run): large batches, so each transaction carries thousands of records. */
    private static final int UNPACED_POLL_RECORDS = 5_000;

    private final ReplayOptions options;
    private final Supplier<Consumer<byte[], byte[]>> consumerFactory;
    private final Supplier<Producer<byte[], byte[]>> producerFactory;
    private final ReplayClock clock;
    private final Supplier<OriginalReader> originalsFactory;
    private final AtomicBoolean stop = new AtomicBoolean();

    /**
     * @param bootstrapServers Kafka bootstrap servers
     * @param clientProperties pass-through client properties (security settings...) for both the
     *                         consumer and the producer; the isolation level, auto-commit, group id
     *                         and transactional id are quotaflow's
     * @param options          what to replay and how
     */
    public DeadLetterReplayer(String bootstrapServers, Map<String, ?> clientProperties, ReplayOptions options) {
        this(options,
                () -> new KafkaConsumer<>(DlqClients.consumerConfig(bootstrapServers, clientProperties, CLIENT_ID,
                        options.groupId(), maxPollRecords(options)), new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                () -> new KafkaProducer<>(DlqClients.producerConfig(bootstrapServers, clientProperties, CLIENT_ID,
                        options.transactionalId()), new ByteArraySerializer(), new ByteArraySerializer()),
                ReplayClock.system(), () -> OriginalReader.consumer(bootstrapServers, clientProperties));
    }

    /** Clients made elsewhere (mocks in tests); the replayer closes them. The producer is not made for a dry run. */
    DeadLetterReplayer(ReplayOptions options, Supplier<Consumer<byte[], byte[]>> consumerFactory,
                       Supplier<Producer<byte[], byte[]>> producerFactory, Time time) {
        this(options, consumerFactory, producerFactory, time, () -> OriginalReader.NONE);
    }

    /** As above, with the reader of truncated dead letters' originals; the pacer sleeps for real. */
    DeadLetterReplayer(ReplayOptions options, Supplier<Consumer<byte[], byte[]>> consumerFactory,
                       Supplier<Producer<byte[], byte[]>> producerFactory, Time time,
                       Supplier<OriginalReader> originalsFactory) {
        this(options, consumerFactory, producerFactory, ReplayClock.of(time, ReplayClock.THREAD_SLEEP),
                originalsFactory);
    }

    /** As above, with every reading of time and every wait on {@code clock} (a manual one in tests). */
    DeadLetterReplayer(ReplayOptions options, Supplier<Consumer<byte[], byte[]>> consumerFactory,
                       Supplier<Producer<byte[], byte[]>> producerFactory, ReplayClock clock,
                       Supplier<OriginalReader> originalsFactory) {
        this.originalsFactory = Objects.requireNonNull(originalsFactory, "originalsFactory");
        this.options = Objects.requireNonNull(options, "options");
        this.consumerFactory = Objects.requireNonNull(consumerFactory, "consumerFactory");
        this.producerFactory = Objects.requireNonNull(producerFactory, "producerFactory");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Batches of about one second's worth of records, so a paced transaction stays short. */
    static int maxPollRecords(ReplayOptions options) {
        if (options.dryRun() || options.ratePerSecond() == 0) {
            return UNPACED_POLL_RECORDS;
        }
        return (int) Math.max(1, Math.min(MAX_POLL_RECORDS, Math.ceil(options.ratePerSecond())));
    }

    public ReplayOptions options() {
        return options;
    }

    /** Asks a running replay to stop after the record in hand; what was written is committed. Any thread. */
    public void requestStop() {
        stop.set(true);
    }

    public boolean stopRequested() {
        return stop.get();
    }

    /** {@link #run(java.util.function.Consumer)} without progress reports. */
    public ReplaySummary run() {
        return run(progress -> { });
    }

    /**
     * Replays up to the end offsets captured at start, {@code maxRecords} replayed records, or a
     * stop request, whichever comes first.
     *
     * @param progress receives a {@link ReplaySummary.Outcome#RUNNING RUNNING} summary after every
     *                 poll (often: throttle on the receiving side)
     * @return what was done
     * @throws DeadLetterException when the topic is missing, the cluster does not answer, or a
     *                             write or commit failed (the batch in hand is aborted)
     */
    public ReplaySummary run(java.util.function.Consumer<ReplaySummary> progress) {
        Objects.requireNonNull(progress, "progress");
        long started = clock.nanos();
        ReplayTally tally = new ReplayTally();
        try (Consumer<byte[], byte[]> consumer = consumerFactory.get();
             LazyOriginalReader originals = new LazyOriginalReader(originalsFactory)) {
            List<TopicPartition> partitions = DlqClients.partitions(consumer, options.dlqTopic());
            consumer.assign(partitions);
            Producer<byte[], byte[]> producer = options.dryRun() ? null : producerFactory.get();
            try {
                if (producer != null) {
                    // fence first, then read where the group stands: see the class comment
                    producer.initTransactions();
                }
                Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions));
                seekToStart(consumer, partitions);
                ReplayPositions positions = ReplayPositions.capture(consumer, partitions, ends);
                consumer.pause(positions.finished());
                LOG.info("Replaying {} from {} (group {}, filters: {}, dry run: {}, force: {})", options.dlqTopic(),
                        positions, options.groupId(), options.describeFilters(), options.dryRun(), options.force());
                ReplaySummary summary = loop(consumer, producer, positions, tally, originals, progress, started);
                LOG.info("Replay of {} ended: {}", options.dlqTopic(), summary.describe());
                return summary;
            } finally {
                if (producer != null) {
                    producer.close(Duration.ofSeconds(10));
                }
            }
        } catch (KafkaException e) {
            throw new DeadLetterException(options.dlqTopic() + ": " + e.getMessage(), e);
        } finally {
            if (tally.interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private ReplaySummary loop(Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> producer,
                               ReplayPositions positions, ReplayTally tally, OriginalReader originals,
                               java.util.function.Consumer<ReplaySummary> progress, long started) {
        ReplayPacer pacer = new ReplayPacer(options.ratePerSecond(), clock);
        long lastAdvance = clock.nanos();
        while (true) {
            ReplaySummary.Outcome outcome = outcome(positions, tally);
            if (outcome != null) {
                long left = outcome == ReplaySummary.Outcome.COMPLETED ? 0 : positions.recordsLeft(tally.examined);
                return tally.summary(options.dryRun(), outcome, left, elapsed(started));
            }
            List<ConsumerRecord<byte[], byte[]>> batch = batch(consumer.poll(POLL), positions);
            ReplayTally done = batch.isEmpty() ? new ReplayTally()
                    : process(batch, consumer, producer, pacer, tally.replayed, originals);
            tally.add(done);
            positions.advance(done.next);
            List<TopicPartition> reached = done.examined == batch.size() ? positions.refresh(consumer) : List.of();
            consumer.pause(reached);
            long now = clock.nanos();
            if (!batch.isEmpty() || !reached.isEmpty()) {
                lastAdvance = now;
            } else if (now - lastAdvance > STALL_TIMEOUT.toNanos() && !positions.done()) {
                throw new DeadLetterException("no progress reading " + options.dlqTopic() + " for "
                        + STALL_TIMEOUT.toSeconds() + " s with about " + positions.recordsLeft(tally.examined)
                        + " dead letters left; is the cluster reachable?");
            }
            progress.accept(tally.summary(options.dryRun(), ReplaySummary.Outcome.RUNNING,
                    positions.recordsLeft(tally.examined), elapsed(started)));
        }
    }

    private ReplaySummary.Outcome outcome(ReplayPositions positions, ReplayTally tally) {
        if (positions.done()) {
            return ReplaySummary.Outcome.COMPLETED;
        }
        if (stop.get()) {
            return ReplaySummary.Outcome.STOPPED;
        }
        return tally.replayed >= options.maxRecords() ? ReplaySummary.Outcome.MAX_RECORDS : null;
    }

    /** The polled records before the end offsets captured at start (later ones are left for the next replay). */
    private static List<ConsumerRecord<byte[], byte[]>> batch(ConsumerRecords<byte[], byte[]> records, ReplayPositions positions) {
        List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>(records.count());
        for (TopicPartition tp : records.partitions()) {
            long end = positions.end(tp);
            for (ConsumerRecord<byte[], byte[]> record : records.records(tp)) {
                if (record.offset() >= end) {
                    break;
                }
                batch.add(record);
            }
        }
        return batch;
    }

    private void seekToStart(Consumer<byte[], byte[]> consumer, List<TopicPartition> partitions) {
        if (options.reset()) {
            consumer.seekToBeginning(partitions);
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new HashSet<>(partitions));
        List<TopicPartition> fresh = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata offset = committed == null ? null : committed.get(tp);
            if (offset == null) {
                fresh.add(tp);
            } else {
                consumer.seek(tp, offset.offset());
            }
        }
        if (!fresh.isEmpty()) {
            consumer.seekToBeginning(fresh);
        }
    }

    /**
     * Handles one batch: decides every record, writes the replays and, unless a dry run, commits
     * the writes with the offsets of the records handled in one transaction. Stops early, after a
     * whole record, on a stop request or when {@code maxRecords} is reached.
     */
    private ReplayTally process(List<ConsumerRecord<byte[], byte[]>> batch, Consumer<byte[], byte[]> consumer,
                                Producer<byte[], byte[]> producer, ReplayPacer pacer, long replayedBefore,
                                OriginalReader originals) {
        ReplayTally t = new ReplayTally();
        if (producer != null) {
            producer.beginTransaction();
        }
        try {
            for (ConsumerRecord<byte[], byte[]> record : batch) {
                if (stop.get() || replayedBefore + t.replayed >= options.maxRecords() || !handle(record, producer, pacer,
                        originals, t)) {
                    break;
                }
            }
            if (producer != null) {
                Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                t.next.forEach((tp, next) -> offsets.put(tp, new OffsetAndMetadata(next)));
                if (!offsets.isEmpty()) {
                    producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                }
                producer.commitTransaction();
            }
            return t;
        } catch (ProducerFencedException | InvalidProducerEpochException | OutOfOrderSequenceException
                 | UnsupportedVersionException | AuthorizationException fatal) {
            // the producer cannot abort; closing it drops the transaction, which the broker aborts
            throw ReplayFencing.failure(fatal, options, replayedBefore, "replay producer failed: " + fatal.getMessage());
        } catch (KafkaException e) {
            if (producer != null && !ReplayFencing.fenced(e)) {
                try {
                    producer.abortTransaction();
                } catch (KafkaException abortFailed) {
                    e.addSuppressed(abortFailed);
                }
            }
            throw ReplayFencing.failure(e, options, replayedBefore, "replay batch failed and was rolled back (nothing of it is visible, its "
                    + "offsets are not committed): " + e.getMessage());
        }
    }

    /** Decides, paces and sends one record and counts it; false (nothing counted) when stopped while pacing. */
    private boolean handle(ConsumerRecord<byte[], byte[]> record, Producer<byte[], byte[]> producer, ReplayPacer pacer,
                           OriginalReader originals, ReplayTally t) {
        ReplayDecision decision = ReplaySelector.decide(record, options);
        byte[] value = record.value();
        if (decision == ReplayDecision.REPLAY && OriginalReader.truncated(record.headers())) {
            Optional<byte[]> original = OriginalReader.original(originals, record.headers());
            if (original.isPresent()) {
                value = original.get();
            } else {
                decision = ReplayDecision.ORIGINAL_GONE;
            }
        }
        if (decision == ReplayDecision.REPLAY && producer != null) {
            try {
                if (!pacer.acquire(stop)) {
                    return false; // stop requested while waiting for the rate
                }
            } catch (InterruptedException e) {
                t.interrupted = true;
                stop.set(true);
                return false;
            }
        }
        ProducerRecord<byte[], byte[]> replay = decision == ReplayDecision.REPLAY
                ? ReplayRecords.replayRecord(record, value) : null;
        if (replay != null && producer != null) {
            producer.send(replay);
        }
        t.count(record, decision, replay == null ? null : replay.topic());
        return true;
    }

    private Duration elapsed(long startedNanos) {
        return Duration.ofNanos(clock.nanos() - startedNanos);
    }
}

package io.quotaflow.dlq;

import io.quotaflow.config.TopicNames;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.ticket.Priority;
import io.quotaflow.topology.Topics;
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
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Replays dead letters ({@code tickets.dlq}) to the topics they came from, exactly once.
 *
 * <p>For each dead letter, in offset order per partition, from the replay group's committed
 * offsets (or the beginning, for a new group or with {@link ReplayOptions#reset()}) up to the end
 * offsets captured at start:
 * <ol>
 *   <li>a record that does not pass the {@linkplain ReplayOptions filters} is skipped;</li>
 *   <li>a selected record whose {@code qf.replay.count} reached {@link ReplayOptions#maxReplays()}
 *       is skipped (loop protection);</li>
 *   <li>any other record is written to the priority topic named by its {@code qf.origin.topic}
 *       header ({@code tickets.standard} when the header is missing or names a topic that is not a
 *       priority topic), with its original key and value bytes unchanged, its non-{@code qf.}
 *       headers, and only two {@code qf.} headers: {@code qf.replay.count} = previous count + 1
 *       and {@code qf.replay.of} = {@code <dlq partition>:<offset>}.</li>
 * </ol>
 *
 * <p>Exactly once: the consumer reads {@code read_committed} without auto-commit; each polled
 * batch is written by a transactional producer ({@code transactional.id} =
 * {@link ReplayOptions#transactionalId()}) and the batch's offsets are committed to the replay
 * group in the same transaction ({@code sendOffsetsToTransaction}), which is aborted on error.
 * Skipped records are consumed too: their offsets advance with the batch. A replay that stops
 * (Ctrl+C, {@link #requestStop()}, {@code maxRecords}) or crashes resumes from the committed
 * offsets and never writes a record twice; a second replay with the same group fences the first.
 *
 * <p>A dry run reads from the same starting point but writes nothing and commits nothing.
 *
 * <p>{@link #run} is meant to be called once, on one thread; {@link #requestStop()} may be called
 * from any thread.
 */
public final class DeadLetterReplayer {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterReplayer.class);

    public static final String CLIENT_ID = "quotaflow-dlq-replay";
    /** Where a dead letter goes when its origin header is missing or names no priority topic. */
    public static final String FALLBACK_TOPIC = Topics.STANDARD.name();

    static final Duration POLL = Duration.ofMillis(200);
    /** A replay that reads nothing new for this long, before reaching its end, fails. */
    static final Duration STALL_TIMEOUT = Duration.ofSeconds(60);
    private static final int MAX_POLL_RECORDS = 500;
    /** Unpaced (or a dry run): large batches, so each transaction carries thousands of records. */
    private static final int UNPACED_POLL_RECORDS = 5_000;

    /** What happens to one dead letter. */
    public enum Decision {
        /** Written back to its origin topic. */
        REPLAY,
        /** Does not pass the filters. */
        FILTERED,
        /** Selected, but already replayed {@code maxReplays} times. */
        MAX_REPLAYS,
        /** Selected, but truncated, and its origin topic no longer holds the whole record. */
        ORIGINAL_GONE
    }

    private final ReplayOptions options;
    private final Supplier<Consumer<byte[], byte[]>> consumerFactory;
    private final Supplier<Producer<byte[], byte[]>> producerFactory;
    private final LongSupplier nanoClock;
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
                System::nanoTime, () -> OriginalReader.consumer(bootstrapServers, clientProperties));
    }

    /** Clients made elsewhere (mocks in tests); the replayer closes them. The producer is not made for a dry run. */
    DeadLetterReplayer(ReplayOptions options, Supplier<Consumer<byte[], byte[]>> consumerFactory,
                       Supplier<Producer<byte[], byte[]>> producerFactory, LongSupplier nanoClock) {
        this(options, consumerFactory, producerFactory, nanoClock, () -> OriginalReader.NONE);
    }

    /** As above, with the reader of truncated dead letters' originals. */
    DeadLetterReplayer(ReplayOptions options, Supplier<Consumer<byte[], byte[]>> consumerFactory,
                       Supplier<Producer<byte[], byte[]>> producerFactory, LongSupplier nanoClock,
                       Supplier<OriginalReader> originalsFactory) {
        this.originalsFactory = Objects.requireNonNull(originalsFactory, "originalsFactory");
        this.options = Objects.requireNonNull(options, "options");
        this.consumerFactory = Objects.requireNonNull(consumerFactory, "consumerFactory");
        this.producerFactory = Objects.requireNonNull(producerFactory, "producerFactory");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
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
        long started = nanoClock.getAsLong();
        boolean interrupted = false;
        Tally tally = new Tally();
        try (Consumer<byte[], byte[]> consumer = consumerFactory.get();
             LazyOriginals originals = new LazyOriginals(originalsFactory)) {
            List<TopicPartition> partitions = DlqClients.partitions(consumer, options.dlqTopic());
            consumer.assign(partitions);
            Map<TopicPartition, Long> ends = new HashMap<>(consumer.endOffsets(partitions));
            seekToStart(consumer, partitions);
            Map<TopicPartition, Long> positions = new HashMap<>();
            Set<TopicPartition> active = new HashSet<>();
            List<TopicPartition> finished = new ArrayList<>();
            for (TopicPartition tp : partitions) {
                long end = ends.getOrDefault(tp, 0L);
                long position = Math.min(consumer.position(tp), end);
                positions.put(tp, position);
                if (position < end) {
                    active.add(tp);
                } else {
                    finished.add(tp);
                }
            }
            consumer.pause(finished);
            LOG.info("Replaying {} from {} to end offsets {} (filters: {}, dry run: {})", options.dlqTopic(), positions,
                    ends, options.describeFilters(), options.dryRun());

            Producer<byte[], byte[]> producer = options.dryRun() ? null : producerFactory.get();
            try {
                if (producer != null) {
                    producer.initTransactions();
                }
                Pacer pacer = new Pacer(options.ratePerSecond());
                long lastAdvance = nanoClock.getAsLong();
                ReplaySummary.Outcome outcome = null;
                while (outcome == null) {
                    if (active.isEmpty()) {
                        outcome = ReplaySummary.Outcome.COMPLETED;
                    } else if (stop.get()) {
                        outcome = ReplaySummary.Outcome.STOPPED;
                    } else if (tally.replayed >= options.maxRecords()) {
                        outcome = ReplaySummary.Outcome.MAX_RECORDS;
                    }
                    if (outcome != null) {
                        break;
                    }
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
                    List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>(records.count());
                    for (TopicPartition tp : records.partitions()) {
                        long end = ends.getOrDefault(tp, 0L);
                        for (ConsumerRecord<byte[], byte[]> record : records.records(tp)) {
                            if (record.offset() >= end) {
                                break; // arrived after the start: left for the next replay
                            }
                            batch.add(record);
                        }
                    }
                    Tally done = batch.isEmpty() ? new Tally() : process(batch, consumer, producer, pacer, tally.replayed, originals);
                    interrupted |= done.interrupted;
                    tally.add(done);
                    positions.putAll(done.next);
                    boolean complete = done.examined == batch.size();
                    List<TopicPartition> reached = new ArrayList<>();
                    if (complete) {
                        for (TopicPartition tp : active) {
                            long end = ends.get(tp);
                            long position = Math.min(consumer.position(tp), end);
                            positions.put(tp, Math.max(positions.get(tp), position));
                            if (position >= end) {
                                reached.add(tp);
                            }
                        }
                        reached.forEach(active::remove);
                        consumer.pause(reached);
                    }
                    long now = nanoClock.getAsLong();
                    if (!batch.isEmpty() || !reached.isEmpty()) {
                        lastAdvance = now;
                    } else if (now - lastAdvance > STALL_TIMEOUT.toNanos() && !active.isEmpty()) {
                        throw new DeadLetterException("no progress reading " + options.dlqTopic() + " for "
                                + STALL_TIMEOUT.toSeconds() + " s with " + remaining(active, positions, ends)
                                + " offsets left; is the cluster reachable?");
                    }
                    progress.accept(tally.summary(options.dryRun(), ReplaySummary.Outcome.RUNNING,
                            remaining(active, positions, ends), elapsed(started)));
                }
                ReplaySummary summary = tally.summary(options.dryRun(), outcome,
                        outcome == ReplaySummary.Outcome.COMPLETED ? 0 : remaining(active, positions, ends),
                        elapsed(started));
                LOG.info("Replay of {} ended: {}", options.dlqTopic(), summary);
                return summary;
            } finally {
                if (producer != null) {
                    producer.close(Duration.ofSeconds(10));
                }
            }
        } catch (KafkaException e) {
            throw new DeadLetterException(options.dlqTopic() + ": " + e.getMessage(), e);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
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
    private Tally process(List<ConsumerRecord<byte[], byte[]>> batch, Consumer<byte[], byte[]> consumer,
                          Producer<byte[], byte[]> producer, Pacer pacer, long replayedBefore, OriginalReader originals) {
        Tally t = new Tally();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        if (producer != null) {
            producer.beginTransaction();
        }
        try {
            for (ConsumerRecord<byte[], byte[]> record : batch) {
                if (stop.get() || replayedBefore + t.replayed >= options.maxRecords()) {
                    break;
                }
                Decision decision = decide(record, options);
                byte[] value = record.value();
                if (decision == Decision.REPLAY && OriginalReader.truncated(record.headers())) {
                    Optional<byte[]> original = OriginalReader.original(originals, record.headers());
                    if (original.isPresent()) {
                        value = original.get();
                    } else {
                        decision = Decision.ORIGINAL_GONE;
                    }
                }
                if (decision == Decision.REPLAY && producer != null) {
                    try {
                        if (!pacer.acquire(stop)) {
                            break; // stop requested while waiting for the rate
                        }
                    } catch (InterruptedException e) {
                        t.interrupted = true;
                        stop.set(true);
                        break;
                    }
                }
                ProducerRecord<byte[], byte[]> replay = decision == Decision.REPLAY ? replayRecord(record, value) : null;
                if (replay != null && producer != null) {
                    producer.send(replay);
                }
                t.count(record, decision, replay == null ? null : replay.topic());
                TopicPartition tp = new TopicPartition(record.topic(), record.partition());
                offsets.put(tp, new OffsetAndMetadata(record.offset() + 1));
                t.next.put(tp, record.offset() + 1);
            }
            if (producer != null) {
                if (!offsets.isEmpty()) {
                    producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                }
                producer.commitTransaction();
            }
            return t;
        } catch (ProducerFencedException | InvalidProducerEpochException | OutOfOrderSequenceException
                 | UnsupportedVersionException | AuthorizationException fatal) {
            // the producer cannot abort; closing it drops the transaction, which the broker aborts
            throw new DeadLetterException(fatalMessage(fatal), fatal);
        } catch (KafkaException e) {
            if (producer != null) {
                try {
                    producer.abortTransaction();
                } catch (KafkaException abortFailed) {
                    e.addSuppressed(abortFailed);
                }
            }
            throw new DeadLetterException("replay batch failed and was rolled back (nothing of it is visible, its "
                    + "offsets are not committed): " + e.getMessage(), e);
        }
    }

    private String fatalMessage(KafkaException e) {
        if (e instanceof ProducerFencedException || e instanceof InvalidProducerEpochException) {
            return "another replay with group " + options.groupId() + " (transactional.id " + options.transactionalId()
                    + ") started and took over; this one stopped. Its last batch was rolled back.";
        }
        return "replay producer failed: " + e.getMessage();
    }

    // ---------------------------------------------------------------- per-record logic (pure)

    /** What happens to {@code record} under {@code options}. */
    public static Decision decide(ConsumerRecord<byte[], byte[]> record, ReplayOptions options) {
        Headers h = record.headers();
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        boolean selected = options.matches(record.timestamp(),
                FailureHeaders.string(h, FailureHeaders.ERROR_KIND).orElse(null),
                FailureHeaders.string(h, FailureHeaders.ERROR_STATUS).orElse(null), key);
        if (!selected) {
            return Decision.FILTERED;
        }
        return replayCount(h) >= options.maxReplays() ? Decision.MAX_REPLAYS : Decision.REPLAY;
    }

    /** {@code qf.replay.count}, 0 when absent or not a number. */
    public static int replayCount(Headers headers) {
        return Math.max(0, FailureHeaders.integer(headers, FailureHeaders.REPLAY_COUNT).orElse(0));
    }

    /**
     * The topic a dead letter is replayed to: its {@code qf.origin.topic} when that is a priority
     * topic, else {@link #FALLBACK_TOPIC}.
     */
    public static String targetTopic(Headers headers) {
        return targetTopic(headers, TopicNames.DEFAULT);
    }

    /** As above, for the deployment of {@code topics} ({@code topics.prefix}): its own priority topics only. */
    public static String targetTopic(Headers headers, TopicNames topics) {
        return FailureHeaders.string(headers, FailureHeaders.ORIGIN_TOPIC)
                .map(String::strip)
                .filter(topic -> topics.priorityOf(topic).isPresent())
                .orElse(topics.input(Priority.STANDARD));
    }

    /**
     * The record that replays {@code deadLetter}: to {@link #targetTopic}, same key and value bytes,
     * no timestamp (the producer stamps it: a fresh start), the dead letter's headers without any
     * {@code qf.*} one, plus {@code qf.replay.count} = previous + 1 and {@code qf.replay.of} =
     * {@code <partition>:<offset>} of the dead letter.
     */
    public static ProducerRecord<byte[], byte[]> replayRecord(ConsumerRecord<byte[], byte[]> deadLetter) {
        return replayRecord(deadLetter, deadLetter.value());
    }

    /** As {@link #replayRecord(ConsumerRecord)}, with {@code value} (the whole original of a truncated dead letter). */
    public static ProducerRecord<byte[], byte[]> replayRecord(ConsumerRecord<byte[], byte[]> deadLetter, byte[] value) {
        Headers source = deadLetter.headers();
        RecordHeaders headers = new RecordHeaders();
        for (Header header : source) {
            if (!header.key().startsWith("qf.")) {
                headers.add(header.key(), header.value());
            }
        }
        headers.add(FailureHeaders.REPLAY_COUNT,
                Integer.toString(replayCount(source) + 1).getBytes(StandardCharsets.UTF_8));
        headers.add(FailureHeaders.REPLAY_OF,
                (deadLetter.partition() + ":" + deadLetter.offset()).getBytes(StandardCharsets.UTF_8));
        // the deployment is the one whose dead-letter topic this is (topics.prefix)
        return new ProducerRecord<>(targetTopic(source, TopicNames.ofDlq(deadLetter.topic())), null, null,
                deadLetter.key(), value, headers);
    }

    // ---------------------------------------------------------------- helpers

    private static long remaining(Set<TopicPartition> active, Map<TopicPartition, Long> positions,
                                  Map<TopicPartition, Long> ends) {
        long left = 0;
        for (TopicPartition tp : active) {
            left += Math.max(0, ends.getOrDefault(tp, 0L) - positions.getOrDefault(tp, 0L));
        }
        return left;
    }

    private Duration elapsed(long startedNanos) {
        return Duration.ofNanos(nanoClock.getAsLong() - startedNanos);
    }

    /** Counts of one batch or of the whole run. */
    /** Opens the originals' consumer only when a truncated dead letter needs it. */
    private static final class LazyOriginals implements OriginalReader {
        private final Supplier<OriginalReader> factory;
        private OriginalReader reader;

        LazyOriginals(Supplier<OriginalReader> factory) {
            this.factory = factory;
        }

        @Override
        public Optional<byte[]> read(String topic, int partition, long offset) {
            if (reader == null) {
                reader = factory.get();
            }
            return reader.read(topic, partition, offset);
        }

        @Override
        public void close() {
            if (reader != null) {
                reader.close();
            }
        }
    }

    private static final class Tally {
        long examined;
        long replayed;
        long filtered;
        long maxReplays;
        long originalGone;
        final Map<String, Long> byTopic = new TreeMap<>();
        final Map<String, Long> byKind = new TreeMap<>();
        /** Next offset per partition after the records handled. */
        final Map<TopicPartition, Long> next = new HashMap<>();
        boolean interrupted;

        void count(ConsumerRecord<byte[], byte[]> record, Decision decision, String topic) {
            examined++;
            switch (decision) {
                case FILTERED -> filtered++;
                case MAX_REPLAYS -> maxReplays++;
                case ORIGINAL_GONE -> originalGone++;
                case REPLAY -> {
                    replayed++;
                    byTopic.merge(topic, 1L, Long::sum);
                    byKind.merge(FailureHeaders.string(record.headers(), FailureHeaders.ERROR_KIND).orElse("(none)"),
                            1L, Long::sum);
                }
            }
        }

        void add(Tally other) {
            examined += other.examined;
            replayed += other.replayed;
            filtered += other.filtered;
            maxReplays += other.maxReplays;
            originalGone += other.originalGone;
            other.byTopic.forEach((k, v) -> byTopic.merge(k, v, Long::sum));
            other.byKind.forEach((k, v) -> byKind.merge(k, v, Long::sum));
        }

        ReplaySummary summary(boolean dryRun, ReplaySummary.Outcome outcome, long remaining, Duration elapsed) {
            return new ReplaySummary(dryRun, outcome, examined, replayed, filtered, maxReplays,
                    new LinkedHashMap<>(byTopic), new LinkedHashMap<>(byKind), remaining, elapsed, originalGone);
        }
    }

    /** Spaces writes {@code 1 / rate} seconds apart (no burst); 0 = unlimited. */
    private final class Pacer {
        private final long intervalNanos;
        private long next;
        private boolean first = true;

        Pacer(double ratePerSecond) {
            this.intervalNanos = ratePerSecond == 0 ? 0 : (long) Math.ceil(1e9 / ratePerSecond);
        }

        /** Waits for the next slot; false when a stop was requested meanwhile. */
        boolean acquire(AtomicBoolean stopFlag) throws InterruptedException {
            if (intervalNanos == 0) {
                return true;
            }
            long now = nanoClock.getAsLong();
            if (first) {
                first = false;
                next = now;
            }
            while (now < next) {
                if (stopFlag.get()) {
                    return false;
                }
                long waitNanos = Math.min(next - now, 100_000_000L);
                Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
                now = nanoClock.getAsLong();
            }
            next = Math.max(now, next) + intervalNanos;
            return true;
        }
    }
}

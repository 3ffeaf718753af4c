package io.quotaflow.publish;

import org.apache.kafka.common.utils.Time;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.records.Priority;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Publishes a JSON-lines file of tickets to the priority topics, one record per line, key = ticket
 * id, value = the line's original bytes (never re-serialised). Routing and validation follow
 * {@link TicketLineParser}: lines that cannot be keyed are reported with their line numbers and
 * skipped, unless {@code sendInvalid} asks to send them anyway (key {@code line-N}) so that the
 * pipeline dead-letters them.
 *
 * <p>The producer is idempotent ({@code enable.idempotence=true}, {@code acks=all}) with
 * {@code linger.ms=5} and {@code compression.type=lz4}; extra client properties (security
 * settings, other compression, ...) override these defaults. {@link #publish} flushes before
 * returning, so every count in the {@link PublishSummary} is final. After the first failed send,
 * publishing stops reading new lines (a broken connection or authorisation would otherwise fail
 * every remaining record one timeout at a time).
 *
 * <p>Each acknowledged ticket can be reported as an {@link Accepted} (topic, partition, offset),
 * delivered on the calling thread like the issues.
 *
 * <p>One publish at a time per instance; {@link #requestStop()} may be called from any thread.
 */
public final class TicketPublisher implements AutoCloseable {

    static final long PROGRESS_INTERVAL_NANOS = Duration.ofMillis(200).toNanos();
    static final int PROGRESS_EVERY_RECORDS = 100;

    private final Producer<String, byte[]> producer;
    private final TopicNames topics;
    /** Deadlines and elapsed times: Kafka's adapter over the JVM's monotonic clock. */
    private final Time time = Time.SYSTEM;
    private volatile boolean stopRequested;

    /**
     * @param bootstrapServers Kafka bootstrap servers; when non-null it wins over a
     *                         {@code bootstrap.servers} entry in {@code clientProperties}
     * @param clientProperties extra producer properties, e.g. security settings (may be empty)
     */
    public TicketPublisher(String bootstrapServers, Map<String, ?> clientProperties) {
        this(bootstrapServers, clientProperties, TopicNames.DEFAULT);
    }

    /** As above, to the priority topics under {@code topics.prefix}. */
    public TicketPublisher(String bootstrapServers, Map<String, ?> clientProperties, TopicNames topics) {
        this(new KafkaProducer<>(producerConfig(bootstrapServers, clientProperties),
                new StringSerializer(), new ByteArraySerializer()), topics);
    }

    /**
     * Uses a producer made elsewhere (a {@code MockProducer} in tests, or a caller-configured
     * idempotent producer). {@link #close()} closes it.
     */
    public TicketPublisher(Producer<String, byte[]> producer) {
        this(producer, TopicNames.DEFAULT);
    }

    /** As above, to the priority topics under {@code topics.prefix}. */
    public TicketPublisher(Producer<String, byte[]> producer, TopicNames topics) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.topics = Objects.requireNonNull(topics, "topics");
    }

    /** The producer configuration used by {@link #TicketPublisher(String, Map)}. */
    public static Map<String, Object> producerConfig(String bootstrapServers, Map<String, ?> clientProperties) {
        return io.quotaflow.admin.KafkaClients.properties(Map.of(
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4",
                ProducerConfig.CLIENT_ID_CONFIG, "quotaflow-publish"), bootstrapServers, clientProperties);
    }

    /** Publishes valid tickets, skipping (and reporting through the summary) invalid lines. */
    public PublishSummary publish(Reader lines, Optional<Priority> override, Consumer<PublishProgress> progress) {
        return publish(lines, override, false, progress, issue -> { });
    }

    /**
     * Publishes every line of {@code lines} (text, sent as UTF-8).
     *
     * @param override    when present, every line goes to this priority's topic
     * @param sendInvalid send lines that cannot be keyed anyway, unchanged, under key {@code line-N}
     * @param progress    called about every 200 ms or 100 records, and once with {@code done=true}
     * @param issues      called, on the calling thread, for every invalid line, warning and failed send
     * @throws UncheckedIOException when reading fails (what was sent before is flushed first)
     */
    public PublishSummary publish(Reader lines, Optional<Priority> override, boolean sendInvalid,
                                  Consumer<PublishProgress> progress, Consumer<LineIssue> issues) {
        return run(LineSource.of(lines), override, sendInvalid, progress, issues, accepted -> { });
    }

    /**
     * Like {@link #publish(Reader, Optional, boolean, Consumer, Consumer)}, but byte-exact: each
     * line is sent as the bytes found in the stream (no charset decoding). Preferred for files.
     */
    public PublishSummary publish(InputStream lines, Optional<Priority> override, boolean sendInvalid,
                                  Consumer<PublishProgress> progress, Consumer<LineIssue> issues) {
        return publish(lines, override, sendInvalid, progress, issues, accepted -> { });
    }

    /**
     * As above, and tells {@code accepted}, on the calling thread, where each valid ticket went
     * once the broker acknowledged it (invalid lines sent anyway are not tickets and are reported
     * through {@code issues} only). Every acknowledgement is delivered before this returns.
     */
    public PublishSummary publish(InputStream lines, Optional<Priority> override, boolean sendInvalid,
                                  Consumer<PublishProgress> progress, Consumer<LineIssue> issues,
                                  Consumer<Accepted> accepted) {
        return run(LineSource.of(lines), override, sendInvalid, progress, issues, accepted);
    }

    /**
     * Asks a running publish (and any later one on this instance) to stop reading new lines; what
     * was already sent is still flushed and counted. For Ctrl+C handling.
     */
    public void requestStop() {
        stopRequested = true;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(30));
    }

    private PublishSummary run(LineSource source, Optional<Priority> override, boolean sendInvalid,
                               Consumer<PublishProgress> progress, Consumer<LineIssue> issues,
                               Consumer<Accepted> accepted) {
        Objects.requireNonNull(override, "override");
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(issues, "issues");
        Objects.requireNonNull(accepted, "accepted");
        Run run = new Run(issues, accepted);
        TicketLineParser parser = new TicketLineParser(override);
        long start = time.nanoseconds();
        long lastProgressAt = start;
        long lastProgressRecords = 0;
        boolean inputComplete = false;
        IOException readFailure = null;
        try {
            byte[] bytes;
            while (true) {
                run.drainAsyncIssues();
                if (run.failed.sum() > 0 || stopRequested) {
                    break;
                }
                bytes = source.next();
                if (bytes == null) {
                    inputComplete = true;
                    break;
                }
                long lineNumber = ++run.lines;
                Optional<TicketLine> parsed = parser.parse(lineNumber, bytes);
                if (parsed.isEmpty()) {
                    continue; // blank line
                }
                TicketLine line = parsed.get();
                if (!line.valid()) {
                    run.invalid++;
                    if (!sendInvalid) {
                        run.skipped++;
                        run.report(new LineIssue(lineNumber, LineIssue.Kind.INVALID, line.problem(), "skipped"));
                        continue;
                    }
                    run.report(new LineIssue(lineNumber, LineIssue.Kind.INVALID, line.problem(),
                            "sent to " + topics.input(line.priority()) + " as " + line.key()));
                }
                for (String warning : line.warnings()) {
                    run.warnings++;
                    String outcome = "sent to " + topics.input(line.priority());
                    if (TicketLineParser.NO_TEXT.equals(warning)) {
                        outcome += "; the pipeline will dead-letter it";
                    }
                    run.report(new LineIssue(lineNumber, LineIssue.Kind.WARNING, warning, outcome));
                }
                send(line, run);
                long now = time.nanoseconds();
                if (now - lastProgressAt >= PROGRESS_INTERVAL_NANOS
                        || run.sent - lastProgressRecords >= PROGRESS_EVERY_RECORDS) {
                    progress.accept(run.progress(now - start, false));
                    lastProgressAt = now;
                    lastProgressRecords = run.sent;
                }
            }
        } catch (IOException e) {
            readFailure = e;
        } finally {
            producer.flush();
        }
        run.drainAsyncIssues();
        long elapsed = time.nanoseconds() - start;
        progress.accept(run.progress(elapsed, true));
        if (readFailure != null) {
            throw new UncheckedIOException("reading input failed after line " + run.lines
                    + " (" + run.acknowledged() + " records published before that)", readFailure);
        }
        Map<Priority, Long> perPriority = new EnumMap<>(Priority.class);
        for (Priority p : Priority.values()) {
            perPriority.put(p, run.perPriority.get(p.ordinal()));
        }
        return new PublishSummary(run.lines, run.ticketsAcked.sum(), run.invalid, run.skipped,
                run.invalidAcked.sum(), run.warnings, run.failed.sum(), perPriority, Duration.ofNanos(elapsed),
                inputComplete, run.firstError.get(), run.kept);
    }

    private void send(TicketLine line, Run run) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topics.input(line.priority()), line.key(), line.value());
        boolean valid = line.valid();
        int slot = line.priority().ordinal();
        long lineNumber = line.lineNumber();
        run.sent++;
        try {
            producer.send(record, (RecordMetadata metadata, Exception e) -> {
                if (e == null) {
                    if (valid) {
                        run.asyncAccepted.add(Accepted.of(record.key(), metadata));
                    }
                    (valid ? run.ticketsAcked : run.invalidAcked).increment();
                    run.perPriority.incrementAndGet(slot);
                } else {
                    run.sendFailed(lineNumber, e);
                }
            });
        } catch (RuntimeException e) { // e.g. producer closed or fenced: fails synchronously
            run.sendFailed(lineNumber, e);
        }
    }

    /** State of one publish; the producer's callbacks touch only the thread-safe fields. */
    private static final class Run {
        final Consumer<LineIssue> issues;
        final Consumer<Accepted> accepted;
        final ConcurrentLinkedQueue<Accepted> asyncAccepted = new ConcurrentLinkedQueue<>();
        final List<LineIssue> kept = new ArrayList<>();
        final ConcurrentLinkedQueue<LineIssue> asyncIssues = new ConcurrentLinkedQueue<>();
        final LongAdder ticketsAcked = new LongAdder();
        final LongAdder invalidAcked = new LongAdder();
        final LongAdder failed = new LongAdder();
        final AtomicLongArray perPriority = new AtomicLongArray(Priority.values().length);
        final AtomicReference<String> firstError = new AtomicReference<>();
        long lines;
        long sent;
        long invalid;
        long skipped;
        long warnings;

        Run(Consumer<LineIssue> issues, Consumer<Accepted> accepted) {
            this.issues = issues;
            this.accepted = accepted;
        }

        void report(LineIssue issue) {
            if (kept.size() < PublishSummary.MAX_ISSUES) {
                kept.add(issue);
            }
            issues.accept(issue);
        }

        void sendFailed(long lineNumber, Exception e) {
            String message = e.getClass().getSimpleName() + ": " + e.getMessage();
            firstError.compareAndSet(null, message);
            failed.increment();
            asyncIssues.add(new LineIssue(lineNumber, LineIssue.Kind.SEND_FAILED, "send failed: " + message,
                    "not acknowledged"));
        }

        void drainAsyncIssues() {
            Accepted ack;
            while ((ack = asyncAccepted.poll()) != null) {
                accepted.accept(ack);
            }
            LineIssue issue;
            while ((issue = asyncIssues.poll()) != null) {
                report(issue);
            }
        }

        long acknowledged() {
            return ticketsAcked.sum() + invalidAcked.sum();
        }

        PublishProgress progress(long elapsedNanos, boolean done) {
            return new PublishProgress(lines, sent, acknowledged(), invalid, failed.sum(), Duration.ofNanos(elapsedNanos),
                    done);
        }
    }
}

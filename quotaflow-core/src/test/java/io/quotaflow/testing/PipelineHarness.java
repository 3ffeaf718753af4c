package io.quotaflow.testing;

import io.quotaflow.llm.ModelClient;
import io.quotaflow.records.Priority;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.topology.QuotaflowTopology;
import io.quotaflow.topology.Topics;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import io.quotaflow.testkit.RecordSchemas;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;

/** The whole topology on a {@link TopologyTestDriver}, with helpers to feed it and read it. */
public final class PipelineHarness implements AutoCloseable {

    public static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private final TopologyTestDriver driver;
    private final Map<Priority, TestInputTopic<String, byte[]>> inputs = new EnumMap<>(Priority.class);
    private final TestInputTopic<String, byte[]> retryIn;
    private final TestOutputTopic<String, byte[]> classified;
    private final TestOutputTopic<String, byte[]> retryOut;
    private final TestOutputTopic<String, byte[]> dlq;
    private final TestOutputTopic<String, byte[]> handoff;
    private final Path stateDir;
    private Instant now;

    public PipelineHarness(DispatcherSettings settings, ModelClient client) {
        this(settings, client, DispatcherListener.NONE);
    }

    public PipelineHarness(DispatcherSettings settings, ModelClient client, DispatcherListener listener) {
        this(settings, io.quotaflow.routing.ModelClients.of(client), listener);
    }

    /** A pipeline whose routes each call their own client. */
    public PipelineHarness(DispatcherSettings settings, io.quotaflow.routing.ModelClients clients, DispatcherListener listener) {
        this(settings, clients, listener, io.quotaflow.tracing.Tracing.NOOP);
    }

    /** A pipeline whose tickets' spans go to {@code tracing}. */
    public PipelineHarness(DispatcherSettings settings, io.quotaflow.routing.ModelClients clients, DispatcherListener listener,
                           io.quotaflow.tracing.Tracing tracing) {
        this(settings, clients, listener, tracing, START,
                org.apache.kafka.streams.state.BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
    }

    /**
     * A pipeline whose clock starts at {@code start}, its stores from {@code stores} (Streams'
     * {@code dsl.store.suppliers.class}): {@link SharedMemoryStores} hands a later harness what an
     * earlier one left, as a task's next owner restores it.
     */
    public PipelineHarness(DispatcherSettings settings, io.quotaflow.routing.ModelClients clients, DispatcherListener listener,
                           Instant start, Class<? extends org.apache.kafka.streams.state.DslStoreSuppliers> stores) {
        this(settings, clients, listener, io.quotaflow.tracing.Tracing.NOOP, start, stores);
    }

    /** The whole of it: spans to {@code tracing}, the clock from {@code start}, the stores from {@code stores}. */
    public PipelineHarness(DispatcherSettings settings, io.quotaflow.routing.ModelClients clients, DispatcherListener listener,
                           io.quotaflow.tracing.Tracing tracing, Instant start,
                           Class<? extends org.apache.kafka.streams.state.DslStoreSuppliers> stores) {
        this(settings, clients, listener, tracing, start, stores, Duration.ZERO);
    }

    /**
     * As the whole of it, in an instance that started {@code up} before its task was assigned at {@code start} (its
     * topology built then: the rebalances of instances starting together).
     */
    public PipelineHarness(DispatcherSettings settings, io.quotaflow.routing.ModelClients clients, DispatcherListener listener,
                           io.quotaflow.tracing.Tracing tracing, Instant start,
                           Class<? extends org.apache.kafka.streams.state.DslStoreSuppliers> stores, Duration up) {
        now = start.minus(up);
        try {
            stateDir = io.quotaflow.testkit.TestDirs.temporary("qf-ttd");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "quotaflow-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DEFAULT_TIMESTAMP_EXTRACTOR_CLASS_CONFIG, io.quotaflow.topology.DispatchLanes.Timestamps.class.getName());
        // the driver commits, and RocksDB flushes and checkpoints, at every advance step: in memory a topology test
        // runs in about a third of the time (QuotaflowTopologyStoresTest holds the production default, RocksDB)
        props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, stores);
        // the driver runs one task on partition 0 of every topic: one dispatch partition, which owns every scope
        HarnessTime time = new HarnessTime();
        org.apache.kafka.streams.Topology topology = QuotaflowTopology.build(settings.withDispatchPartitions(1), clients, new SplittableRandom(7),
                listener, props, time, new io.quotaflow.provider.RouteStateBoard(java.util.List.of(), time), tracing);
        now = start;
        driver = new TopologyTestDriver(topology, props, start);
        for (Priority p : Priority.values()) {
            inputs.put(p, driver.createInputTopic(p.topic(), new StringSerializer(), new ByteArraySerializer(), start, Duration.ZERO));
        }
        retryIn = driver.createInputTopic(Topics.RETRY.name(), new StringSerializer(), new ByteArraySerializer(), start, Duration.ZERO);
        classified = driver.createOutputTopic(Topics.CLASSIFIED.name(), new StringDeserializer(), new ByteArrayDeserializer());
        retryOut = driver.createOutputTopic(Topics.RETRY.name(), new StringDeserializer(), new ByteArrayDeserializer());
        dlq = driver.createOutputTopic(Topics.DLQ.name(), new StringDeserializer(), new ByteArrayDeserializer());
        handoff = driver.createOutputTopic(Topics.HANDOFF.name(), new StringDeserializer(), new ByteArrayDeserializer());
    }

    public void pipe(Priority priority, String key, byte[] value) {
        pipe(priority, key, value, new RecordHeaders());
    }

    public void pipe(Priority priority, String key, byte[] value, Headers headers) {
        inputs.get(priority).pipeInput(new TestRecord<>(key, value, headers, now));
    }

    /** Pipes a record published at {@code publishedAt} (its timestamp), which may be before now. */
    public void pipeAt(Priority priority, String key, byte[] value, Instant publishedAt) {
        inputs.get(priority).pipeInput(new TestRecord<>(key, value, new RecordHeaders(), publishedAt));
    }

    public void pipeRetry(String key, byte[] value, Headers headers) {
        retryIn.pipeInput(new TestRecord<>(key, value, headers, now));
    }

    /** Advances wall-clock time (firing punctuators) in steps of at most 50 ms. */
    public void advance(Duration duration) {
        long remaining = duration.toMillis();
        while (remaining > 0) {
            long step = Math.min(50, remaining);
            now = now.plusMillis(step);
            driver.advanceWallClockTime(Duration.ofMillis(step));
            remaining -= step;
        }
    }

    /** Moves wall-clock time on by {@code duration} in one step (one punctuation): a day without a million ticks. */
    public void jump(Duration duration) {
        now = now.plus(duration);
        driver.advanceWallClockTime(duration);
    }

    public Instant now() {
        return now;
    }

    /** The limiter's time: the driver's wall clock, which {@link #advance} and {@link #jump} move. */
    private final class HarnessTime implements Time {

        @Override
        public long milliseconds() {
            return now.toEpochMilli();
        }

        @Override
        public long nanoseconds() {
            return now.toEpochMilli() * 1_000_000L;
        }

        @Override
        public void sleep(long ms) {
            throw new UnsupportedOperationException("the harness's time moves with advance() and jump()");
        }
    }

    /** The results written since the last read; each one checked against {@code classification.schema.json}. */
    public List<TestRecord<String, byte[]>> classified() {
        List<TestRecord<String, byte[]>> records = classified.readRecordsToList();
        records.forEach(r -> RecordSchemas.assertClassification(r.key(), r.value()));
        return records;
    }

    /** The retries written since the last read; their headers checked against {@code dead-letter.schema.json}. */
    public List<TestRecord<String, byte[]>> retries() {
        List<TestRecord<String, byte[]>> records = retryOut.readRecordsToList();
        records.forEach(r -> RecordSchemas.assertDeadLetterHeaders(r.key(), r.headers()));
        return records;
    }

    /** The dead letters written since the last read; their headers checked against {@code dead-letter.schema.json}. */
    public List<TestRecord<String, byte[]>> deadLetters() {
        List<TestRecord<String, byte[]>> records = dlq.readRecordsToList();
        records.forEach(r -> RecordSchemas.assertDeadLetterHeaders(r.key(), r.headers()));
        return records;
    }

    /** The tickets handed off to people since the last read. */
    public List<TestRecord<String, byte[]>> handoffs() {
        return handoff.readRecordsToList();
    }

    public TopologyTestDriver driver() {
        return driver;
    }

    @Override
    public void close() {
        driver.close();
        try (var files = Files.walk(stateDir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException ignored) {
            // temp dir
        }
    }
}

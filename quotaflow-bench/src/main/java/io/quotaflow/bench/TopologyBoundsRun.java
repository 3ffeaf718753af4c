package io.quotaflow.bench;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.dispatch.report.DispatcherSnapshot;
import io.quotaflow.llm.ModelClient;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.records.Priority;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.topology.QuotaflowTopology;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * Bench (n), second part: the same outage through the whole topology ({@link QuotaflowTopology} in a
 * {@link TopologyTestDriver}, RocksDB stores on disk, no broker): tickets go in on the bulk topic,
 * through the intake, the dispatch repartition and the dispatcher, while the provider answers 401
 * (the route halts: nothing is sent but a probe now and then, every ticket waits); then it answers
 * again and the backlog drains. Wall-clock time moves 50 ms every {@value #TICKETS_PER_TICK} tickets,
 * firing the punctuators (proposal, status snapshot, sweeps) as a running task would. What the driver
 * keeps of every record written (results and changelogs alike) is read and dropped as it goes, so the
 * heap measured is the topology's.
 */
final class TopologyBoundsRun {

    static final int TICKETS_PER_TICK = 1_000;
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration TICK = Duration.ofMillis(50);

    /**
     * @param heap          rows of waiting, heap after GC (bytes), spilled, in memory
     * @param tickNs        each 50 ms step of wall-clock time (every punctuator due) while tickets arrive
     * @param drainTickNs   each step once the provider is back
     */
    record Figures(long baseline, List<long[]> heap, List<Long> tickNs, List<Long> drainTickNs, long answered, long lost,
                   long duplicates, long deadLetters, int maxSpilled, double publishSeconds, double drainSeconds, long probes) {
    }

    /** The provider: 401 while down (the route halts), labels every ticket once up. */
    private static final class Provider implements ModelClient {
        // the driver calls it on the thread that runs the whole topology, as the run itself
        boolean up;
        long refused;

        @Override
        public CompletionStage<ModelOutcome> classify(ModelRequest request) {
            if (!up) {
                refused++;
                return CompletableFuture.completedFuture(new ModelOutcome.Failed(ModelOutcome.FailureKind.HALT, 401,
                        "invalid api key (the provider is down for the benchmark)", Optional.empty(), RateLimitInfo.EMPTY, 5));
            }
            Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
            for (ModelItem item : request.items()) {
                labels.put(item.id(), new ModelOutcome.Label("billing", "low"));
            }
            return CompletableFuture.completedFuture(new ModelOutcome.Answered(labels, Map.of(), "stop",
                    request.prompt().promptTokens(), 12L * labels.size(), RateLimitInfo.EMPTY, 5));
        }
    }

    private TopologyBoundsRun() {
    }

    static Figures run(DispatcherSettings settings, int tickets, int tenants, Path stateDir, Consumer<String> progress) {
        Provider provider = new Provider();
        // the latest snapshot of each scope (one here: one route), published every 500 ms of wall-clock time
        Map<String, DispatcherSnapshot> last = new java.util.concurrent.ConcurrentHashMap<>();
        DispatcherListener listener = new DispatcherListener() {
            @Override
            public void state(DispatcherSnapshot snapshot) {
                last.put(snapshot.scope(), snapshot);
            }
        };
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "quotaflow-bounds");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        long[] nowMs = {START.toEpochMilli()};
        Time time = new DriverTime(nowMs);
        try (TopologyTestDriver driver = new TopologyTestDriver(QuotaflowTopology.build(
                // the driver runs one task on partition 0: one dispatch partition, which owns every scope
                settings.withDispatchPartitions(1), ModelClients.of(provider),
                new SplittableRandom(7), listener, props, time), props, START)) {
            TestInputTopic<String, byte[]> bulk = driver.createInputTopic(Priority.BULK.topic(), new StringSerializer(),
                    new ByteArraySerializer(), START, Duration.ZERO);
            Outputs outputs = new Outputs(driver);
            long baseline = BoundsRun.heapAfterGc();
            List<long[]> heap = new ArrayList<>();
            List<Long> tickNs = new ArrayList<>();
            int maxSpilled = 0;
            long publishStart = System.nanoTime();
            for (int i = 0; i < tickets; i++) {
                String id = "B-" + i;
                String tenant = "tenant-" + (i % tenants);
                byte[] value = ("{\"id\":\"" + id + "\",\"tenant\":\"" + tenant + "\",\"subject\":\"invoice " + i
                        + "\",\"body\":\"I was charged twice for order " + i + ", please refund one\"}").getBytes(StandardCharsets.UTF_8);
                bulk.pipeInput(new TestRecord<>(id, value, null, Instant.ofEpochMilli(nowMs[0])));
                if ((i + 1) % TICKETS_PER_TICK == 0) {
                    tickNs.add(step(driver, nowMs));
                    outputs.drain();
                    maxSpilled = Math.max(maxSpilled, spilled(last));
                }
                if (checkpoint(i + 1, tickets)) {
                    // half a second more, so that every scope's snapshot counts the tickets just taken in
                    for (int k = 0; k < 10; k++) {
                        tickNs.add(step(driver, nowMs));
                    }
                    outputs.drain();
                    long used = BoundsRun.heapAfterGc();
                    int spilled = spilled(last);
                    maxSpilled = Math.max(maxSpilled, spilled);
                    int pending = last.values().stream().flatMap(s -> s.pending().values().stream()).mapToInt(Integer::intValue).sum();
                    heap.add(new long[] {i + 1, used, spilled, Math.max(0, pending - spilled)});
                    progress.accept(String.format(java.util.Locale.ROOT, "whole topology: %,d waiting, heap %,d MiB after GC, %,d spilled",
                            i + 1, used >> 20, spilled));
                }
            }
            double publishSeconds = (System.nanoTime() - publishStart) / 1e9;
            long probes = provider.refused;
            provider.up = true;
            progress.accept("whole topology: the provider is back");
            List<Long> drainTickNs = new ArrayList<>();
            long drainStart = System.nanoTime();
            // a halted route probes every 30 s: up to a minute of wall-clock time until it knows, then the drain
            for (int steps = 0; outputs.answered.cardinality() < tickets && steps < 2_000_000; steps++) {
                drainTickNs.add(step(driver, nowMs));
                outputs.drain();
            }
            double drainSeconds = (System.nanoTime() - drainStart) / 1e9;
            long answered = outputs.answered.cardinality();
            return new Figures(baseline, heap, tickNs, drainTickNs, answered, tickets - answered - outputs.deadLetters,
                    outputs.duplicates, outputs.deadLetters, maxSpilled, publishSeconds, drainSeconds, probes);
        }
    }

    private static long step(TopologyTestDriver driver, long[] nowMs) {
        long t0 = System.nanoTime();
        nowMs[0] += TICK.toMillis();
        driver.advanceWallClockTime(TICK);
        return System.nanoTime() - t0;
    }

    private static int spilled(Map<String, DispatcherSnapshot> last) {
        return last.values().stream().flatMap(s -> s.spilled().values().stream()).mapToInt(Integer::intValue).sum();
    }

    /** Where to sample the heap: 50 000, 100 000, then every 250 000, and the last. */
    private static boolean checkpoint(int n, int total) {
        return n == total || n == 50_000 || n == 100_000 || n % 250_000 == 0;
    }

    /** Reads and drops what the driver kept of each topic written; counts results by ticket. */
    private static final class Outputs {
        private final TopologyTestDriver driver;
        private final Map<String, TestOutputTopic<String, byte[]>> topics = new HashMap<>();
        final BitSet answered = new BitSet();
        long duplicates;
        long deadLetters;

        Outputs(TopologyTestDriver driver) {
            this.driver = driver;
        }

        void drain() {
            for (String name : driver.producedTopicNames()) {
                TestOutputTopic<String, byte[]> topic = topics.computeIfAbsent(name,
                        n -> driver.createOutputTopic(n, new StringDeserializer(), new ByteArrayDeserializer()));
                if (topic.isEmpty()) {
                    continue;
                }
                List<TestRecord<String, byte[]>> records = topic.readRecordsToList();
                if (name.equals(io.quotaflow.topology.Topics.CLASSIFIED.name())) {
                    for (TestRecord<String, byte[]> r : records) {
                        int n = Integer.parseInt(r.key().substring(r.key().indexOf(":B-") + 3));
                        if (answered.get(n)) {
                            duplicates++;
                        }
                        answered.set(n);
                    }
                } else if (name.equals(io.quotaflow.topology.Topics.DLQ.name())) {
                    deadLetters += records.size();
                }
            }
        }
    }

    /** The driver's wall clock, which the run moves in 50 ms steps. */
    private record DriverTime(long[] nowMs) implements Time {
        @Override
        public long milliseconds() {
            return nowMs[0];
        }

        @Override
        public long nanoseconds() {
            return nowMs[0] * 1_000_000L;
        }

        @Override
        public void sleep(long ms) {
            throw new UnsupportedOperationException("the run's time moves in steps");
        }
    }
}

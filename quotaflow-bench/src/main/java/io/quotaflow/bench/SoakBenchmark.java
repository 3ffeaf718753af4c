package io.quotaflow.bench;

import io.micrometer.core.instrument.Gauge;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.demo.TempDirs;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.settings.Routing;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.simulator.SimulatorStats;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The soak scenario (docs/benchmark.md, "Soak"): one pipeline instance fed at a steady rate for a
 * long time (200,000 tickets over an hour by default, against a 2 M TPM provider), sampled every
 * minute: the heap right after a full collection, the process's resident set, each state store's
 * size (its files on disk and its memtables not flushed yet) and RocksDB's estimate of its keys, the stream threads' punctuation times and the
 * queue depth. Then the verdict: the heap and the stores flat within {@link #TOLERANCE} from the
 * settle mark on ({@link SoakVerdict}), nothing lost, nothing duplicated, no 429.
 *
 * <p>The broker, the simulator and the pipeline share this JVM, so the heap and the resident set
 * are theirs together; the stores are the pipeline's alone. Not a test: it reports.
 */
public final class SoakBenchmark {

    public static final String NAME = "soak";
    public static final int DEFAULT_MINUTES = 60;
    /** Tickets of an hour; a shorter run gets its share at the same rate. */
    public static final int TICKETS_PER_HOUR = 200_000;
    public static final long DEFAULT_RPM = 10_000;
    public static final long DEFAULT_TPM = 2_000_000;
    /** The first minutes are start-up (the JIT, the stores' first flushes and compactions): the verdict starts after them. */
    public static final Duration DEFAULT_SETTLE = Duration.ofMinutes(10);
    public static final double TOLERANCE = 0.10;
    /**
     * The soak's {@code status.retention} and {@code cache.ttl}, with no stale answers kept after it
     * ({@code cache.stale-ttl} 0): with the defaults (1 h, 24 h, then 7 days stale) the statuses and
     * the cache grow by design for that long (every ticket is new), so the stores could not be flat
     * within an hour; 5 minutes puts their steady state before the settle mark.
     */
    public static final Duration DEFAULT_RETENTION = Duration.ofMinutes(5);
    private static final long MIB = 1024 * 1024;
    private static final int PUBLISH_SLICE = 2_000;

    /**
     * @param duration       how long tickets are published, at an even rate
     * @param tickets        how many in all
     * @param rpm            the provider's (and the pipeline's) requests per minute
     * @param tpm            its tokens per minute
     * @param sampleInterval how often the figures are sampled (a minute)
     * @param settle         the verdict's settle mark
     * @param drainTimeout   how long the last tickets may take after the publishing ends
     * @param seed           the generator's seed
     * @param retention      {@code status.retention} and {@code cache.ttl} of the pipeline; null: the defaults (1 h and 24 h,
     *                       so the stores grow by design for that long)
     */
    public record Options(Duration duration, int tickets, long rpm, long tpm, Duration sampleInterval, Duration settle,
                          Duration drainTimeout, long seed, Duration retention) {

        public Options {
            if (duration.isNegative() || duration.isZero() || tickets < 1 || rpm < 1 || tpm < 1 || sampleInterval.isZero()
                    || sampleInterval.isNegative()) {
                throw new IllegalArgumentException("invalid soak options: " + duration + ", " + tickets + " tickets, " + rpm + " RPM, "
                        + tpm + " TPM, every " + sampleInterval);
            }
        }

        /**
         * {@code minutes} of publishing, sampled every minute; {@code tickets} null: the hour's
         * {@value #TICKETS_PER_HOUR} pro rata; the settle mark at 10 minutes, or half the run when that is shorter.
         */
        public static Options of(int minutes, Integer tickets, long rpm, long tpm, long seed) {
            Duration d = Duration.ofMinutes(minutes);
            int n = tickets != null ? tickets : (int) Math.max(1, (long) TICKETS_PER_HOUR * minutes / 60);
            Duration settle = DEFAULT_SETTLE.compareTo(d.dividedBy(2)) <= 0 ? DEFAULT_SETTLE : d.dividedBy(2);
            // the stores' steady state must come before the mark: a short run keeps entries half as long as its mark
            Duration retention = settle.compareTo(DEFAULT_SETTLE) >= 0 ? DEFAULT_RETENTION : settle.dividedBy(2);
            return new Options(d, n, rpm, tpm, Duration.ofMinutes(1), settle, Duration.ofMinutes(10), seed, retention);
        }

        public Options withSampling(Duration interval, Duration settleMark) {
            return new Options(duration, tickets, rpm, tpm, interval, settleMark, drainTimeout, seed, retention);
        }

        /** {@code status.retention} and {@code cache.ttl}; null: the pipeline's defaults. */
        public Options withRetention(Duration value) {
            return new Options(duration, tickets, rpm, tpm, sampleInterval, settle, drainTimeout, seed, value);
        }
    }

    /** The samples, the verdicts and whether the run was clean. */
    public record Result(Options options, List<SoakSample> samples, List<SoakVerdict> verdicts, long lost, long duplicates,
                         long http429, String report, boolean clean) {
    }

    private final Options options;
    private final Consumer<String> out;

    public SoakBenchmark(Options options, Consumer<String> out) {
        this.options = options;
        this.out = out;
    }

    public Result run() {
        String apiKey = "sk-soak-" + UUID.randomUUID();
        Path stateDir = null;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            try (Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
                TopicsApplier.bundled().apply(admin);
            }
            SimulatorConfig simConfig = SimulatorConfig.builder().port(0).rpm(options.rpm()).tpm(options.tpm()).burstSeconds(5)
                    .apiKeys(Set.of(apiKey)).build();
            try (ProviderSimulator sim = ProviderSimulator.start(simConfig)) {
                stateDir = Files.createTempDirectory("quotaflow-soak-state-");
                Scenario shape = new Scenario(NAME, NAME, "soak", options.tickets(), options.rpm(), options.tpm(), 5, 1, Binding.TPM, false);
                try (Pipeline pipeline = Pipeline.start(withRetention(BenchmarkRunner.config(shape, broker.bootstrapServers(), stateDir,
                        sim.baseUrl(), simConfig.model(), apiKey)))) {
                    if (!pipeline.awaitRunning(Duration.ofSeconds(120))) {
                        throw new IllegalStateException("the pipeline did not start: " + pipeline.streams().state());
                    }
                    out.accept(String.format(Locale.ROOT, "%,d tickets over %s (%,.0f a minute), %,d RPM, %,d TPM; status.retention and "
                                    + "cache.ttl %s; a sample every %s, verdict from %s on", options.tickets(),
                            ResultTable.duration(options.duration().toMillis()), options.tickets() * 60_000.0 / options.duration().toMillis(),
                            options.rpm(), options.tpm(), options.retention() == null ? "the defaults"
                                    : ResultTable.duration(options.retention().toMillis()),
                            ResultTable.duration(options.sampleInterval().toMillis()), ResultTable.duration(options.settle().toMillis())));
                    out.accept(header());
                    return feedAndSample(broker, sim, pipeline, stateDir);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            if (stateDir != null) {
                TempDirs.deleteQuietly(stateDir);
            }
        }
    }

    private QuotaflowConfig withRetention(QuotaflowConfig config) {
        Duration r = options.retention();
        if (r == null) {
            return config;
        }
        DispatcherSettings d = config.dispatcher();
        Routing routing = d.routing();
        Routing shorter = new Routing(routing.routes(), routing.defaultRoute(), routing.byPriority(), routing.byTenant(), routing.maxWait(), r,
                routing.cacheShared()).withCacheStaleTtl(Duration.ZERO);
        return new QuotaflowConfig(config.bootstrapServers(), config.applicationId(), config.stateDir(), config.httpPort(), config.kafka(),
                d.withRouting(shorter).withStatusRetention(r), config.instanceId(), config.httpBind(), config.http());
    }

    private Result feedAndSample(EmbeddedKafkaBroker broker, ProviderSimulator sim, Pipeline pipeline, Path stateDir) {
        TicketGenerator generator = new TicketGenerator(options.seed(), 0);
        List<SoakSample> samples = new ArrayList<>();
        long durationMs = options.duration().toMillis();
        long intervalMs = options.sampleInterval().toMillis();
        try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of());
             SoakTally tally = new SoakTally(broker.bootstrapServers())) {
            long start = System.currentTimeMillis();
            long nextSample = start + intervalMs;
            int published = 0;
            while (true) {
                tally.poll(Duration.ofMillis(100));
                long now = System.currentTimeMillis();
                int due = now - start >= durationMs ? options.tickets() : (int) ((long) options.tickets() * (now - start) / durationMs);
                while (published < due) {
                    int to = Math.min(due, published + PUBLISH_SLICE);
                    publish(publisher, generator, published, to);
                    published = to;
                }
                boolean done = published == options.tickets() && tally.classified() + tally.deadLettered() >= options.tickets();
                if (now >= nextSample || done) {
                    SoakSample s = sample(now - start, published, tally, sim.stats(), pipeline, stateDir);
                    samples.add(s);
                    out.accept(line(s));
                    nextSample += intervalMs;
                }
                if (done) {
                    break;
                }
                if (now - start > durationMs + options.drainTimeout().toMillis()) {
                    out.accept("the last tickets did not come back within " + ResultTable.duration(options.drainTimeout().toMillis()));
                    break;
                }
            }
            awaitLateDuplicates(tally);
            return result(samples, tally.missing(options.tickets()), tally.duplicates(), sim.stats().http429());
        }
    }

    private static void publish(TicketPublisher publisher, TicketGenerator generator, int from, int to) {
        List<GeneratedTicket> slice = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            slice.add(generator.ticket(i));
        }
        PublishSummary summary = publisher.publish(new ByteArrayInputStream(TicketGenerator.jsonLines(slice)), Optional.empty(), false,
                p -> { }, issue -> { });
        if (!summary.succeeded() || summary.acknowledged() != slice.size()) {
            throw new IllegalStateException("publishing failed: " + summary.describe());
        }
    }

    private static void awaitLateDuplicates(SoakTally tally) {
        long quietUntil = System.currentTimeMillis() + 1_500;
        while (System.currentTimeMillis() < quietUntil) {
            tally.poll(Duration.ofMillis(250));
        }
    }

    static SoakSample sample(long elapsedMs, int published, SoakTally tally, SimulatorStats stats, Pipeline pipeline, Path stateDir) {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        Map<? extends MetricName, ? extends Metric> metrics = pipeline.streams().metrics();
        double queue = pipeline.metrics().registry().find("quotaflow.queue.depth").gauges().stream().mapToDouble(Gauge::value).sum();
        Map<String, Long> bytes = storeBytes(stateDir);
        storeMetric(metrics, "cur-size-all-mem-tables").forEach((store, b) -> bytes.merge(store, b, Long::sum));
        return new SoakSample(elapsedMs, published, tally.classified(), tally.deadLettered(), heap, rss(), bytes,
                storeMetric(metrics, "estimate-num-keys"), largest(metrics, "block-cache-usage"),
                largest(metrics, "block-cache-capacity"), threadMetric(metrics, "punctuate-latency-avg", false),
                threadMetric(metrics, "punctuate-latency-max", true), Math.round(queue), stats.totalRequests(), stats.http429());
    }

    /** The process's resident set in bytes ({@code VmRSS} of {@code /proc/self/status}); 0 where there is none. */
    static long rss() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/status"))) {
            return lines.filter(l -> l.startsWith("VmRSS:")).findFirst()
                    .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024).orElse(0L);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** Bytes on disk per store: the files under each {@code rocksdb/STORE} directory of every task. */
    static Map<String, Long> storeBytes(Path stateDir) {
        Map<String, Long> sizes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(stateDir)) {
            files.filter(Files::isRegularFile).forEach(f -> {
                Path rel = stateDir.relativize(f);
                for (int i = 0; i + 1 < rel.getNameCount() - 1; i++) {
                    if (rel.getName(i).toString().equals("rocksdb")) {
                        sizes.merge(rel.getName(i + 1).toString(), size(f), Long::sum);
                        return;
                    }
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // a file compacted away while walking: the next sample sees the rest
        }
        return sizes;
    }

    private static long size(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * A RocksDB property metric per store, every task's together: {@code estimate-num-keys}, or
     * {@code cur-size-all-mem-tables} (what a store holds in memory and has not flushed to disk yet).
     */
    static Map<String, Long> storeMetric(Map<? extends MetricName, ? extends Metric> metrics, String metric) {
        Map<String, Long> values = new TreeMap<>();
        metrics.forEach((name, m) -> {
            if (name.name().equals(metric) && m.metricValue() instanceof Number n) {
                String store = name.tags().entrySet().stream().filter(t -> t.getKey().endsWith("-state-id")).map(Map.Entry::getValue)
                        .findFirst().orElse("?");
                values.merge(store, n.longValue(), Long::sum);
            }
        });
        return values;
    }

    /**
     * The largest value of a store metric over every store of every task: for {@code block-cache-*} that
     * is the cache they share (each store reports it; a sum would count it once a store).
     */
    static long largest(Map<? extends MetricName, ? extends Metric> metrics, String metric) {
        long largest = 0;
        for (Map.Entry<? extends MetricName, ? extends Metric> e : metrics.entrySet()) {
            if (e.getKey().name().equals(metric) && e.getValue().metricValue() instanceof Number n) {
                largest = Math.max(largest, n.longValue());
            }
        }
        return largest;
    }

    /** A stream-thread metric in milliseconds, the largest (or the sum, for averages of one thread) over the threads; 0 when none. */
    static double threadMetric(Map<? extends MetricName, ? extends Metric> metrics, String metric, boolean max) {
        double value = 0;
        for (Map.Entry<? extends MetricName, ? extends Metric> e : metrics.entrySet()) {
            if (e.getKey().name().equals(metric) && e.getKey().group().equals("stream-thread-metrics")
                    && e.getValue().metricValue() instanceof Number n && !Double.isNaN(n.doubleValue())) {
                value = max ? Math.max(value, n.doubleValue()) : value + n.doubleValue();
            }
        }
        return value;
    }

    private Result result(List<SoakSample> samples, long lost, long duplicates, long http429) {
        long settleMs = options.settle().toMillis();
        List<Long> at = samples.stream().map(SoakSample::elapsedMs).toList();
        List<SoakVerdict> verdicts = new ArrayList<>();
        verdicts.add(SoakVerdict.of("heap after GC", at, samples.stream().map(SoakSample::heapAfterGcBytes).toList(), settleMs, TOLERANCE));
        verdicts.add(SoakVerdict.of("state stores", at, samples.stream().map(SoakSample::totalStoreBytes).toList(), settleMs,
                TOLERANCE));
        boolean flat = verdicts.stream().allMatch(SoakVerdict::flat);
        boolean clean = flat && lost == 0 && duplicates == 0 && http429 == 0;
        return new Result(options, List.copyOf(samples), List.copyOf(verdicts), lost, duplicates, http429,
                report(samples, verdicts, lost, duplicates, http429, settleMs, clean), clean);
    }

    private String report(List<SoakSample> samples, List<SoakVerdict> verdicts, long lost, long duplicates, long http429, long settleMs,
                          boolean clean) {
        StringBuilder sb = new StringBuilder();
        sb.append(header()).append('\n');
        samples.forEach(s -> sb.append(line(s)).append('\n'));
        List<Long> at = samples.stream().map(SoakSample::elapsedMs).toList();
        sb.append("\nverdict (from ").append(ResultTable.duration(settleMs)).append(" on, flat = within ")
                .append(Math.round(TOLERANCE * 100)).append(" % of the value at the mark):\n");
        verdicts.forEach(v -> sb.append("  ").append(v.describe(true)).append('\n'));
        Set<String> stores = new java.util.TreeSet<>();
        samples.forEach(s -> stores.addAll(s.storeBytes().keySet()));
        for (String store : stores) {
            SoakVerdict v = SoakVerdict.of(store, at, samples.stream().map(s -> s.storeBytes().getOrDefault(store, 0L)).toList(), settleMs,
                    TOLERANCE);
            sb.append("    ").append(v.describe(true)).append('\n');
        }
        if (samples.stream().anyMatch(s -> !s.storeKeys().isEmpty())) {
            sb.append("  ").append(SoakVerdict.of("keys (RocksDB estimate, every store)", at,
                    samples.stream().map(SoakSample::totalStoreKeys).toList(), settleMs, TOLERANCE).describe(false)).append(" (not judged)\n");
        }
        sb.append(String.format(Locale.ROOT, "%,d tickets: %d lost, %d duplicated, %d × 429: %s%n", options.tickets(), lost, duplicates,
                http429, clean ? "FLAT AND CLEAN" : "NOT CLEAN"));
        return sb.toString();
    }

    static String header() {
        return String.format(Locale.ROOT, "%8s %9s %10s %5s %9s %9s %10s %11s %11s %9s %9s %7s %7s %5s", "minute", "published",
                "classified", "dlq", "heap MiB", "RSS MiB", "stores MiB", "store keys", "rocksdb MiB", "tick avg", "tick max", "queue", "calls", "429s");
    }

    static String line(SoakSample s) {
        return String.format(Locale.ROOT, "%8.1f %9d %10d %5d %9.1f %9.1f %10.2f %11d %11.1f %7.2fms %7.1fms %7d %7d %5d",
                s.elapsedMs() / 60_000.0, s.published(), s.classified(), s.deadLettered(), s.heapAfterGcBytes() / (double) MIB,
                s.rssBytes() / (double) MIB, s.totalStoreBytes() / (double) MIB, s.totalStoreKeys(), s.blockCacheBytes() / (double) MIB,
                s.tickAvgMs(), s.tickMaxMs(), s.queueDepth(), s.calls(), s.http429());
    }
}

package io.quotaflow.bench;

import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.simulator.EngineCall;
import io.quotaflow.simulator.EngineMode;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import org.apache.kafka.clients.admin.Admin;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Bench (y), self-hosted (docs/benchmark.md, "A self-hosted engine: (y)"): the simulator as an
 * engine whose throughput saturates at {@value #SATURATION} running calls of {@value #BASE_MS} ms
 * and which refuses more than {@value #MAX_RUNNING} running with a TGI-style 429, no rate limits and
 * no rate-limit headers. quotaflow runs it three times in one run, each on a fresh broker and engine
 * with a backlog of standard tickets: the route configured as an engine ({@code rpm=none},
 * {@code tpm=none}, {@code quota.max-in-flight=auto}); configured as a new user might, with huge
 * numeric limits ({@code rpm=1000000}, {@code tpm=100000000}, {@code auto}), which quotaflow must
 * find out for itself; and the baseline, the same huge limits with a fixed
 * {@code quota.max-in-flight=128}. It prints, for the calls started in the measured window, the
 * calls per second against the engine's most (K / unloaded latency), the median and p90 call
 * against an unloaded one, the calls running on average, the overload refusals, and whether the
 * route's {@code /status} says it looks like an engine; then the ratios. Not a test: it reports.
 */
public final class SelfHostedBenchmark {

    public static final String KEY = "y";
    public static final String NAME = "self-hosted";
    static final int SATURATION = 8;
    static final int MAX_RUNNING = 128;
    static final long BASE_MS = 500;
    static final int BASELINE_IN_FLIGHT = 128;
    /** What a new user might configure for an engine: limits no engine comes near. */
    static final int HUGE_RPM = 1_000_000;
    static final int HUGE_TPM = 100_000_000;
    /** Not measured: the time to find the knee (and the pipeline's start). */
    static final Duration WARM_UP = Duration.ofSeconds(10);
    static final Duration MEASURED = Duration.ofSeconds(40);
    /**
     * Enough for the engine's most throughput through warm-up and window, with room to spare, one a
     * call: what is measured is the engine's calls, and the pipeline's own work per call stays small
     * on a busy machine.
     */
    static final int TICKETS = 2_000;

    /** Whether a {@code --scenario} selection names this benchmark (it runs alone). */
    public static boolean named(String selection) {
        String s = selection.strip().toLowerCase(Locale.ROOT);
        return KEY.equals(s) || NAME.equals(s);
    }

    /** What one variant measured over the window. */
    public record Figures(String variant, double callsPerSecond, double medianMs, double p90Ms, double meanRunning, int peak,
                          long refusals, long refusalsAfterStart, boolean said) {

        double ofMost() {
            return callsPerSecond / (SATURATION * 1000.0 / BASE_MS);
        }
    }

    /** The report, and whether auto met its marks (≥ 90 % of the most, median under 1.5 × unloaded, no late refusal). */
    public record Result(String report, boolean clean) {
    }

    private final long seed;
    private final Consumer<String> progress;

    public SelfHostedBenchmark(long seed, Consumer<String> progress) {
        this.seed = seed;
        this.progress = progress;
    }

    public Result run() {
        Figures none = variant("rpm=none, tpm=none, max-in-flight=auto", QuotaSettings.NONE, QuotaSettings.NONE, QuotaSettings.AUTO);
        Figures huge = variant("rpm=" + HUGE_RPM + ", tpm=" + HUGE_TPM + ", max-in-flight=auto", HUGE_RPM, HUGE_TPM, QuotaSettings.AUTO);
        Figures fixed = variant("rpm=" + HUGE_RPM + ", tpm=" + HUGE_TPM + ", max-in-flight=" + BASELINE_IN_FLIGHT + " (baseline)",
                HUGE_RPM, HUGE_TPM, BASELINE_IN_FLIGHT);
        StringBuilder out = new StringBuilder();
        double most = SATURATION * 1000.0 / BASE_MS;
        out.append(String.format(Locale.ROOT, "%n(y) self-hosted: an engine saturating at %d running calls of %d ms (at most %.1f calls/s), "
                        + "refusing beyond %d with a 429 \"Model is overloaded\"; no rate limits, no rate-limit headers; "
                        + "%,d standard tickets, one a call; calls started %d–%d s after the first%n%n", SATURATION, BASE_MS, most,
                MAX_RUNNING, TICKETS, WARM_UP.toSeconds(), (WARM_UP.plus(MEASURED)).toSeconds()));
        out.append("| route | calls/s | of the engine's most | median call | × unloaded | p90 call | running (mean / peak) "
                + "| overload 429s (after 5 s) | /status: looks like an engine |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (Figures f : List.of(none, huge, fixed)) {
            out.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f %% | %.2f s | %.2f | %.2f s | %.1f / %d | %d (%d) | %s |%n", f.variant(),
                    f.callsPerSecond(), 100 * f.ofMost(), f.medianMs() / 1000, f.medianMs() / BASE_MS, f.p90Ms() / 1000,
                    f.meanRunning(), f.peak(), f.refusals(), f.refusalsAfterStart(), f.said() ? "yes" : "no"));
        }
        boolean clean = true;
        for (Figures auto : List.of(none, huge)) {
            out.append(String.format(Locale.ROOT, "%n%s against the baseline: throughput × %.2f, median call ÷ %.1f, p90 call ÷ %.1f%n",
                    auto.variant(), auto.callsPerSecond() / Math.max(1e-9, fixed.callsPerSecond()),
                    fixed.medianMs() / Math.max(1, auto.medianMs()), fixed.p90Ms() / Math.max(1, auto.p90Ms())));
            boolean ok = auto.ofMost() >= 0.9 && auto.medianMs() < 1.5 * BASE_MS && auto.refusals() == 0;
            out.append(String.format(Locale.ROOT, "%s: >= 90 %% of the most: %s; median under 1.5 × unloaded: %s; no overload 429: %s%n",
                    auto.variant(), yes(auto.ofMost() >= 0.9), yes(auto.medianMs() < 1.5 * BASE_MS), yes(auto.refusals() == 0)));
            clean &= ok;
        }
        return new Result(out.toString(), clean);
    }

    private static String yes(boolean ok) {
        return ok ? "yes" : "NO";
    }

    private Figures variant(String variant, int rpm, int tpm, int maxInFlight) {
        String key = "sk-bench-self-hosted";
        progress.accept(variant + ": starting Kafka broker, engine and pipeline");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            try (Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
                TopicsApplier.bundled().apply(admin);
            }
            SimulatorConfig simConfig = SimulatorConfig.builder().port(0).apiKeys(Set.of(key)).baseLatencyMs(BASE_MS)
                    .perCompletionTokenMs(0).latencyJitter(0.1).seed(seed).engine(EngineMode.of(SATURATION, MAX_RUNNING)).build();
            try (ProviderSimulator sim = ProviderSimulator.start(simConfig);
                 Pipeline pipeline = Pipeline.start(config(broker.bootstrapServers(), sim.baseUrl(), simConfig.model(), key, rpm, tpm, maxInFlight))) {
                if (!pipeline.awaitRunning(Duration.ofSeconds(90))) {
                    throw new IllegalStateException("the pipeline did not start: " + pipeline.streams().state());
                }
                var tickets = new TicketGenerator(seed).generate(TICKETS);
                try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of())) {
                    var summary = publisher.publish(new ByteArrayInputStream(TicketGenerator.jsonLines(tickets)), Optional.of(Priority.STANDARD),
                            false, p -> { }, i -> { });
                    if (!summary.succeeded()) {
                        throw new IllegalStateException("publishing failed: " + summary.describe());
                    }
                }
                long first = awaitFirstCall(sim);
                long end = first + WARM_UP.plus(MEASURED).toMillis();
                progress.accept(variant + ": measuring calls started " + WARM_UP.toSeconds() + "–" + WARM_UP.plus(MEASURED).toSeconds()
                        + " s after the first");
                while (sim.uptime().toMillis() < end) {
                    Thread.sleep(200);
                }
                boolean said = pipeline.metrics().snapshots().stream().anyMatch(snapshot -> snapshot.engine() != null);
                return figures(variant, sim, first + WARM_UP.toMillis(), end, first, said);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static long awaitFirstCall(ProviderSimulator sim) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 120_000;
        while (sim.engineCalls().isEmpty()) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("no call reached the engine within 120 s");
            }
            Thread.sleep(50);
        }
        return sim.engineCalls().get(0).atMs();
    }

    static Figures figures(String variant, ProviderSimulator sim, long fromMs, long toMs, long firstMs, boolean said) {
        List<EngineCall> window = sim.engineCalls().stream().filter(c -> c.atMs() >= fromMs && c.atMs() < toMs).toList();
        long[] latencies = window.stream().mapToLong(EngineCall::latencyMs).sorted().toArray();
        double median = latencies.length == 0 ? 0 : latencies[latencies.length / 2];
        double p90 = latencies.length == 0 ? 0 : latencies[Math.max(0, (int) Math.ceil(latencies.length * 0.9) - 1)];
        List<Long> refusals = sim.engineRefusals();
        return new Figures(variant, window.size() / ((toMs - fromMs) / 1000.0), median, p90,
                window.stream().mapToInt(EngineCall::running).average().orElse(0), sim.enginePeak().orElse(0), refusals.size(),
                refusals.stream().filter(ms -> ms >= firstMs + 5_000).count(), said);
    }

    private static QuotaflowConfig config(String bootstrap, String baseUrl, String model, String apiKey, int rpm, int tpm, int maxInFlight)
            throws IOException {
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(rpm).withTpm(tpm).withMaxInFlight(maxInFlight);
        return new QuotaflowConfig(bootstrap, BenchmarkRunner.APPLICATION_ID + "-self-hosted", Files.createTempDirectory("quotaflow-bench-engine-"),
                -1, Map.of("num.standby.replicas", "0"), DispatcherSettings.builder(ModelSettings.of(URI.create(baseUrl), model, Secret.of(apiKey)),
                quota, BatchSettings.ofDefaults().withMaxItems(1), RetrySettings.ofDefaults()).build());
    }
}

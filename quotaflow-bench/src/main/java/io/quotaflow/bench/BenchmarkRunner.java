package io.quotaflow.bench;

import io.quotaflow.settings.Keys;
import io.quotaflow.Pipeline;
import io.quotaflow.demo.AssumedPrices;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.demo.TempDirs;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.simulator.SimulatorStats;
import io.quotaflow.settings.DispatcherSettings;
import org.apache.kafka.clients.admin.Admin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * Runs benchmark scenarios end to end, each on fresh infrastructure: one in-process KRaft broker,
 * the bundled topics, one {@link ProviderSimulator} with the scenario's limits and a single API
 * key, and N {@link Pipeline} instances (one application id, separate state directories, no HTTP
 * port) whose quota settings equal the simulator's limits. It publishes the generated tickets,
 * waits until every one is classified or dead-lettered as a {@code read_committed} consumer sees
 * it, and collects what the provider saw.
 *
 * <p>Not a test: nothing is asserted here; the figures are reported.
 */
public final class BenchmarkRunner {

    /** Application id shared by a scenario's instances (each scenario has its own broker). */
    public static final String APPLICATION_ID = "quotaflow-bench";

    /** Pipeline runs started in this JVM so far: (i)'s cold run is cold only when it is the first. */
    private static final java.util.concurrent.atomic.AtomicInteger PIPELINE_RUNS = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * @param seed             generator seed
     * @param timeout          give up on a scenario after this long (publish to last outcome)
     * @param progressInterval how often {@link Listener#progress} is called
     * @param simulator        tweaks applied to each scenario's simulator configuration (latency, ...)
     * @param warmUp           (i): after its cold run, warm up and measure again ({@link WarmUp}); false: the cold run only
     * @param pipelineJvmArgs  JVM options of a pipeline in a JVM of its own ((i)'s fresh pipeline JVM), as the chaos and
     *                         failover runners' {@code childJvmArgs}
     * @param freshOnly        (i): the fresh pipeline JVM's run alone, no run in this JVM before it (its broker and simulator
     *                         cold here; the pipeline's CPU is its own process's all the same)
     */
    public record Options(long seed, Duration timeout, Duration progressInterval,
                          java.util.function.UnaryOperator<SimulatorConfig.Builder> simulator, boolean warmUp, List<String> pipelineJvmArgs,
                          boolean freshOnly) {

        /** The heap of a pipeline in a JVM of its own, before any {@link #withPipelineJvmOptions extra options}. */
        static final List<String> PIPELINE_JVM_ARGS = List.of("-Xmx768m");

        public Options {
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(progressInterval, "progressInterval");
            simulator = simulator == null ? b -> b : simulator;
            pipelineJvmArgs = List.copyOf(pipelineJvmArgs);
        }

        public Options(long seed, Duration timeout, Duration progressInterval,
                       java.util.function.UnaryOperator<SimulatorConfig.Builder> simulator) {
            this(seed, timeout, progressInterval, simulator, true, PIPELINE_JVM_ARGS, false);
        }

        public Options withWarmUp(boolean value) {
            return new Options(seed, timeout, progressInterval, simulator, value, pipelineJvmArgs, freshOnly);
        }

        /** (i): the fresh pipeline JVM's run alone ({@code --warmup fresh}). */
        public Options withFreshOnly(boolean value) {
            return new Options(seed, timeout, progressInterval, simulator, warmUp, pipelineJvmArgs, value);
        }

        public static Options defaults(long seed) {
            return new Options(seed, Duration.ofMinutes(30), Duration.ofSeconds(5), null);
        }

        public Options withTimeout(Duration value) {
            return new Options(seed, value, progressInterval, simulator, warmUp, pipelineJvmArgs, freshOnly);
        }

        public Options withProgressInterval(Duration value) {
            return new Options(seed, timeout, value, simulator, warmUp, pipelineJvmArgs, freshOnly);
        }

        public Options withSimulator(java.util.function.UnaryOperator<SimulatorConfig.Builder> value) {
            return new Options(seed, timeout, progressInterval, value, warmUp, pipelineJvmArgs, freshOnly);
        }

        /** {@link #PIPELINE_JVM_ARGS} and then {@code extra} (whitespace-separated; null or blank: none). */
        public Options withPipelineJvmOptions(String extra) {
            List<String> args = new ArrayList<>(PIPELINE_JVM_ARGS);
            if (extra != null && !extra.isBlank()) {
                args.addAll(List.of(extra.strip().split("\\s+")));
            }
            return new Options(seed, timeout, progressInterval, simulator, warmUp, args, freshOnly);
        }
    }

    /** A live sample while a scenario runs. */
    public record Progress(long elapsedMs, long expected, long classified, long deadLettered, long calls, long http429,
                           long tokensAdmitted) {
    }

    /** Receives what a run is doing; both methods are called on the running thread. */
    public interface Listener {
        /** A step: starting the broker, publishing, ... */
        default void phase(Scenario scenario, String message) {
        }

        default void progress(Scenario scenario, Progress progress) {
        }

        /** A live sample of the baseline run (the fixed-batch baseline). */
        default void baselineProgress(Scenario scenario, BaselineRunner.Progress progress) {
        }
    }

    private final Options options;
    private final Listener listener;

    public BenchmarkRunner(Options options, Listener listener) {
        this.options = Objects.requireNonNull(options, "options");
        this.listener = listener == null ? new Listener() { } : listener;
    }

    /**
     * Runs (or, for an estimate-only scenario, computes) one scenario; then, when it has one, the
     * baseline on a fresh simulator of the same shape and the same tickets (a prefix of them). A
     * baseline that fails leaves the scenario's own figures intact, with a note.
     */
    public ScenarioResult run(Scenario scenario) {
        if (scenario.kind() == Scenario.Kind.DLQ_REPLAY) {
            return new ReplayBenchmark(listener, options.timeout()).run(scenario);
        }
        List<GeneratedTicket> tickets = tickets(scenario, options.seed());
        if (scenario.estimateOnly()) {
            listener.phase(scenario, "computing tokens per ticket for fixed batches of " + Scenario.FIXED_BATCH_ITEMS);
            return FixedBatchEstimate.result(scenario, tickets);
        }
        ScenarioResult result = scenario.kind() == Scenario.Kind.OVERHEAD && scenario.tickets() >= WarmUp.MIN_MEASURED_TICKETS
                ? runOverhead(scenario, tickets) : runPipeline(scenario, tickets);
        int baselineTickets = scenario.baselineTicketCount();
        if (baselineTickets > 0) {
            try {
                BaselineResult baseline = runBaseline(scenario, tickets.subList(0, baselineTickets));
                result = result.withFigures(result.figures().withBaseline(baseline));
                if (baselineTickets < tickets.size()) {
                    result = result.withNote("baseline on the first " + baselineTickets + " of the " + tickets.size()
                            + " tickets (it is latency-bound); its rate per busy minute is compared");
                }
            } catch (RuntimeException e) {
                listener.phase(scenario, "baseline failed: " + e.getMessage());
                result = result.withNote("baseline failed: " + e.getMessage());
            }
        }
        return result;
    }

    /**
     * (i): first a cold run, the first pipeline run in this JVM (the broker, the simulator and the
     * pipeline all start cold); then, unless {@link Options#warmUp()} is off, throw-away runs (own
     * broker, own tickets) until the JIT has settled, the measured warm run on the same tickets, and
     * last the same tickets through {@code quotaflow run} in a fresh JVM of its own while the broker and
     * the simulator here are warm: a deployment's first minute. The three rates are printed side by
     * side: the cold and the fresh-JVM ones in notes.
     */
    private ScenarioResult runOverhead(Scenario scenario, List<GeneratedTicket> tickets) {
        if (options.freshOnly()) {
            listener.phase(scenario, "fresh pipeline JVM alone: " + tickets.size() + " tickets (measured) through `quotaflow run` "
                    + "started in a JVM of its own");
            ScenarioResult fresh = runPipeline(scenario, tickets, true);
            List<ScenarioFigures.PipelineCpu> runs = RunCpu.cpuOf(fresh, RunCpu.FRESH_JVM);
            listener.phase(scenario, ResultTable.pipelineCpu(runs));
            return RunCpu.withRuns(fresh.withNote(WarmUp.describeFreshJvm(fresh.figures().ticketsPerSecond(),
                    fresh.figures().drainTicketsPerSecond(), tickets.size(), options.pipelineJvmArgs())), runs);
        }
        int before = PIPELINE_RUNS.get();
        listener.phase(scenario, "cold run: " + tickets.size() + " tickets (measured), " + WarmUp.runsBefore(before));
        ScenarioResult cold = runPipeline(scenario, tickets);
        String coldNote = WarmUp.describeCold(cold.figures().ticketsPerSecond(), cold.figures().drainTicketsPerSecond(), tickets.size(),
                before);
        listener.phase(scenario, coldNote);
        if (!options.warmUp()) {
            return RunCpu.withRuns(cold.withNote(coldNote + "; no warm-up (--warmup off): the figures above are the cold run's"),
                    RunCpu.cpuOf(cold, RunCpu.COLD));
        }
        List<Double> warmUpRates = new ArrayList<>();
        while (!WarmUp.done(warmUpRates)) {
            Scenario small = scenario.withTickets(WarmUp.TICKETS);
            listener.phase(scenario, "warm-up run " + (warmUpRates.size() + 1) + " of " + WarmUp.TICKETS + " tickets (not measured)");
            Double rate = runPipeline(small, tickets(small, options.seed() + 1 + warmUpRates.size())).figures().ticketsPerSecond();
            warmUpRates.add(rate == null ? 0 : rate);
        }
        ScenarioResult result = runPipeline(scenario, tickets).withNote(WarmUp.describe(warmUpRates)).withNote(coldNote);
        for (String note : cold.notes()) {
            result = result.withNote("cold run: " + note);
        }
        listener.phase(scenario, "fresh pipeline JVM: " + tickets.size() + " tickets (measured) through `quotaflow run` started in a JVM "
                + "of its own, the broker and the simulator warm here");
        List<ScenarioFigures.PipelineCpu> runs = new ArrayList<>(RunCpu.cpuOf(cold, RunCpu.COLD));
        runs.addAll(RunCpu.cpuOf(result, RunCpu.WARM));
        ScenarioResult fresh;
        try {
            fresh = runPipeline(scenario, tickets, true);
        } catch (RuntimeException e) {
            // the cold and warm figures stand on their own, as a failed baseline leaves a scenario's
            listener.phase(scenario, "fresh pipeline JVM failed: " + e.getMessage());
            return RunCpu.withRuns(result.withNote("fresh pipeline JVM failed: " + e.getMessage()), runs);
        }
        runs.addAll(RunCpu.cpuOf(fresh, RunCpu.FRESH_JVM));
        String freshNote = WarmUp.describeFreshJvm(fresh.figures().ticketsPerSecond(), fresh.figures().drainTicketsPerSecond(),
                tickets.size(), options.pipelineJvmArgs());
        listener.phase(scenario, freshNote);
        result = result.withNote(freshNote);
        for (String note : fresh.notes()) {
            result = result.withNote("fresh pipeline JVM: " + note);
        }
        ScenarioResult measured = RunCpu.withRuns(result, runs);
        listener.phase(scenario, ResultTable.pipelineCpu(runs));
        return measured;
    }

    /** {@code scenario}'s pipeline run with each instance in a fresh JVM of its own, as (i)'s last run (no baseline). */
    ScenarioResult runInOwnJvm(Scenario scenario) {
        return runPipeline(scenario, tickets(scenario, options.seed()), true);
    }

    /** The scenario's tickets: its count (plus the interactive ones of (j)), with its share of huge tickets. */
    static List<GeneratedTicket> tickets(Scenario scenario, long seed) {
        int n = scenario.tickets() + (scenario.kind() == Scenario.Kind.INTERACTIVE ? Scenario.INTERACTIVE_TICKETS : 0);
        return new TicketGenerator(seed, scenario.shape().hugeShare()).generate(n);
    }

    /** The simulator of a scenario (its limits, burst and shape, then the runner's own tweaks) for one key. */
    SimulatorConfig simulatorConfig(Scenario scenario, String apiKey) {
        return options.simulator().apply(scenario.shape().applyTo(SimulatorConfig.builder()
                .port(0).rpm(scenario.rpm()).tpm(scenario.tpm()).burstSeconds(scenario.simBurstSeconds()))
                .apiKeys(Set.of(apiKey))).build();
    }

    private ScenarioResult runPipeline(Scenario scenario, List<GeneratedTicket> tickets) {
        return runPipeline(scenario, tickets, false);
    }

    /**
     * One run on a fresh broker and simulator; {@code ownJvm}: each instance is {@code quotaflow run}
     * in a fresh JVM of its own ({@link BenchInstance.OwnJvm}) rather than a {@link Pipeline} here.
     */
    private ScenarioResult runPipeline(Scenario scenario, List<GeneratedTicket> tickets, boolean ownJvm) {
        if (!ownJvm) {
            PIPELINE_RUNS.incrementAndGet();
        }
        String apiKey = "sk-bench-" + UUID.randomUUID();
        List<Path> stateDirs = new ArrayList<>();
        listener.phase(scenario, "starting Kafka broker (KRaft, in-process)");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            try (Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
                TopicsApplier.bundled().apply(admin);
            }
            SimulatorConfig simConfig = simulatorConfig(scenario, apiKey);
            try (ProviderSimulator sim = ProviderSimulator.start(simConfig)) {
                String shape = scenario.shape().describe();
                listener.phase(scenario, "provider simulator at " + sim.baseUrl() + " (" + scenario.rpm() + " RPM, "
                        + scenario.tpm() + " TPM, burst " + fmt(scenario.simBurstSeconds()) + " s" + (shape.isEmpty() ? "" : "; " + shape)
                        + "); starting " + scenario.instances() + " pipeline instance(s)" + (ownJvm ? ", each in a JVM of its own" : ""));
                List<BenchInstance> pipelines = new ArrayList<>();
                try {
                    for (int i = 0; i < scenario.instances(); i++) {
                        Path dir = Files.createTempDirectory("quotaflow-bench-state-");
                        stateDirs.add(dir);
                        pipelines.add(startInstance(scenario, ownJvm, i, dir, broker.bootstrapServers(), sim.baseUrl(), simConfig.model(),
                                apiKey));
                    }
                    for (BenchInstance p : pipelines) {
                        if (!p.awaitRunning(Duration.ofSeconds(START_SECONDS))) {
                            throw new IllegalStateException("a pipeline instance did not start within " + START_SECONDS + " s: " + p);
                        }
                    }
                    return new RunMeasurement(listener, options).publishAndMeasure(scenario, tickets, broker, sim, pipelines);
                } finally {
                    closeAll(scenario, pipelines);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            stateDirs.forEach(TempDirs::deleteQuietly);
        }
    }

    /** Instance {@code i} of a run: a {@link Pipeline} here, or {@code quotaflow run} in a JVM of its own with its state under {@code dir}. */
    private BenchInstance startInstance(Scenario scenario, boolean ownJvm, int i, Path dir, String bootstrap, String baseUrl,
                                        String model, String apiKey) {
        return ownJvm
                ? BenchInstance.OwnJvm.start("instance-" + i, options.pipelineJvmArgs(), BenchInstance.OwnJvm.properties(ownJvmSettings(scenario,
                        bootstrap, baseUrl, model)), apiKey, dir.resolve("state"), dir.resolve("run"))
                : new BenchInstance.InProcess(Pipeline.start(config(scenario, bootstrap, dir, baseUrl, model, apiKey)));
    }

    private void closeAll(Scenario scenario, List<BenchInstance> pipelines) {
        listener.phase(scenario, "stopping");
        for (BenchInstance p : pipelines) {
            try {
                p.close();
            } catch (RuntimeException e) {
                listener.phase(scenario, "closing a pipeline failed: " + e);
            }
        }
    }

    /** The fixed-batch baseline on {@code tickets}, against a fresh simulator of the scenario's shape. */
    private BaselineResult runBaseline(Scenario scenario, List<GeneratedTicket> tickets) {
        String apiKey = "sk-baseline-" + UUID.randomUUID();
        SimulatorConfig simConfig = simulatorConfig(scenario, apiKey);
        try (ProviderSimulator sim = ProviderSimulator.start(simConfig)) {
            listener.phase(scenario, "baseline (the fixed-batch baseline: " + BaselineRunner.WORKERS + " workers, groups of "
                    + BaselineRunner.GROUP_SIZE + ", 60 s window of " + BaselineRunner.BUDGET_FRACTION + " x TPM) on "
                    + tickets.size() + " tickets, fresh simulator at " + sim.baseUrl());
            BaselineRunner runner = new BaselineRunner(new BaselineRunner.Options(options.seed(), options.timeout(),
                    options.progressInterval()));
            BaselineRunner.Outcome o = runner.run(tickets, sim.baseUrl(), simConfig.model(), apiKey, scenario.tpm(),
                    p -> listener.baselineProgress(scenario, p));
            SimulatorStats stats = sim.stats();
            return BaselineResult.of(scenario, tickets, o, stats);
        }
    }

    static QuotaflowConfig config(Scenario scenario, String bootstrap, Path stateDir, String baseUrl, String model, String apiKey) {
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(Math.toIntExact(scenario.rpm())).withTpm(Math.toIntExact(scenario.tpm()));
        // one instance cannot host a standby of its own tasks: ask for none rather than log that at every rebalance
        Map<String, String> kafka = scenario.instances() == 1 ? Map.of("num.standby.replicas", "0") : Map.of();
        return new QuotaflowConfig(bootstrap, APPLICATION_ID, stateDir, -1, kafka,
                AssumedPrices.priced(DispatcherSettings.builder(ModelSettings.of(URI.create(baseUrl), model, Secret.of(apiKey)), quota,
                        BatchSettings.ofDefaults(), RetrySettings.ofDefaults()).build(), ResultTable.ASSUMED_PRICES));
    }

    /** {@link #config}'s settings as the properties of {@code quotaflow run} (the API key goes in its environment). */
    static Map<String, String> ownJvmSettings(Scenario scenario, String bootstrap, String baseUrl, String model) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(Keys.BOOTSTRAP_SERVERS, bootstrap);
        settings.put(Keys.APPLICATION_ID, APPLICATION_ID);
        settings.put(Keys.LLM_BASE_URL, baseUrl);
        settings.put(Keys.LLM_MODEL, model);
        settings.put(Keys.QUOTA_RPM, Long.toString(scenario.rpm()));
        settings.put(Keys.QUOTA_TPM, Long.toString(scenario.tpm()));
        if (scenario.instances() == 1) {
            settings.put("kafka.num.standby.replicas", "0");
        }
        return settings;
    }

    /** How long a pipeline instance may take to reach RUNNING: a cold JVM on a loaded shared machine takes minutes. */
    static final int START_SECONDS = 240;

    private static String fmt(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }
}

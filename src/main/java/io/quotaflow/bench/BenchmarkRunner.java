package io.quotaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.config.BatchSettings;
import io.quotaflow.config.ModelSettings;
import io.quotaflow.config.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.config.RetrySettings;
import io.quotaflow.config.Secret;
import io.quotaflow.local.broker.EmbeddedKafkaBroker;
import io.quotaflow.local.demo.OutcomeCounter;
import io.quotaflow.local.sim.ProviderSimulator;
import io.quotaflow.local.sim.SimulatorConfig;
import io.quotaflow.local.sim.SimulatorStats;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.ticket.Json;
import io.quotaflow.config.DispatcherSettings;
import io.quotaflow.ticket.Priority;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

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

    /**
     * @param seed             generator seed
     * @param timeout          give up on a scenario after this long (publish to last outcome)
     * @param progressInterval how often {@link Listener#progress} is called
     * @param simulator        tweaks applied to each scenario's simulator configuration (latency, ...)
     */
    public record Options(long seed, Duration timeout, Duration progressInterval,
                          java.util.function.UnaryOperator<SimulatorConfig.Builder> simulator) {

        public Options {
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(progressInterval, "progressInterval");
            simulator = simulator == null ? b -> b : simulator;
        }

        public static Options defaults(long seed) {
            return new Options(seed, Duration.ofMinutes(30), Duration.ofSeconds(5), null);
        }

        public Options withTimeout(Duration value) {
            return new Options(seed, value, progressInterval, simulator);
        }

        public Options withProgressInterval(Duration value) {
            return new Options(seed, timeout, value, simulator);
        }

        public Options withSimulator(java.util.function.UnaryOperator<SimulatorConfig.Builder> value) {
            return new Options(seed, timeout, progressInterval, value);
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

        /** A live sample of the baseline run (the article's fixed job). */
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
            return estimate(scenario, tickets);
        }
        ScenarioResult result = runPipeline(scenario, tickets);
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
                        + "); starting " + scenario.instances() + " pipeline instance(s)");
                List<Pipeline> pipelines = new ArrayList<>();
                try {
                    for (int i = 0; i < scenario.instances(); i++) {
                        Path dir = Files.createTempDirectory("quotaflow-bench-state-");
                        stateDirs.add(dir);
                        pipelines.add(Pipeline.start(config(scenario, broker.bootstrapServers(), dir, sim.baseUrl(),
                                simConfig.model(), apiKey)));
                    }
                    for (Pipeline p : pipelines) {
                        if (!p.awaitRunning(Duration.ofSeconds(90))) {
                            throw new IllegalStateException("a pipeline instance did not start: " + p.streams().state());
                        }
                    }
                    return publishAndMeasure(scenario, tickets, broker, sim, pipelines);
                } finally {
                    listener.phase(scenario, "stopping");
                    for (Pipeline p : pipelines) {
                        try {
                            p.close(Duration.ofSeconds(20));
                        } catch (RuntimeException e) {
                            listener.phase(scenario, "closing a pipeline failed: " + e);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            stateDirs.forEach(BenchmarkRunner::deleteQuietly);
        }
    }

    /** The article's fixed job on {@code tickets}, against a fresh simulator of the scenario's shape. */
    private BaselineResult runBaseline(Scenario scenario, List<GeneratedTicket> tickets) {
        String apiKey = "sk-baseline-" + UUID.randomUUID();
        SimulatorConfig simConfig = simulatorConfig(scenario, apiKey);
        try (ProviderSimulator sim = ProviderSimulator.start(simConfig)) {
            listener.phase(scenario, "baseline (the article's fixed job: " + BaselineRunner.WORKERS + " workers, groups of "
                    + BaselineRunner.GROUP_SIZE + ", 60 s window of " + BaselineRunner.BUDGET_FRACTION + " x TPM) on "
                    + tickets.size() + " tickets, fresh simulator at " + sim.baseUrl());
            BaselineRunner runner = new BaselineRunner(new BaselineRunner.Options(options.seed(), options.timeout(),
                    options.progressInterval()));
            BaselineRunner.Outcome o = runner.run(tickets, sim.baseUrl(), simConfig.model(), apiKey, scenario.tpm(),
                    p -> listener.baselineProgress(scenario, p));
            SimulatorStats stats = sim.stats();
            return baselineResult(scenario, tickets, o, stats);
        }
    }

    static BaselineResult baselineResult(Scenario scenario, List<GeneratedTicket> tickets, BaselineRunner.Outcome o,
                                         SimulatorStats stats) {
        Map<String, GeneratedTicket.Label> labels = TicketGenerator.labels(tickets);
        long categoryHits = 0;
        long urgencyHits = 0;
        for (Map.Entry<String, GeneratedTicket.Label> e : o.answers().entrySet()) {
            GeneratedTicket.Label label = labels.get(e.getKey());
            if (label != null) {
                categoryHits += label.category().equals(e.getValue().category()) ? 1 : 0;
                urgencyHits += label.urgency().equals(e.getValue().urgency()) ? 1 : 0;
            }
        }
        long scored = o.answers().size();
        SteadyStateUse steady = SteadyStateUse.compute(stats.perSecond(), scenario.binding(), scenario.bindingLimit(),
                o.lastAnswerEpochMs());
        WholeRunUse whole = o.firstCallEpochMs() == 0 ? null
                : WholeRunUse.compute(stats, scenario.binding(), o.firstCallEpochMs(), o.lastAnswerEpochMs());
        return new BaselineResult(o.tickets(), o.classified(), o.lost(), o.lostGroups(), o.calls(), o.http429(), o.failuresByStatus(),
                stats.contextLengthRefusals(), o.busyMs(), WholeRunUse.perMinute(o.classified(), o.busyMs()), stats.tokensAdmitted(),
                stats.promptTokens(), stats.completionTokens(), o.reservedTokens(), o.reportedTokens(), o.windowWaits(), steady, whole,
                scored == 0 ? null : categoryHits / (double) scored, scored == 0 ? null : urgencyHits / (double) scored);
    }

    static QuotaflowConfig config(Scenario scenario, String bootstrap, Path stateDir, String baseUrl, String model, String apiKey) {
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(Math.toIntExact(scenario.rpm())).withTpm(Math.toIntExact(scenario.tpm()));
        // one instance cannot host a standby of its own tasks: ask for none rather than log that at every rebalance
        Map<String, String> kafka = scenario.instances() == 1 ? Map.of("num.standby.replicas", "0") : Map.of();
        return new QuotaflowConfig(bootstrap, APPLICATION_ID, stateDir, -1, kafka,
                new DispatcherSettings(ModelSettings.of(URI.create(baseUrl), model, Secret.of(apiKey)), quota,
                        BatchSettings.ofDefaults(), RetrySettings.ofDefaults()));
    }

    private ScenarioResult publishAndMeasure(Scenario scenario, List<GeneratedTicket> tickets, EmbeddedKafkaBroker broker,
                                             ProviderSimulator sim, List<Pipeline> pipelines) throws InterruptedException {
        boolean interactive = scenario.kind() == Scenario.Kind.INTERACTIVE;
        List<GeneratedTicket> first = interactive ? tickets.subList(0, scenario.tickets()) : tickets;
        List<GeneratedTicket> later = interactive ? tickets.subList(scenario.tickets(), tickets.size()) : List.of();
        Optional<Priority> firstPriority = interactive ? Optional.of(Priority.BULK) : Optional.empty();
        listener.phase(scenario, "publishing " + first.size() + " tickets" + (interactive ? " to " + Priority.BULK.topic() : ""));
        Map<String, Long> publishedAt = new LinkedHashMap<>();
        long start = System.currentTimeMillis();
        long lastPublish;
        try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of())) {
            publish(publisher, first, firstPriority);
            lastPublish = System.currentTimeMillis();
            long expected = tickets.size();
            listener.phase(scenario, "published in " + (lastPublish - start) + " ms; classifying"
                    + (interactive ? "; " + later.size() + " interactive tickets follow the first result, one every "
                    + Scenario.INTERACTIVE_SPACING_MS + " ms" : ""));
            try (OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of())) {
                long deadline = start + options.timeout().toMillis();
                long nextTick = start;
                long nextInteractive = Long.MAX_VALUE;
                int published = 0;
                long lastAnswer;
                while (true) {
                    counter.poll(Duration.ofMillis(100));
                    long now = System.currentTimeMillis();
                    if (published < later.size()) {
                        if (nextInteractive == Long.MAX_VALUE && counter.classified() > 0) {
                            nextInteractive = now;
                        }
                        if (now >= nextInteractive) {
                            GeneratedTicket t = later.get(published++);
                            publishedAt.put(t.id(), System.currentTimeMillis());
                            publish(publisher, List.of(t), Optional.of(Priority.INTERACTIVE));
                            lastPublish = System.currentTimeMillis();
                            nextInteractive += Scenario.INTERACTIVE_SPACING_MS;
                        }
                    }
                    long done = (long) counter.classified() + counter.deadLettered();
                    if (done >= expected) {
                        lastAnswer = now;
                        break;
                    }
                    if (now >= nextTick) {
                        SimulatorStats s = sim.stats();
                        listener.progress(scenario, new Progress(now - start, expected, counter.classified(), counter.deadLettered(),
                                s.totalRequests(), s.http429(), s.tokensAdmitted()));
                        nextTick = now + options.progressInterval().toMillis();
                        for (Pipeline p : pipelines) {
                            KafkaStreams.State state = p.streams().state();
                            if (state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING
                                    || state == KafkaStreams.State.PENDING_ERROR) {
                                throw new IllegalStateException("a pipeline instance stopped (" + state + ") with " + done + " of "
                                        + expected + " tickets accounted for");
                            }
                        }
                    }
                    if (now > deadline) {
                        throw new IllegalStateException("timed out after " + options.timeout().toSeconds() + " s with " + done
                                + " of " + expected + " tickets accounted for");
                    }
                }
                long wallTime = lastAnswer - start;
                SimulatorStats stats = sim.stats();
                listener.progress(scenario, new Progress(wallTime, expected, counter.classified(), counter.deadLettered(),
                        stats.totalRequests(), stats.http429(), stats.tokensAdmitted()));
                // anything arriving late would be a duplicate: give it a moment to show up
                long quietUntil = System.currentTimeMillis() + 1_500;
                while (System.currentTimeMillis() < quietUntil) {
                    counter.poll(Duration.ofMillis(250));
                }
                stats = sim.stats();
                return measured(scenario, tickets, counter, stats, new Timing(start, lastPublish, lastAnswer, publishedAt));
            }
        }
    }

    private static void publish(TicketPublisher publisher, List<GeneratedTicket> tickets, Optional<Priority> priority) {
        PublishSummary summary = publisher.publish(new ByteArrayInputStream(TicketGenerator.jsonLines(tickets)), priority, false,
                p -> { }, issue -> { });
        if (!summary.succeeded() || summary.acknowledged() != tickets.size()) {
            throw new IllegalStateException("publishing failed: " + summary.describe());
        }
    }

    /**
     * When things happened in a run, in epoch milliseconds.
     *
     * @param firstPublish when publishing started
     * @param lastPublish  when the last publish was acknowledged
     * @param lastAnswer   when the consumer saw the last outcome
     * @param publishedAt  (j) when each interactive ticket's publish started, by id
     */
    record Timing(long firstPublish, long lastPublish, long lastAnswer, Map<String, Long> publishedAt) {
    }

    /** What a result JSON says about when it was made: {@code classifiedAt} and the call's {@code latencyMs}. */
    record ResultTimes(long classifiedAtMs, long latencyMs) {
        /** When the call that produced it went out (at the latest). */
        long calledAtMs() {
            return classifiedAtMs - latencyMs;
        }
    }

    static ScenarioResult measured(Scenario scenario, List<GeneratedTicket> tickets, OutcomeCounter counter, SimulatorStats stats,
                                   Timing timing) {
        Map<String, GeneratedTicket.Label> labels = TicketGenerator.labels(tickets);
        long categoryHits = 0;
        long urgencyHits = 0;
        long scored = 0;
        Map<String, ResultTimes> times = new HashMap<>();
        for (Map.Entry<String, byte[]> e : counter.results().entrySet()) {
            GeneratedTicket.Label label = labels.get(e.getKey());
            if (label == null) {
                continue;
            }
            try {
                JsonNode json = Json.MAPPER.readTree(e.getValue());
                scored++;
                categoryHits += label.category().equals(json.path("category").asText()) ? 1 : 0;
                urgencyHits += label.urgency().equals(json.path("urgency").asText()) ? 1 : 0;
                ResultTimes t = resultTimes(json);
                if (t != null) {
                    times.put(e.getKey(), t);
                }
            } catch (IOException ex) {
                // an unreadable result counts as wrong
                scored++;
            }
        }
        long wallTimeMs = timing.lastAnswer() - timing.firstPublish();
        long lastAnswerEpochMs = timing.lastAnswer();
        SteadyStateUse use = SteadyStateUse.compute(stats.perSecond(), scenario.binding(), scenario.bindingLimit(), lastAnswerEpochMs);
        Binding other = scenario.binding() == Binding.TPM ? Binding.RPM : Binding.TPM;
        SteadyStateUse otherUse = SteadyStateUse.compute(stats.perSecond(), other, other.limit(scenario.rpm(), scenario.tpm()),
                lastAnswerEpochMs);
        List<String> notes = new ArrayList<>();
        if (scenario.measuresQuota()) {
            if (use.shortRun()) {
                notes.add("short run: window starts at first arrival + " + SteadyStateUse.SHORT_WARM_UP_SECONDS + " s");
            }
            if (!use.measured()) {
                notes.add("run too short for a steady-state window");
            }
            if (otherUse.measured() && otherUse.use() > use.use()) {
                notes.add(other + " bound harder than the designed " + scenario.binding());
            }
        }
        long n = tickets.size();
        long classified = counter.classified();
        long deadLettered = counter.deadLettered();

        // first call: the earliest result's classifiedAt − latencyMs; else the first second with an admission
        long firstCall = times.values().stream().mapToLong(ResultTimes::calledAtMs).min()
                .orElse(stats.perSecond().isEmpty() ? timing.firstPublish() : stats.perSecond().get(0).epochSecond() * 1000);
        long busyMs = Math.max(0, lastAnswerEpochMs - firstCall);
        WholeRunUse whole = scenario.measuresQuota() ? WholeRunUse.compute(stats, scenario.binding(), firstCall, lastAnswerEpochMs) : null;
        Double ticketsPerSecond = null;
        Double drain = null;
        Long publishMs = null;
        if (scenario.kind() == Scenario.Kind.OVERHEAD) {
            long lastResult = times.values().stream().mapToLong(ResultTimes::classifiedAtMs).max().orElse(lastAnswerEpochMs);
            long after = times.values().stream().filter(t -> t.classifiedAtMs() > timing.lastPublish()).count();
            ticketsPerSecond = lastResult > timing.firstPublish() ? n * 1000.0 / (lastResult - timing.firstPublish()) : null;
            drain = lastResult > timing.lastPublish() ? after * 1000.0 / (lastResult - timing.lastPublish()) : null;
            publishMs = timing.lastPublish() - timing.firstPublish();
            notes.add(String.format(Locale.ROOT, "overhead: %,d tickets published in %s; %s tickets/s from first publish to last "
                            + "result, %s tickets/s from last publish to last result (%,d results after the last publish)", n,
                    ResultTable.duration(publishMs), ticketsPerSecond == null ? "–" : String.format(Locale.ROOT, "%,.0f", ticketsPerSecond),
                    drain == null ? "–" : String.format(Locale.ROOT, "%,.0f", drain), after));
        }
        ScenarioFigures.Latency latency = null;
        if (scenario.kind() == Scenario.Kind.INTERACTIVE) {
            List<Long> samples = new ArrayList<>();
            int missing = 0;
            for (Map.Entry<String, Long> p : timing.publishedAt().entrySet()) {
                ResultTimes t = times.get(p.getKey());
                if (t == null) {
                    missing++;
                } else {
                    samples.add(Math.max(0, t.classifiedAtMs() - p.getValue()));
                }
            }
            latency = ScenarioFigures.Latency.of(samples, missing);
            notes.add(String.format(Locale.ROOT, "interactive: %d tickets published one every %d ms into the bulk backlog after the "
                            + "first result; publish to classifiedAt p50 %s, p99 %s, max %s%s", samples.size(),
                    Scenario.INTERACTIVE_SPACING_MS, seconds(latency.p50Ms()), seconds(latency.p99Ms()), seconds(latency.maxMs()),
                    missing > 0 ? ", " + missing + " without a result" : ""));
        }
        String shape = scenario.shape().describe();
        ScenarioFigures figures = new ScenarioFigures(scenario.kind().name(), shape.isEmpty() ? null : shape,
                n - classified - deadLettered, busyMs, WholeRunUse.perMinute(classified, busyMs), whole, stats.contextLengthRefusals(),
                null, null, null, ticketsPerSecond, drain, publishMs, latency, null);
        return new ScenarioResult(scenario.key(), scenario.name(), scenario.description(), false, scenario.instances(),
                scenario.rpm(), scenario.tpm(), scenario.simBurstSeconds(), scenario.binding(), n,
                classified, deadLettered, counter.deadLettersByKind(), counter.duplicates(),
                stats.totalRequests(), stats.http429(), stats.requestsAdmitted(), stats.promptTokens(), stats.completionTokens(),
                stats.tokensAdmitted(), wallTimeMs, scenario.measuresQuota() ? use : null,
                scenario.measuresQuota() && otherUse.measured() ? otherUse.use() : null,
                scored == 0 ? null : categoryHits / (double) scored, scored == 0 ? null : urgencyHits / (double) scored,
                stats.tokensAdmitted() / (double) n, (stats.promptTokens() + stats.completionTokens()) / (double) n,
                stats.requestsAdmitted() == 0 ? 0 : classified / (double) stats.requestsAdmitted(), notes, figures);
    }

    /** {@code classifiedAt} and {@code latencyMs} of a result; null when it lacks them. */
    static ResultTimes resultTimes(JsonNode result) {
        String at = result.path("classifiedAt").asText(null);
        if (at == null) {
            return null;
        }
        try {
            return new ResultTimes(Instant.parse(at).toEpochMilli(), Math.max(0, result.path("latencyMs").asLong(0)));
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    private static String seconds(long ms) {
        return String.format(Locale.ROOT, "%.2f s", ms / 1000.0);
    }

    private ScenarioResult estimate(Scenario scenario, List<GeneratedTicket> tickets) {
        listener.phase(scenario, "computing tokens per ticket for fixed batches of " + Scenario.FIXED_BATCH_ITEMS);
        FixedBatchEstimate.Figures f = FixedBatchEstimate.compute(tickets, Scenario.FIXED_BATCH_ITEMS);
        long n = tickets.size();
        return new ScenarioResult(scenario.key(), scenario.name(), scenario.description(), true, 0, scenario.rpm(), scenario.tpm(),
                scenario.simBurstSeconds(), scenario.binding(), n, null, null, null, null, f.calls(), null, f.calls(),
                f.promptTokens(), f.completionTokens(), f.tokensAdmitted(), null, null, null, null, null,
                f.tokensAdmitted() / (double) n, (f.promptTokens() + f.completionTokens()) / (double) n,
                n / (double) f.calls(),
                List.of("computed, not run: each priority class cut into chunks of " + Scenario.FIXED_BATCH_ITEMS
                        + " in arrival order; prompt counted as the provider counts it; max_tokens = "
                        + BatchSettings.ofDefaults().maxTokensFor(Scenario.FIXED_BATCH_ITEMS) + " per full call; completion = the simulator's answer"));
    }

    private static String fmt(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory
        }
    }
}

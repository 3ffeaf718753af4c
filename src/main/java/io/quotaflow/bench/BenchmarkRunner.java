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
import io.quotaflow.local.EmbeddedKafkaBroker;
import io.quotaflow.local.OutcomeCounter;
import io.quotaflow.local.ProviderSimulator;
import io.quotaflow.local.SimulatorConfig;
import io.quotaflow.local.SimulatorStats;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.ticket.Json;
import io.quotaflow.config.DispatcherSettings;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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
    }

    private final Options options;
    private final Listener listener;

    public BenchmarkRunner(Options options, Listener listener) {
        this.options = Objects.requireNonNull(options, "options");
        this.listener = listener == null ? new Listener() { } : listener;
    }

    /** Runs (or, for an estimate-only scenario, computes) one scenario. */
    public ScenarioResult run(Scenario scenario) {
        List<GeneratedTicket> tickets = new TicketGenerator(options.seed()).generate(scenario.tickets());
        if (scenario.estimateOnly()) {
            return estimate(scenario, tickets);
        }
        String apiKey = "sk-bench-" + UUID.randomUUID();
        List<Path> stateDirs = new ArrayList<>();
        listener.phase(scenario, "starting Kafka broker (KRaft, in-process)");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            try (Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
                TopicsApplier.bundled().apply(admin);
            }
            SimulatorConfig simConfig = options.simulator().apply(SimulatorConfig.builder()
                    .port(0).rpm(scenario.rpm()).tpm(scenario.tpm()).burstSeconds(scenario.simBurstSeconds())
                    .apiKeys(Set.of(apiKey))).build();
            try (ProviderSimulator sim = ProviderSimulator.start(simConfig)) {
                listener.phase(scenario, "provider simulator at " + sim.baseUrl() + " (" + scenario.rpm() + " RPM, "
                        + scenario.tpm() + " TPM, burst " + fmt(scenario.simBurstSeconds()) + " s); starting "
                        + scenario.instances() + " pipeline instance(s)");
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
        listener.phase(scenario, "publishing " + tickets.size() + " tickets");
        long start = System.currentTimeMillis();
        PublishSummary summary;
        try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of())) {
            summary = publisher.publish(new ByteArrayInputStream(TicketGenerator.jsonLines(tickets)), Optional.empty(), false,
                    p -> { }, issue -> { });
        }
        if (!summary.succeeded() || summary.acknowledged() != tickets.size()) {
            throw new IllegalStateException("publishing failed: " + summary.describe());
        }
        long expected = summary.acknowledged();
        listener.phase(scenario, "published in " + (System.currentTimeMillis() - start) + " ms; classifying");
        try (OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of())) {
            long deadline = start + options.timeout().toMillis();
            long nextTick = start;
            long lastAnswer;
            while (true) {
                counter.poll(Duration.ofMillis(100));
                long now = System.currentTimeMillis();
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
            return measured(scenario, tickets, counter, stats, wallTime, lastAnswer);
        }
    }

    static ScenarioResult measured(Scenario scenario, List<GeneratedTicket> tickets, OutcomeCounter counter, SimulatorStats stats,
                                   long wallTimeMs, long lastAnswerEpochMs) {
        Map<String, GeneratedTicket.Label> labels = TicketGenerator.labels(tickets);
        long categoryHits = 0;
        long urgencyHits = 0;
        long scored = 0;
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
            } catch (IOException ex) {
                // an unreadable result counts as wrong
                scored++;
            }
        }
        SteadyStateUse use = SteadyStateUse.compute(stats.perSecond(), scenario.binding(), scenario.bindingLimit(), lastAnswerEpochMs);
        Binding other = scenario.binding() == Binding.TPM ? Binding.RPM : Binding.TPM;
        SteadyStateUse otherUse = SteadyStateUse.compute(stats.perSecond(), other, other.limit(scenario.rpm(), scenario.tpm()),
                lastAnswerEpochMs);
        List<String> notes = new ArrayList<>();
        if (use.shortRun()) {
            notes.add("short run: window starts at first arrival + " + SteadyStateUse.SHORT_WARM_UP_SECONDS + " s");
        }
        if (!use.measured()) {
            notes.add("run too short for a steady-state window");
        }
        if (otherUse.measured() && otherUse.use() > use.use()) {
            notes.add(other + " bound harder than the designed " + scenario.binding());
        }
        long n = tickets.size();
        return new ScenarioResult(scenario.key(), scenario.name(), scenario.description(), false, scenario.instances(),
                scenario.rpm(), scenario.tpm(), scenario.simBurstSeconds(), scenario.binding(), n,
                (long) counter.classified(), (long) counter.deadLettered(), counter.deadLettersByKind(), counter.duplicates(),
                stats.totalRequests(), stats.http429(), stats.requestsAdmitted(), stats.promptTokens(), stats.completionTokens(),
                stats.tokensAdmitted(), wallTimeMs, use, otherUse.measured() ? otherUse.use() : null,
                scored == 0 ? null : categoryHits / (double) scored, scored == 0 ? null : urgencyHits / (double) scored,
                stats.tokensAdmitted() / (double) n, (stats.promptTokens() + stats.completionTokens()) / (double) n,
                stats.requestsAdmitted() == 0 ? 0 : counter.classified() / (double) stats.requestsAdmitted(), notes);
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

package io.quotaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.local.sim.ProviderSimulator;
import io.quotaflow.local.sim.SimulatorConfig;
import io.quotaflow.local.sim.SimulatorStats;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.ticket.Json;
import io.quotaflow.topology.Topics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * The chaos scenario: the broker ({@code quotaflow broker --dir}) and the pipeline
 * ({@code quotaflow run}) run as child processes so that they can really be SIGKILLed; the provider
 * simulator runs in this JVM. Tickets are published in waves while the pipeline is killed three
 * times (restarted at once with the same arguments and state directory) and the broker once
 * (restarted on the same port and data directory after {@link Options#brokerDownTime()}), as
 * {@link ChaosPlan#standard(int)} says. At the end a {@code read_committed} consumer reads every
 * result and dead letter and {@link ChaosAccounting} counts what was lost or duplicated.
 *
 * <p>Recovery from a kill is measured from the restart (the new process spawned) to the first result
 * committed after the kill, and to the moment the new pipeline's {@code /status} reports streams
 * {@code RUNNING} (for the broker: its "ready" line).
 *
 * <p>Children write to log files in a temporary directory (never to this process's output); they
 * are killed in a {@code finally} block and by a shutdown hook.
 */
public final class ChaosRunner {

    /** The application id of the chaos pipeline. */
    public static final String APPLICATION_ID = "chaos";
    /** Where {@code quotaflow run} reads its API key. */
    static final String API_KEY_ENV = "QUOTAFLOW_LLM_API_KEY";
    static final String BROKER_READY = "Kafka broker ready at";
    static final int MAX_BROKER_STARTS_PER_RESTART = 5;

    /**
     * @param seed             generator seed
     * @param timeout          give up after this long (first publish to the last ticket accounted for)
     * @param progressInterval how often {@link Listener#progress} is called
     * @param brokerDownTime   how long the broker stays dead before it is restarted
     * @param childJvmArgs     JVM options of the child processes
     * @param simLatencyMs     the simulator's base latency per call
     */
    public record Options(long seed, Duration timeout, Duration progressInterval, Duration brokerDownTime, List<String> childJvmArgs,
                          long simLatencyMs) {

        public Options {
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(progressInterval, "progressInterval");
            Objects.requireNonNull(brokerDownTime, "brokerDownTime");
            childJvmArgs = List.copyOf(childJvmArgs);
        }

        public static Options defaults(long seed) {
            return new Options(seed, Duration.ofMinutes(30), Duration.ofSeconds(5), Duration.ofSeconds(2), List.of("-Xmx768m"), 50);
        }

        public Options withTimeout(Duration value) {
            return new Options(seed, value, progressInterval, brokerDownTime, childJvmArgs, simLatencyMs);
        }

        public Options withProgressInterval(Duration value) {
            return new Options(seed, timeout, value, brokerDownTime, childJvmArgs, simLatencyMs);
        }
    }

    /** A live sample. */
    public record Progress(long elapsedMs, long published, long expected, long classified, long deadLettered, long calls,
                           long http429, String waitingFor) {
    }

    /** Receives what the run is doing, on the running thread. */
    public interface Listener {
        default void phase(String message) {
        }

        default void progress(Progress progress) {
        }
    }

    private final Options options;
    private final Listener listener;
    private final List<ChildProcess> children = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    private Path logDir;
    private Path kafkaDir;
    private Path stateDir;
    private int brokerPort;
    private int httpPort;
    private String bootstrap;
    private String apiKey;
    private String simBaseUrl;
    private Scenario scenario;
    private ChildProcess broker;
    private ChildProcess pipeline;
    private int brokerStarts;
    private int pipelineStarts;
    private long lastStatusPollMs;
    private String lastStreamsState = "?";

    public ChaosRunner(Options options, Listener listener) {
        this.options = Objects.requireNonNull(options, "options");
        this.listener = listener == null ? new Listener() { } : listener;
    }

    /** Runs the scenario: blocks until every ticket is accounted for or the time-out, then reports. */
    public ChaosResult run(Scenario scenario) {
        this.scenario = Objects.requireNonNull(scenario, "scenario");
        Thread hook = new Thread(() -> children.forEach(ChildProcess::destroyNow), "quotaflow-chaos-children");
        Runtime.getRuntime().addShutdownHook(hook);
        Path root = null;
        boolean passed = false;
        try {
            root = Files.createTempDirectory("quotaflow-chaos-");
            logDir = Files.createDirectories(root.resolve("logs"));
            kafkaDir = root.resolve("kafka");
            stateDir = root.resolve("state");
            brokerPort = freePort(-1);
            httpPort = freePort(brokerPort);
            bootstrap = "localhost:" + brokerPort;
            apiKey = "sk-chaos-" + UUID.randomUUID();
            listener.phase("child process logs in " + logDir);

            startBrokerAndWait();
            try (Admin admin = KafkaClients.admin(bootstrap, Map.of())) {
                TopicsApplier.bundled().apply(admin);
            }
            SimulatorConfig simConfig = SimulatorConfig.builder().port(0).rpm(scenario.rpm()).tpm(scenario.tpm())
                    .burstSeconds(scenario.simBurstSeconds()).baseLatencyMs(options.simLatencyMs()).perCompletionTokenMs(0.2)
                    .apiKeys(Set.of(apiKey)).build();
            try (ProviderSimulator sim = ProviderSimulator.start(simConfig)) {
                simBaseUrl = "http://127.0.0.1:" + sim.port() + "/v1";
                listener.phase("provider simulator at " + simBaseUrl + " (" + scenario.rpm() + " RPM, " + scenario.tpm()
                        + " TPM, latency " + options.simLatencyMs() + " ms)");
                ChaosResult result = runWithSimulator(sim);
                passed = result.passed();
                return result;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            for (ChildProcess c : children) {
                c.stop(Duration.ofSeconds(c == broker ? 20 : 5));
            }
            children.clear();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
            if (passed && root != null) {
                // the logs stay for reading; the data is only bulk
                deleteQuietly(root.resolve("kafka"));
                deleteQuietly(root.resolve("state"));
            }
        }
    }

    private ChaosResult runWithSimulator(ProviderSimulator sim) throws InterruptedException {
        int n = scenario.tickets();
        List<GeneratedTicket> tickets = new TicketGenerator(options.seed()).generate(n);
        ChaosPlan plan = ChaosPlan.standard(n);
        listener.phase("plan: " + plan.describe());

        long coldStart = System.currentTimeMillis();
        startPipeline();
        Long coldStartMs = awaitRunning(Duration.ofSeconds(180), coldStart);
        listener.phase("pipeline (pid " + pipeline.pid() + ") streams RUNNING " + ChaosResult.seconds(coldStartMs) + " after start");

        List<ChaosResult.Disruption> disruptions = new ArrayList<>();
        List<String> notPerformed = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        boolean timedOut = false;
        long start;
        long lastOutcome;
        int published = 0;
        try (Tracker tracker = new Tracker(bootstrap);
             TicketPublisher publisher = new TicketPublisher(bootstrap, Map.of())) {
            start = System.currentTimeMillis();
            lastOutcome = start;
            long deadline = start + options.timeout().toMillis();
            long nextProgress = start;
            int stepsDone = 0;
            Recovery pending = null;
            List<ChaosPlan.Step> steps = plan.steps();
            while (true) {
                long before = tracker.accounted();
                tracker.poll(Duration.ofMillis(100));
                long now = System.currentTimeMillis();
                if (tracker.accounted() > before) {
                    lastOutcome = now;
                }
                checkChildren(pending);
                if (pending != null) {
                    pending.advance(now, tracker);
                    if (pending.complete(now, tracker.accounted() >= n)) {
                        ChaosResult.Disruption d = pending.toDisruption();
                        disruptions.add(d);
                        listener.phase("kill #" + d.index() + " recovered: " + d.describe(n));
                        pending = null;
                    }
                } else {
                    pollStatusIfDue(now, 1_000);
                    Optional<ChaosPlan.Step> due = plan.due(stepsDone, tracker.accounted());
                    if (due.isPresent()) {
                        stepsDone++;
                        if (due.get() instanceof ChaosPlan.Wave wave) {
                            publish(publisher, tickets.subList(wave.from(), wave.to()), wave);
                            published += wave.size();
                        } else {
                            ChaosPlan.Kill kill = (ChaosPlan.Kill) due.get();
                            pending = kill(kill, now - start, tracker, published);
                        }
                    }
                }
                if (pending == null && tracker.accounted() >= n && published >= n) {
                    // whatever is left of the plan can only be kills, with nothing in flight to lose
                    break;
                }
                if (now > deadline) {
                    timedOut = true;
                    notes.add("timed out after " + options.timeout().toMinutes() + " min with " + tracker.accounted() + " of " + n
                            + " tickets accounted for" + (pending == null ? "" : " while waiting for kill #" + pending.kill.index()
                            + " to recover"));
                    if (pending != null) {
                        disruptions.add(pending.toDisruption());
                    }
                    break;
                }
                if (now >= nextProgress) {
                    SimulatorStats s = sim.stats();
                    listener.progress(new Progress(now - start, published, n, tracker.classified(), tracker.deadLettered(),
                            s.totalRequests(), s.http429(), pending == null ? "streams " + lastStreamsState : pending.waitingFor(now)));
                    nextProgress = now + options.progressInterval().toMillis();
                }
            }
            for (int i = stepsDone; i < steps.size(); i++) {
                if (steps.get(i) instanceof ChaosPlan.Kill k) {
                    notPerformed.add("#" + k.index() + " " + k.target().label() + " SIGKILL at " + Math.round(k.atShare() * 100)
                            + " % (every ticket was accounted for first)");
                }
            }
        }
        long wallTimeMs = lastOutcome - start;

        listener.phase("stopping the pipeline (SIGTERM), then reading every result and dead letter (read_committed)");
        pipeline.stop(Duration.ofSeconds(60));
        FinalRead all = FinalRead.read(bootstrap);
        ChaosAccounting accounting = ChaosAccounting.of(tickets.subList(0, published).stream().map(GeneratedTicket::id).toList(),
                all.resultKeys(), all.deadLetters());
        if (accounting.unexpected() > 0) {
            notes.add(accounting.unexpected() + " ids in the output topics were never published");
        }
        if (published < n) {
            notes.add("only " + published + " of " + n + " tickets were published before the run ended");
        }
        double[] accuracy = accuracy(tickets, all.firstValues());
        SimulatorStats stats = sim.stats();
        return new ChaosResult(scenario.key(), scenario.name(), scenario.description(), scenario.rpm(), scenario.tpm(),
                scenario.simBurstSeconds(), plan.describe(), accounting, stats.totalRequests(), stats.http429(),
                stats.requestsAdmitted(), stats.promptTokens(), stats.completionTokens(), stats.tokensAdmitted(),
                Double.isNaN(accuracy[0]) ? null : accuracy[0], Double.isNaN(accuracy[1]) ? null : accuracy[1], wallTimeMs, timedOut,
                coldStartMs, disruptions, notPerformed, logDir.toString(), notes);
    }

    // ---------------------------------------------------------------- steps

    private void publish(TicketPublisher publisher, List<GeneratedTicket> wave, ChaosPlan.Wave step) {
        if (wave.isEmpty()) {
            return;
        }
        PublishSummary summary = publisher.publish(new ByteArrayInputStream(TicketGenerator.jsonLines(wave)), Optional.empty(), false,
                p -> { }, issue -> { });
        if (!summary.succeeded() || summary.acknowledged() != wave.size()) {
            throw new IllegalStateException("publishing wave " + step.index() + " failed: " + summary.describe());
        }
        listener.phase(String.format(Locale.ROOT, "wave %d: published tickets %,d-%,d", step.index(), step.from() + 1, step.to()));
    }

    private Recovery kill(ChaosPlan.Kill kill, long atMs, Tracker tracker, long published) {
        Recovery r = new Recovery(kill, atMs, tracker.accounted(), published);
        if (kill.target() == ChaosPlan.Target.PIPELINE) {
            long pid = pipeline.pid();
            r.killedAt = System.currentTimeMillis();
            pipeline.kill();
            startPipeline();
            r.restarted(System.currentTimeMillis());
            // taken after the spawn so as not to delay it: a new JVM needs seconds before it can commit anything
            r.snapshot = tracker.endOffsets();
            // new = committed after the kill and classified by the new process
            tracker.watch(r.snapshot, r.restartedAt, r.restartedAt);
            listener.phase(String.format(Locale.ROOT, "kill #%d: SIGKILL pipeline pid %d at %d %% (%,d accounted for, %,d in flight); "
                            + "restarted as pid %d (%s)", kill.index(), pid, Math.round(kill.atShare() * 100), r.accountedAtKill,
                    published - r.accountedAtKill, pipeline.pid(), pipeline.log().getFileName()));
        } else {
            r.snapshot = tracker.endOffsets();
            tracker.watch(r.snapshot, Long.MAX_VALUE, Long.MIN_VALUE); // nothing counts until the restart
            long pid = broker.pid();
            r.killedAt = System.currentTimeMillis();
            broker.kill();
            r.restartDueAt = System.currentTimeMillis() + options.brokerDownTime().toMillis();
            listener.phase(String.format(Locale.ROOT, "kill #%d: SIGKILL broker pid %d at %d %% (%,d accounted for, %,d in flight); "
                            + "restart in %s", kill.index(), pid, Math.round(kill.atShare() * 100), r.accountedAtKill,
                    published - r.accountedAtKill, ChaosResult.seconds(options.brokerDownTime().toMillis())));
        }
        return r;
    }

    /** The recovery from one kill, while it is under way. */
    private final class Recovery {
        final ChaosPlan.Kill kill;
        final long atMs;
        final long accountedAtKill;
        final long publishedAtKill;
        long killedAt;
        long restartDueAt;
        Long restartedAt;
        Long readyAt;
        Long firstResultAt;
        int restarts;
        Map<TopicPartition, Long> snapshot = Map.of();

        Recovery(ChaosPlan.Kill kill, long atMs, long accountedAtKill, long publishedAtKill) {
            this.kill = kill;
            this.atMs = atMs;
            this.accountedAtKill = accountedAtKill;
            this.publishedAtKill = publishedAtKill;
        }

        void restarted(long at) {
            if (restartedAt == null) {
                restartedAt = at;
            }
            restarts++;
        }

        void advance(long now, Tracker tracker) {
            if (kill.target() == ChaosPlan.Target.BROKER) {
                if (restartedAt == null && now >= restartDueAt) {
                    startBroker();
                    restarted(System.currentTimeMillis());
                    // new = committed after the kill (the pipeline stayed up: it may have classified during the outage)
                    tracker.watch(snapshot, restartedAt, Long.MIN_VALUE);
                    listener.phase("kill #" + kill.index() + ": broker restarted as pid " + broker.pid() + " on port " + brokerPort
                            + " (" + broker.log().getFileName() + ")");
                } else if (restartedAt != null && readyAt == null && broker.logContains(BROKER_READY)) {
                    readyAt = System.currentTimeMillis();
                }
            } else if (readyAt == null && "RUNNING".equals(pollStatusIfDue(now, 150))) {
                readyAt = System.currentTimeMillis();
            }
            if (restartedAt != null && firstResultAt == null && tracker.firstNewAt() != null) {
                firstResultAt = tracker.firstNewAt();
            }
        }

        /** Recovered: ready and a new result seen (or a new result, with readiness not seen 30 s on, or the run over). */
        boolean complete(long now, boolean allAccounted) {
            if (firstResultAt == null) {
                return false;
            }
            return readyAt != null || allAccounted || now - firstResultAt > 30_000;
        }

        String waitingFor(long now) {
            if (restartedAt == null) {
                return kill.target().label() + " down, restart in " + ChaosResult.seconds(Math.max(0, restartDueAt - now));
            }
            String what = kill.target() == ChaosPlan.Target.PIPELINE ? "streams " + lastStreamsState : readyAt == null ? "broker starting" : "broker ready";
            return "kill #" + kill.index() + " " + kill.target().label() + " restarted " + ChaosResult.seconds(now - restartedAt)
                    + " ago, " + what + (firstResultAt == null ? ", no new result yet" : "");
        }

        ChaosResult.Disruption toDisruption() {
            Long ready = restartedAt == null || readyAt == null ? null : readyAt - restartedAt;
            Long first = restartedAt == null || firstResultAt == null ? null : firstResultAt - restartedAt;
            long down = restartedAt == null ? System.currentTimeMillis() - killedAt : restartedAt - killedAt;
            return new ChaosResult.Disruption(kill.index(), kill.target(), kill.atShare(), atMs, accountedAtKill, publishedAtKill, down,
                    ready, first, restarts);
        }
    }

    // ---------------------------------------------------------------- children

    private void startBrokerAndWait() throws InterruptedException {
        startBroker();
        long deadline = System.currentTimeMillis() + 120_000;
        while (!broker.logContains(BROKER_READY)) {
            if (!broker.alive()) {
                throw new IllegalStateException("the broker exited with code " + broker.exitCode() + "; " + broker.log() + ":\n"
                        + broker.lastLines(20));
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("the broker did not start within 120 s; see " + broker.log());
            }
            Thread.sleep(100);
        }
        listener.phase("broker (pid " + broker.pid() + ") ready at " + bootstrap + ", data in " + kafkaDir);
    }

    private void startBroker() {
        brokerStarts++;
        broker = spawn("broker", List.of("broker", "--port", Integer.toString(brokerPort), "--dir", kafkaDir.toString()),
                Map.of(), List.of(), logDir.resolve("broker-" + brokerStarts + ".log"));
    }

    private void startPipeline() {
        pipelineStarts++;
        lastStreamsState = "starting";
        pipeline = spawn("pipeline", pipelineArgs(bootstrap, simBaseUrl, scenario, stateDir, httpPort),
                Map.of(API_KEY_ENV, apiKey),
                // INFO, so that the log shows Kafka Streams' state transitions with their times
                List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=info"),
                logDir.resolve("pipeline-" + pipelineStarts + ".log"));
    }

    /** The arguments of every start of the pipeline: the same each time. */
    static List<String> pipelineArgs(String bootstrap, String baseUrl, Scenario scenario, Path stateDir, int httpPort) {
        return List.of("run", "--bootstrap-servers", bootstrap, "--llm-base-url", baseUrl, "--rpm", Long.toString(scenario.rpm()),
                "--tpm", Long.toString(scenario.tpm()), "--state-dir", stateDir.toString(), "--http-port", Integer.toString(httpPort),
                "--application-id", APPLICATION_ID);
    }

    private ChildProcess spawn(String name, List<String> args, Map<String, String> env, List<String> extraJvmArgs, Path log) {
        List<String> jvm = new ArrayList<>(options.childJvmArgs());
        jvm.addAll(extraJvmArgs);
        ChildProcess c = ChildProcess.start(name, ChildProcess.command(jvm, args), env, log);
        children.removeIf(old -> old.name().equals(name) && !old.alive());
        children.add(c);
        return c;
    }

    /** Fails the run when a child died without being killed, or the pipeline's streams failed. */
    private void checkChildren(Recovery pending) {
        boolean brokerExpectedDown = pending != null && pending.kill.target() == ChaosPlan.Target.BROKER
                && (pending.restartedAt == null || pending.readyAt == null);
        if (!broker.alive()) {
            if (brokerExpectedDown && pending.restartedAt != null) {
                // the restarted broker died before it was ready (a port not yet released, ...): try again
                if (pending.restarts >= MAX_BROKER_STARTS_PER_RESTART) {
                    throw new IllegalStateException("the broker failed to restart " + pending.restarts + " times; " + broker.log()
                            + ":\n" + broker.lastLines(20));
                }
                listener.phase("the restarted broker exited with code " + broker.exitCode() + " before it was ready; retrying ("
                        + broker.log().getFileName() + ")");
                startBroker();
                pending.restarted(System.currentTimeMillis());
            } else if (!brokerExpectedDown) {
                throw new IllegalStateException("the broker exited unexpectedly with code " + broker.exitCode() + "; " + broker.log()
                        + ":\n" + broker.lastLines(20));
            }
        }
        if (!pipeline.alive()) {
            throw new IllegalStateException("the pipeline exited unexpectedly with code " + pipeline.exitCode() + "; " + pipeline.log()
                    + ":\n" + pipeline.lastLines(30));
        }
        if (Set.of("ERROR", "PENDING_ERROR", "NOT_RUNNING").contains(lastStreamsState)) {
            throw new IllegalStateException("the pipeline's streams are " + lastStreamsState + "; see " + pipeline.log());
        }
    }

    /** Streams RUNNING within {@code timeout}: milliseconds since {@code since}. */
    private long awaitRunning(Duration timeout, long since) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            if (!pipeline.alive()) {
                throw new IllegalStateException("the pipeline exited with code " + pipeline.exitCode() + "; " + pipeline.log() + ":\n"
                        + pipeline.lastLines(30));
            }
            if ("RUNNING".equals(pollStatusIfDue(System.currentTimeMillis(), 0))) {
                return System.currentTimeMillis() - since;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the pipeline's streams were not RUNNING within " + timeout.toSeconds() + " s (last state "
                + lastStreamsState + "); see " + pipeline.log());
    }

    /** GET /status at most every {@code minIntervalMs}; returns the streams state last seen ("?" until the server answers). */
    private String pollStatusIfDue(long now, long minIntervalMs) {
        if (now - lastStatusPollMs < minIntervalMs) {
            return lastStreamsState;
        }
        lastStatusPollMs = now;
        String state = streamsState(http, httpPort);
        if (state != null) {
            lastStreamsState = state;
        }
        return state == null ? "unreachable" : state;
    }

    /** The {@code streams} field of {@code GET /status}, or null when the server does not answer. */
    static String streamsState(HttpClient http, int port) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status"))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return null;
            }
            JsonNode json = Json.MAPPER.readTree(response.body());
            return json.path("streams").asText(null);
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    // ---------------------------------------------------------------- reading the outcomes

    /**
     * Follows {@code tickets.classified} and {@code tickets.dlq} ({@code read_committed}) while the
     * run goes on: distinct ids accounted for, and the first record committed after a kill.
     */
    static final class Tracker implements AutoCloseable {
        private final KafkaConsumer<String, byte[]> consumer;
        private final List<TopicPartition> partitions;
        private final Set<String> classified = new HashSet<>();
        private final Set<String> deadLettered = new HashSet<>();
        private final Set<String> accounted = new HashSet<>();
        private Map<TopicPartition, Long> watermark;
        private long watchSince;
        private long classifiedSince;
        private Long firstNewAt;

        Tracker(String bootstrap) {
            consumer = consumer(bootstrap, "quotaflow-chaos-tracker");
            partitions = partitions(consumer);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
        }

        void poll(Duration timeout) {
            for (ConsumerRecord<String, byte[]> r : consumer.poll(timeout)) {
                String key = String.valueOf(r.key());
                if (r.topic().equals(Topics.CLASSIFIED.name())) {
                    classified.add(key);
                } else {
                    deadLettered.add(key);
                }
                accounted.add(key);
                if (watermark != null && firstNewAt == null) {
                    long now = System.currentTimeMillis();
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    if (now >= watchSince && r.offset() >= watermark.getOrDefault(tp, 0L) && newEnough(r)) {
                        firstNewAt = now;
                    }
                }
            }
        }

        /** The read_committed end (last stable offset) of every partition; empty when the broker does not answer. */
        Map<TopicPartition, Long> endOffsets() {
            try {
                return Map.copyOf(consumer.endOffsets(partitions, Duration.ofSeconds(10)));
            } catch (KafkaException e) {
                return Map.of();
            }
        }

        /**
         * From now on, remember when the first new record arrives: one at or past {@code watermark},
         * received at or after {@code since}, and, unless {@code classifiedSince} is
         * {@link Long#MIN_VALUE}, a result whose {@code classifiedAt} is not before it (a dead letter
         * does not tell when it was made, so then it does not count).
         */
        void watch(Map<TopicPartition, Long> watermark, long since, long classifiedSince) {
            this.watermark = watermark;
            this.watchSince = since;
            this.classifiedSince = classifiedSince;
            this.firstNewAt = null;
        }

        private boolean newEnough(ConsumerRecord<String, byte[]> r) {
            if (classifiedSince == Long.MIN_VALUE) {
                return true;
            }
            if (!r.topic().equals(Topics.CLASSIFIED.name())) {
                return false;
            }
            Long at = classifiedAtMs(r.value());
            return at != null && at >= classifiedSince;
        }

        Long firstNewAt() {
            return firstNewAt;
        }

        long accounted() {
            return accounted.size();
        }

        long classified() {
            return classified.size();
        }

        long deadLettered() {
            return deadLettered.size();
        }

        @Override
        public void close() {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** Everything in {@code tickets.classified} and {@code tickets.dlq} up to their last stable offsets. */
    record FinalRead(List<String> resultKeys, Map<String, byte[]> firstValues, List<ChaosAccounting.DeadLetter> deadLetters) {

        static FinalRead read(String bootstrap) {
            List<String> keys = new ArrayList<>();
            Map<String, byte[]> values = new HashMap<>();
            List<ChaosAccounting.DeadLetter> dead = new ArrayList<>();
            try (KafkaConsumer<String, byte[]> consumer = consumer(bootstrap, "quotaflow-chaos-final-read")) {
                List<TopicPartition> partitions = partitions(consumer);
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
                long deadline = System.currentTimeMillis() + 120_000;
                while (partitions.stream().anyMatch(tp -> consumer.position(tp, Duration.ofSeconds(30)) < end.getOrDefault(tp, 0L))) {
                    if (System.currentTimeMillis() > deadline) {
                        throw new IllegalStateException("could not read the output topics to their end within 120 s");
                    }
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                        String key = String.valueOf(r.key());
                        if (r.topic().equals(Topics.CLASSIFIED.name())) {
                            keys.add(key);
                            values.putIfAbsent(key, r.value());
                        } else {
                            dead.add(new ChaosAccounting.DeadLetter(key,
                                    FailureHeaders.string(r.headers(), FailureHeaders.ERROR_KIND).orElse("unknown")));
                        }
                    }
                }
            }
            return new FinalRead(keys, values, dead);
        }
    }

    private static KafkaConsumer<String, byte[]> consumer(String bootstrap, String clientId) {
        Map<String, Object> p = KafkaClients.properties(Map.of(ConsumerConfig.CLIENT_ID_CONFIG, clientId), bootstrap, Map.of());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        return new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
    }

    private static List<TopicPartition> partitions(KafkaConsumer<String, byte[]> consumer) {
        List<TopicPartition> out = new ArrayList<>();
        for (String topic : List.of(Topics.CLASSIFIED.name(), Topics.DLQ.name())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
            infos.forEach(pi -> out.add(new TopicPartition(topic, pi.partition())));
        }
        return out;
    }

    /** The {@code classifiedAt} of a result, in epoch milliseconds; null when it has none. */
    static Long classifiedAtMs(byte[] result) {
        try {
            String text = Json.MAPPER.readTree(result).path("classifiedAt").asText(null);
            return text == null ? null : java.time.Instant.parse(text).toEpochMilli();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {category accuracy, urgency accuracy} of the results against the generator's labels; NaN when there is none. */
    static double[] accuracy(List<GeneratedTicket> tickets, Map<String, byte[]> results) {
        Map<String, GeneratedTicket.Label> labels = TicketGenerator.labels(tickets);
        long scored = 0;
        long category = 0;
        long urgency = 0;
        for (Map.Entry<String, byte[]> e : results.entrySet()) {
            GeneratedTicket.Label label = labels.get(e.getKey());
            if (label == null) {
                continue;
            }
            scored++;
            try {
                JsonNode json = Json.MAPPER.readTree(e.getValue());
                category += label.category().equals(json.path("category").asText()) ? 1 : 0;
                urgency += label.urgency().equals(json.path("urgency").asText()) ? 1 : 0;
            } catch (IOException ex) {
                // an unreadable result counts as wrong
            }
        }
        return scored == 0 ? new double[] {Double.NaN, Double.NaN} : new double[] {category / (double) scored, urgency / (double) scored};
    }

    private static int freePort(int avoid) throws IOException {
        for (int attempt = 0; attempt < 20; attempt++) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                if (socket.getLocalPort() != avoid) {
                    return socket.getLocalPort();
                }
            }
        }
        throw new IOException("cannot find a free port");
    }

    private static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory
        }
    }
}

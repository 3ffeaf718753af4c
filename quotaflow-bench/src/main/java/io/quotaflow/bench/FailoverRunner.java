package io.quotaflow.bench;

import io.quotaflow.admin.KafkaClients;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.demo.TempDirs;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.simulator.SimulatorStats;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import org.apache.kafka.clients.admin.Admin;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The failover scenario: three {@code quotaflow run} instances (child processes, so that one can
 * really be SIGKILLed: no LeaveGroup, no commit, calls left in the air) share six quota scopes,
 * six routes each with its own provider simulator in this JVM (one key, {@value #RPM} RPM,
 * {@link Options#tpm} TPM, {@value #DEFAULT_TPM} by default, a bucket of {@link Options#burstSeconds}, 5 s by default,
 * each), on an in-process broker. The tickets are spread evenly over
 * six tenants, one routed to each scope, and published at once. Once {@value #KILL_AT_SHARE} of
 * them are accounted for, the instance owning the most dispatcher tasks is SIGKILLed; it stays dead, or
 * (a {@code +restart} variant) is started again at once with the same state directory and so the
 * same instance id. The run ends when every ticket is classified or dead-lettered.
 *
 * <p>Meanwhile every simulator's admission counts are sampled every {@value #SAMPLE_MS} ms
 * ({@link ScopeTimeline}) and the group's task ownership every {@value #OWNERSHIP_MS} ms
 * ({@link GroupOwnership}); {@link FailoverFigures} turns them into the seconds until each of the
 * killed instance's scopes admitted a call again and the use of the six quotas. Not a test:
 * nothing is asserted.
 */
public final class FailoverRunner {

    public static final String APPLICATION_ID = "failover";
    public static final int SCOPES = 6;
    public static final int INSTANCES = 3;
    public static final long RPM = 1_000;
    /**
     * Each scope's tokens per minute: low enough that the quotas, not the three instances sharing this
     * machine's cores, bind (every scope has tickets waiting when the instance is killed), so that the
     * seconds until a scope admits again measure the failover and not the wait for its next ticket.
     */
    public static final long DEFAULT_TPM = 60_000;
    public static final double DEFAULT_BURST_SECONDS = 5;
    /** About 100 s of work per scope at {@value #DEFAULT_TPM} TPM. */
    public static final int DEFAULT_TICKETS = 2_400;
    /** The kill comes once this share of the tickets is accounted for: the group has settled and every scope is busy. */
    public static final double KILL_AT_SHARE = 0.3;
    static final long SAMPLE_MS = 50;
    static final long OWNERSHIP_MS = 500;
    static final String API_KEY_ENV = "QUOTAFLOW_LLM_API_KEY";

    /**
     * @param seed             generator seed
     * @param tickets          tickets per run
     * @param timeout          give up on a run after this long (first publish to the last ticket)
     * @param progressInterval how often {@link Listener#progress} is called
     * @param childJvmArgs     JVM options of the instances
     * @param tpm              each scope's tokens per minute (its simulator's limit and its route's {@code tpm})
     * @param burstSeconds     how many seconds of its limit each simulator's bucket holds (60: a full-minute bucket)
     * @param shape            the simulators' shape (tokenizer, context, latency); {@link ScenarioShape#DEFAULT}: ours
     */
    public record Options(long seed, int tickets, Duration timeout, Duration progressInterval, List<String> childJvmArgs, long tpm,
                          double burstSeconds, ScenarioShape shape) {
        public Options {
            Objects.requireNonNull(shape, "shape");
            if (tpm < 1_000) {
                throw new IllegalArgumentException("tpm must be >= 1000: " + tpm);
            }
            if (!(burstSeconds > 0 && burstSeconds <= 60)) {
                throw new IllegalArgumentException("burstSeconds must be in (0, 60]: " + burstSeconds);
            }
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(progressInterval, "progressInterval");
            childJvmArgs = List.copyOf(childJvmArgs);
            if (tickets < SCOPES) {
                throw new IllegalArgumentException("tickets must be >= " + SCOPES + ": " + tickets);
            }
        }

        public static Options defaults(long seed) {
            return new Options(seed, DEFAULT_TICKETS, Duration.ofMinutes(15), Duration.ofSeconds(5), List.of("-Xmx512m"), DEFAULT_TPM,
                    DEFAULT_BURST_SECONDS, ScenarioShape.DEFAULT);
        }

        public Options withTickets(int value) {
            return new Options(seed, value, timeout, progressInterval, childJvmArgs, tpm, burstSeconds, shape);
        }

        public Options withTimeout(Duration value) {
            return new Options(seed, tickets, value, progressInterval, childJvmArgs, tpm, burstSeconds, shape);
        }

        public Options withProgressInterval(Duration value) {
            return new Options(seed, tickets, timeout, value, childJvmArgs, tpm, burstSeconds, shape);
        }

        public Options withTpm(long value) {
            return new Options(seed, tickets, timeout, progressInterval, childJvmArgs, value, burstSeconds, shape);
        }

        /** The simulators shaped as {@code value} (e.g. {@link Scenario#SLOW_PROVIDER}, (w)'s: cl100k_base, ~2 s calls). */
        public Options withShape(ScenarioShape value) {
            return new Options(seed, tickets, timeout, progressInterval, childJvmArgs, tpm, burstSeconds, value);
        }

        public Options withBurstSeconds(double value) {
            return new Options(seed, tickets, timeout, progressInterval, childJvmArgs, tpm, value, shape);
        }
    }

    /** Receives what a run is doing, on the running thread. */
    public interface Listener {
        default void phase(FailoverVariant variant, String message) {
        }

        default void progress(FailoverVariant variant, String line) {
        }
    }

    private final Options options;
    private final Listener listener;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    public FailoverRunner(Options options, Listener listener) {
        this.options = Objects.requireNonNull(options, "options");
        this.listener = listener == null ? new Listener() { } : listener;
    }

    /** The label of instance {@code i} (0-based): its {@code client.id}. */
    static String label(int i) {
        return "fo-" + (i + 1);
    }

    /** The route of scope {@code i}. */
    static String route(int i) {
        return "s" + i;
    }

    /** The tenant whose tickets go to scope {@code i}. */
    static String tenant(int i) {
        return "t" + i;
    }

    /** The generated tickets, their tenants replaced so that ticket n goes to scope n mod {@value #SCOPES}. */
    static List<GeneratedTicket> tickets(long seed, int n) {
        List<GeneratedTicket> generated = new TicketGenerator(seed).generate(n);
        List<GeneratedTicket> out = new ArrayList<>(n);
        for (int i = 0; i < generated.size(); i++) {
            GeneratedTicket t = generated.get(i);
            out.add(new GeneratedTicket(t.id(), tenant(i % SCOPES), t.priority(), t.language(), t.subject(), t.body(), t.submittedAt(),
                    t.channel(), t.label()));
        }
        return out;
    }

    /** The properties file of one instance: six routes, one per simulator, a tenant routed to each, and the variant's settings. */
    static String instanceConfig(String bootstrap, List<String> baseUrls, long tpm, int instance, FailoverVariant variant) {
        StringBuilder sb = new StringBuilder();
        sb.append("bootstrap.servers=").append(bootstrap).append('\n');
        sb.append("application.id=").append(APPLICATION_ID).append('\n');
        sb.append("http.bind=127.0.0.1\n");
        sb.append("instance.id=").append(variant.instanceId()).append('\n');
        List<String> routes = new ArrayList<>();
        for (int i = 0; i < baseUrls.size(); i++) {
            routes.add(route(i));
        }
        sb.append("routes=").append(String.join(",", routes)).append('\n');
        for (int i = 0; i < baseUrls.size(); i++) {
            sb.append("route.").append(route(i)).append(".base-url=").append(baseUrls.get(i)).append('\n');
            sb.append("route.").append(route(i)).append(".rpm=").append(RPM).append('\n');
            sb.append("route.").append(route(i)).append(".tpm=").append(tpm).append('\n');
            sb.append("routing.tenant.").append(tenant(i)).append('=').append(route(i)).append('\n');
        }
        sb.append("kafka.client.id=").append(label(instance)).append('\n');
        new TreeMap<>(variant.kafka()).forEach((k, v) -> sb.append("kafka.").append(k).append('=').append(v).append('\n'));
        return sb.toString();
    }

    /** Each scope's dispatch partition, as an instance reading {@code config} with {@code apiKey} computes it. */
    static List<Integer> scopePartitions(Path config, String apiKey) {
        io.quotaflow.config.QuotaflowConfig c = io.quotaflow.config.ConfigLoader.load(config, Map.of(API_KEY_ENV, apiKey), Map.of());
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < SCOPES; i++) {
            String scope = c.dispatcher().routing().route(route(i)).orElseThrow().scope();
            out.add(io.quotaflow.settings.QuotaScope.dispatchPartition(scope, c.dispatcher().dispatchPartitions()));
        }
        return out;
    }

    /** Runs one variant on fresh infrastructure. */
    public FailoverResult run(FailoverVariant variant) {
        Objects.requireNonNull(variant, "variant");
        List<ChildProcess> children = new CopyOnWriteArrayList<>();
        Thread hook = new Thread(() -> children.forEach(ChildProcess::destroyNow), "quotaflow-failover-children");
        Runtime.getRuntime().addShutdownHook(hook);
        Path root = null;
        boolean passed = false;
        List<ProviderSimulator> sims = new ArrayList<>();
        String loadAtStart = loadAverage();
        try {
            root = Files.createTempDirectory("quotaflow-failover-");
            listener.phase(variant, "starting Kafka broker (KRaft, in-process" + (variant.broker().isEmpty() ? ""
                    : ", " + variant.broker()) + "); logs in " + root.resolve("logs"));
            try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(0, null, variant.broker())) {
                try (Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
                    TopicsApplier.bundled().apply(admin);
                }
                String apiKey = "sk-failover-" + UUID.randomUUID();
                List<String> baseUrls = new ArrayList<>();
                for (int i = 0; i < SCOPES; i++) {
                    ProviderSimulator sim = ProviderSimulator.start(options.shape().applyTo(SimulatorConfig.builder().port(0).rpm(RPM)
                            .tpm(options.tpm()).burstSeconds(options.burstSeconds()).seed(options.seed() + i).apiKeys(Set.of(apiKey)))
                            .build());
                    sims.add(sim);
                    baseUrls.add("http://127.0.0.1:" + sim.port() + "/v1");
                }
                listener.phase(variant, SCOPES + " provider simulators (" + RPM + " RPM, " + options.tpm() + " TPM, burst "
                        + options.burstSeconds() + " s each" + (options.shape().describe().isEmpty() ? "" : ", " + options.shape().describe())
                        + "); starting " + INSTANCES + " instances: " + variant.description());
                Run run = new Run(variant, root, broker.bootstrapServers(), baseUrls, apiKey, children);
                FailoverResult result = run.execute(sims, loadAtStart);
                passed = result.clean();
                return result;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            children.forEach(c -> c.stop(Duration.ofSeconds(10)));
            sims.forEach(ProviderSimulator::close);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
            if (root != null) {
                TempDirs.deleteQuietly(root.resolve("state"));
                if (passed) {
                    TempDirs.deleteQuietly(root.resolve("config"));
                }
            }
        }
    }

    /** The 1-minute load average (Linux), for the notes: how contended the machine was. */
    static String loadAverage() {
        try {
            String s = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.UTF_8).strip();
            return s.split("\\s+")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /** One run's state. */
    private final class Run {
        final FailoverVariant variant;
        final Path root;
        final String bootstrap;
        final List<String> baseUrls;
        final String apiKey;
        final List<ChildProcess> children;
        final List<ChildProcess> instances = new ArrayList<>();
        final List<List<String>> commands = new ArrayList<>();
        final List<Integer> httpPorts = new ArrayList<>();
        final List<ScopeTimeline> timelines = new ArrayList<>();
        final List<FailoverFigures.OwnerSnapshot> owners = new CopyOnWriteArrayList<>();
        final List<String> labels = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        int victim = -1;
        /** Scope i's dispatch partition: a hash of the scope's name, so two scopes may share one (and its task). */
        List<Integer> partitions = List.of();
        long killMs;
        Long restartRunningMs;
        int starts;

        Run(FailoverVariant variant, Path root, String bootstrap, List<String> baseUrls, String apiKey, List<ChildProcess> children) {
            this.variant = variant;
            this.root = root;
            this.bootstrap = bootstrap;
            this.baseUrls = baseUrls;
            this.apiKey = apiKey;
            this.children = children;
            for (int i = 0; i < SCOPES; i++) {
                timelines.add(new ScopeTimeline());
            }
            for (int i = 0; i < INSTANCES; i++) {
                labels.add(label(i));
            }
        }

        FailoverResult execute(List<ProviderSimulator> sims, String loadAtStart) throws IOException, InterruptedException {
            int avoid = -1;
            for (int i = 0; i < INSTANCES; i++) {
                Path config = Files.createDirectories(root.resolve("config")).resolve(label(i) + ".properties");
                Files.writeString(config, instanceConfig(bootstrap, baseUrls, options.tpm(), i, variant), StandardCharsets.UTF_8);
                int port = ChaosChildren.freePort(avoid);
                avoid = port;
                httpPorts.add(port);
                commands.add(ChildProcess.command(jvmArgs(), List.of("run", "--config", config.toString(), "--state-dir",
                        root.resolve("state").resolve(label(i)).toString(), "--http-port", Integer.toString(port))));
                instances.add(spawn(i));
                if (i == 0) {
                    partitions = scopePartitions(config, apiKey);
                }
            }
            long startDeadline = System.currentTimeMillis() + 180_000;
            for (int i = 0; i < INSTANCES; i++) {
                awaitRunning(i, startDeadline);
            }
            listener.phase(variant, "all " + INSTANCES + " instances RUNNING; publishing " + options.tickets() + " tickets ("
                    + options.tickets() / SCOPES + " per scope)");
            List<GeneratedTicket> tickets = tickets(options.seed(), options.tickets());
            ScheduledExecutorService sampler = Executors.newScheduledThreadPool(2, r -> {
                Thread t = new Thread(r, "quotaflow-failover-sampler");
                t.setDaemon(true);
                return t;
            });
            try (Admin admin = KafkaClients.admin(bootstrap, Map.of());
                 OutcomeCounter counter = new OutcomeCounter(bootstrap, Map.of());
                 TicketPublisher publisher = new TicketPublisher(bootstrap, Map.of())) {
                sampler.scheduleAtFixedRate(() -> sample(sims), 0, SAMPLE_MS, TimeUnit.MILLISECONDS);
                sampler.scheduleWithFixedDelay(() -> owners.add(new FailoverFigures.OwnerSnapshot(System.currentTimeMillis(),
                        GroupOwnership.describe(admin, APPLICATION_ID, variant.streamsProtocol(), labels))), 0, OWNERSHIP_MS,
                        TimeUnit.MILLISECONDS);
                long start = System.currentTimeMillis();
                publish(publisher, tickets);
                long lastOutcome = drive(counter, sims, tickets.size(), start);
                awaitLateDuplicates(counter);
                sampler.shutdownNow();
                sampler.awaitTermination(5, TimeUnit.SECONDS);
                return result(counter, sims, tickets, start, lastOutcome, loadAtStart);
            } finally {
                sampler.shutdownNow();
            }
        }

        private List<String> jvmArgs() {
            List<String> jvm = new ArrayList<>(options.childJvmArgs());
            // INFO, so that the logs show Kafka's group and Streams' state transitions with their times
            jvm.add("-Dquotaflow.log.others=INFO");
            return jvm;
        }

        private ChildProcess spawn(int i) {
            starts++;
            ChildProcess c = ChildProcess.start(label(i), commands.get(i), Map.of(API_KEY_ENV, apiKey),
                    root.resolve("logs").resolve(label(i) + "-" + starts + ".log"));
            children.add(c);
            return c;
        }

        private void awaitRunning(int i, long deadline) throws InterruptedException {
            ChildProcess c = instances.get(i);
            if (!ChaosChildren.awaitRunning(http, httpPorts.get(i), c, deadline)) {
                throw new IllegalStateException(c.name() + " was not RUNNING in time; see " + c.log());
            }
        }

        private void sample(List<ProviderSimulator> sims) {
            long now = System.currentTimeMillis();
            for (int i = 0; i < sims.size(); i++) {
                SimulatorStats s = sims.get(i).stats();
                timelines.get(i).add(now, s.requestsAdmitted(), s.tokensAdmitted());
            }
        }

        /** Kills (and restarts) on schedule until every ticket is accounted for; returns when the last outcome was seen. */
        private long drive(OutcomeCounter counter, List<ProviderSimulator> sims, int expected, long start) throws InterruptedException {
            long deadline = start + options.timeout().toMillis();
            long nextProgress = start;
            long nextStatus = 0;
            while (true) {
                counter.poll(Duration.ofMillis(100));
                long now = System.currentTimeMillis();
                if ((long) counter.classified() + counter.deadLettered() >= expected) {
                    return now;
                }
                checkAlive();
                if (victim < 0) {
                    if (counter.classified() + counter.deadLettered() >= Math.round(expected * KILL_AT_SHARE)) {
                        kill();
                    }
                } else if (variant.restart() && restartRunningMs == null && now >= nextStatus) {
                    nextStatus = now + 250;
                    if ("RUNNING".equals(ChaosChildren.streamsState(http, httpPorts.get(victim)))) {
                        restartRunningMs = System.currentTimeMillis() - killMs;
                        listener.phase(variant, String.format(Locale.ROOT, "restarted %s RUNNING %.1f s after the kill", label(victim),
                                restartRunningMs / 1000.0));
                    }
                }
                if (now >= nextProgress) {
                    nextProgress = now + options.progressInterval().toMillis();
                    listener.progress(variant, progressLine(counter, sims, expected, now - start));
                }
                if (now > deadline) {
                    throw new IllegalStateException("timed out after " + options.timeout().toSeconds() + " s with "
                            + (counter.classified() + counter.deadLettered()) + " of " + expected + " tickets accounted for; logs in "
                            + root.resolve("logs"));
                }
            }
        }

        private String progressLine(OutcomeCounter counter, List<ProviderSimulator> sims, int expected, long elapsedMs) {
            long calls = 0;
            long http429 = 0;
            for (ProviderSimulator s : sims) {
                SimulatorStats st = s.stats();
                calls += st.totalRequests();
                http429 += st.http429();
            }
            String state = victim < 0 ? "kill due at " + Math.round(KILL_AT_SHARE * 100) + " % accounted for"
                    : String.format(Locale.ROOT, "%s killed %.1f s ago", label(victim), (System.currentTimeMillis() - killMs) / 1000.0);
            return String.format(Locale.ROOT, "[failover %s] %6.1f s  classified %d/%d  dead-lettered %d  calls %d  429s %d  %s",
                    variant.name(), elapsedMs / 1000.0, counter.classified(), expected, counter.deadLettered(), calls, http429, state);
        }

        private void checkAlive() {
            for (int i = 0; i < INSTANCES; i++) {
                ChildProcess c = instances.get(i);
                if (i == victim && !variant.restart()) {
                    continue;
                }
                if (!c.alive()) {
                    throw new IllegalStateException(c.name() + " exited unexpectedly with code " + c.exitCode() + "; " + c.log() + ":\n"
                            + c.lastLines(30));
                }
            }
        }

        private void kill() {
            Map<Integer, String> now = byScope(latestOwners());
            String busiest = FailoverFigures.busiest(new FailoverFigures.OwnerSnapshot(System.currentTimeMillis(), now));
            if (busiest == null) {
                throw new IllegalStateException("the group's task ownership is unknown; cannot choose the instance to kill");
            }
            victim = labels.indexOf(busiest);
            ChildProcess c = instances.get(victim);
            killMs = System.currentTimeMillis();
            c.kill();
            List<String> scopes = now.entrySet().stream().filter(e -> e.getValue().equals(busiest)).map(e -> route(e.getKey())).toList();
            listener.phase(variant, "SIGKILL " + busiest + " (pid " + c.pid() + "), owner of scopes " + scopes
                    + (variant.restart() ? "; restarting it at once" : "; it stays dead"));
            if (variant.restart()) {
                instances.set(victim, spawn(victim));
            }
        }

        /** The latest non-empty ownership snapshot; asks the broker (for up to 10 s) when there is none yet. */
        private Map<Integer, String> latestOwners() {
            for (int i = owners.size() - 1; i >= 0; i--) {
                if (!owners.get(i).owners().isEmpty()) {
                    return owners.get(i).owners();
                }
            }
            try (Admin admin = KafkaClients.admin(bootstrap, Map.of())) {
                long deadline = System.currentTimeMillis() + 10_000;
                while (System.currentTimeMillis() < deadline) {
                    Map<Integer, String> m = GroupOwnership.describe(admin, APPLICATION_ID, variant.streamsProtocol(), labels);
                    if (!m.isEmpty()) {
                        return m;
                    }
                    sleepQuietly(200);
                }
            }
            return Map.of();
        }

        private FailoverResult result(OutcomeCounter counter, List<ProviderSimulator> sims, List<GeneratedTicket> tickets, long start,
                                      long lastOutcome, String loadAtStart) {
            List<FailoverFigures.Quota> quotas = new ArrayList<>();
            long calls = 0;
            long http429 = 0;
            for (ProviderSimulator s : sims) {
                SimulatorStats st = s.stats();
                quotas.add(new FailoverFigures.Quota(st.tpmLimit(), st.startLevel() * st.tokenCapacity()));
                calls += st.totalRequests();
                http429 += st.http429();
            }
            String victimLabel = label(victim);
            List<FailoverFigures.OwnerSnapshot> byScope = owners.stream()
                    .map(o -> new FailoverFigures.OwnerSnapshot(o.epochMs(), byScope(o.owners()))).toList();
            FailoverFigures figures = FailoverFigures.compute(timelines, quotas, killMs, victimLabel, byScope);
            Set<String> accounted = new HashSet<>(counter.classifiedIds());
            accounted.addAll(counter.deadLetters().keySet());
            // results and dead letters are keyed as TicketKey says; one the intake refused keeps the key it was published under
            long lost = tickets.stream().filter(t -> !accounted.contains(io.quotaflow.records.TicketKey.key(t.tenant(), t.id()))
                    && !accounted.contains(t.id())).count();
            notes.add("1-min load average " + loadAtStart + " at the start, " + loadAverage() + " at the end (2 cores)");
            return new FailoverResult(variant.name(), variant.description(), settings(), tickets.size(), victimLabel,
                    figures.victimScopes().stream().map(FailoverRunner::route).toList(), figures,
                    restartRunningMs == null ? null : restartRunningMs / 1000.0, http429, calls, counter.classified(),
                    counter.deadLettered(), lost, counter.duplicates(), lastOutcome - start, root.resolve("logs").toString(), notes,
                    FullRateFigures.compute(timelines, quotas, figures));
        }

        /** Who owns each scope, from who owns each dispatch partition. */
        private Map<Integer, String> byScope(Map<Integer, String> byPartition) {
            Map<Integer, String> out = new TreeMap<>();
            for (int i = 0; i < partitions.size(); i++) {
                String owner = byPartition.get(partitions.get(i));
                if (owner != null) {
                    out.put(i, owner);
                }
            }
            return out;
        }

        private String settings() {
            List<String> parts = new ArrayList<>();
            parts.add("instance.id=" + variant.instanceId());
            new TreeMap<>(variant.kafka()).forEach((k, v) -> parts.add("kafka." + k + "=" + v));
            new TreeMap<>(variant.broker()).forEach((k, v) -> parts.add("broker " + k + "=" + v));
            return String.join(", ", parts);
        }

        private void publish(TicketPublisher publisher, List<GeneratedTicket> tickets) {
            PublishSummary summary = publisher.publish(new ByteArrayInputStream(TicketGenerator.jsonLines(tickets)), Optional.empty(),
                    false, p -> { }, issue -> { });
            if (!summary.succeeded() || summary.acknowledged() != tickets.size()) {
                throw new IllegalStateException("publishing failed: " + summary.describe());
            }
        }
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Anything arriving late would be a duplicate: gives it a moment to show up. */
    private static void awaitLateDuplicates(OutcomeCounter counter) {
        long quietUntil = System.currentTimeMillis() + 1_500;
        while (System.currentTimeMillis() < quietUntil) {
            counter.poll(Duration.ofMillis(250));
        }
    }
}

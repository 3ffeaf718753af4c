package io.quotaflow.bench;

import io.quotaflow.admin.KafkaClients;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorStats;
import io.quotaflow.testkit.OutcomeCounter;
import org.apache.kafka.clients.admin.Admin;

import java.io.ByteArrayInputStream;
import java.io.IOException;
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
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static io.quotaflow.bench.FailoverRunner.API_KEY_ENV;
import static io.quotaflow.bench.FailoverRunner.APPLICATION_ID;
import static io.quotaflow.bench.FailoverRunner.INSTANCES;
import static io.quotaflow.bench.FailoverRunner.KILL_AT_SHARE;
import static io.quotaflow.bench.FailoverRunner.OWNERSHIP_MS;
import static io.quotaflow.bench.FailoverRunner.SAMPLE_MS;
import static io.quotaflow.bench.FailoverRunner.SCOPES;
import static io.quotaflow.bench.FailoverRunner.instanceConfig;
import static io.quotaflow.bench.FailoverRunner.label;
import static io.quotaflow.bench.FailoverRunner.loadAverage;
import static io.quotaflow.bench.FailoverRunner.route;
import static io.quotaflow.bench.FailoverRunner.scopePartitions;
import static io.quotaflow.bench.FailoverRunner.tickets;

/** One run of {@link FailoverRunner}'s scenario: its instances, samplers, kill and restart, and its figures. */
final class FailoverRun {
    private final FailoverRunner.Options options;
    private final FailoverRunner.Listener listener;
    private final HttpClient http;
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

    FailoverRun(FailoverRunner.Options options, FailoverRunner.Listener listener, HttpClient http, FailoverVariant variant, Path root,
                String bootstrap, List<String> baseUrls, String apiKey, List<ChildProcess> children) {
        this.options = options;
        this.listener = listener;
        this.http = http;
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
                FullRateFigures.compute(timelines, quotas, figures, variant.limitsSet()));
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

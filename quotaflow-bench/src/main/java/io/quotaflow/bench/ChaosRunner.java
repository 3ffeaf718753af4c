package io.quotaflow.bench;

import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.demo.TempDirs;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.simulator.SimulatorStats;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import org.apache.kafka.clients.admin.Admin;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

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

    private ChaosChildren children;
    private String bootstrap;
    private String simBaseUrl;
    private Scenario scenario;

    public ChaosRunner(Options options, Listener listener) {
        this.options = Objects.requireNonNull(options, "options");
        this.listener = listener == null ? new Listener() { } : listener;
    }

    /** Runs the scenario: blocks until every ticket is accounted for or the time-out, then reports. */
    public ChaosResult run(Scenario scenario) {
        this.scenario = Objects.requireNonNull(scenario, "scenario");
        Thread hook = new Thread(() -> {
            if (children != null) {
                children.destroyAll();
            }
        }, "quotaflow-chaos-children");
        Runtime.getRuntime().addShutdownHook(hook);
        Path root = null;
        boolean passed = false;
        try {
            root = Files.createTempDirectory("quotaflow-chaos-");
            String apiKey = "sk-chaos-" + UUID.randomUUID();
            children = new ChaosChildren(options, listener, scenario, root, apiKey);
            bootstrap = children.bootstrap();
            listener.phase("child process logs in " + children.logDir());

            children.startBrokerAndWait();
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
            if (children != null) {
                children.stopAll();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
            if (passed && root != null) {
                // the logs stay for reading; the data is only bulk
                TempDirs.deleteQuietly(root.resolve("kafka"));
                TempDirs.deleteQuietly(root.resolve("state"));
            }
        }
    }

    private ChaosResult runWithSimulator(ProviderSimulator sim) throws InterruptedException {
        int n = scenario.tickets();
        List<GeneratedTicket> tickets = new TicketGenerator(options.seed()).generate(n);
        ChaosPlan plan = ChaosPlan.standard(n);
        listener.phase("plan: " + plan.describe());

        long coldStart = System.currentTimeMillis();
        children.startPipeline(simBaseUrl);
        Long coldStartMs = children.awaitRunning(Duration.ofSeconds(180), coldStart);
        listener.phase("pipeline (pid " + children.pipeline().pid() + ") streams RUNNING " + ChaosResult.seconds(coldStartMs) + " after start");

        Drive drive = new Drive(n);
        try (ChaosTracker tracker = new ChaosTracker(bootstrap);
             TicketPublisher publisher = new TicketPublisher(bootstrap, Map.of())) {
            drive.start = System.currentTimeMillis();
            drive.lastOutcome = drive.start;
            drive.nextProgress = drive.start;
            long deadline = drive.start + options.timeout().toMillis();
            while (true) {
                long before = tracker.accounted();
                tracker.poll(Duration.ofMillis(100));
                long now = System.currentTimeMillis();
                if (tracker.accounted() > before) {
                    drive.lastOutcome = now;
                }
                children.checkChildren(drive.pending);
                if (drive.pending != null) {
                    awaitRecovery(drive, now, tracker);
                } else {
                    children.pollStatusIfDue(now, 1_000);
                    nextStep(drive, plan, tickets, publisher, tracker, now);
                }
                if (drive.pending == null && tracker.accounted() >= n && drive.published >= n) {
                    // whatever is left of the plan can only be kills, with nothing in flight to lose
                    break;
                }
                if (now > deadline) {
                    timeOut(drive, tracker);
                    break;
                }
                progressIfDue(drive, sim, tracker, now);
            }
            drive.notPerformed.addAll(notPerformed(plan.steps(), drive.stepsDone));
        }
        return result(sim, plan, tickets, drive, coldStartMs);
    }

    /** The state of the wave-and-kill loop. */
    private static final class Drive {
        final int tickets;
        final List<ChaosResult.Disruption> disruptions = new ArrayList<>();
        final List<String> notPerformed = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        boolean timedOut;
        long start;
        long lastOutcome;
        long nextProgress;
        int published;
        int stepsDone;
        ChaosRecovery pending;

        Drive(int tickets) {
            this.tickets = tickets;
        }
    }

    private void awaitRecovery(Drive drive, long now, ChaosTracker tracker) {
        drive.pending.advance(now, tracker);
        if (drive.pending.complete(now, tracker.accounted() >= drive.tickets)) {
            ChaosResult.Disruption d = drive.pending.toDisruption();
            drive.disruptions.add(d);
            listener.phase("kill #" + d.index() + " recovered: " + d.describe(drive.tickets));
            drive.pending = null;
        }
    }

    private void nextStep(Drive drive, ChaosPlan plan, List<GeneratedTicket> tickets, TicketPublisher publisher, ChaosTracker tracker,
                          long now) {
        Optional<ChaosPlan.Step> due = plan.due(drive.stepsDone, tracker.accounted());
        if (due.isEmpty()) {
            return;
        }
        drive.stepsDone++;
        if (due.get() instanceof ChaosPlan.Wave wave) {
            publish(publisher, tickets.subList(wave.from(), wave.to()), wave);
            drive.published += wave.size();
        } else {
            ChaosPlan.Kill kill = (ChaosPlan.Kill) due.get();
            drive.pending = kill(kill, now - drive.start, tracker, drive.published);
        }
    }

    private void timeOut(Drive drive, ChaosTracker tracker) {
        drive.timedOut = true;
        drive.notes.add("timed out after " + options.timeout().toMinutes() + " min with " + tracker.accounted() + " of " + drive.tickets
                + " tickets accounted for" + (drive.pending == null ? "" : " while waiting for kill #" + drive.pending.kill.index()
                + " to recover"));
        if (drive.pending != null) {
            drive.disruptions.add(drive.pending.toDisruption());
        }
    }

    private void progressIfDue(Drive drive, ProviderSimulator sim, ChaosTracker tracker, long now) {
        if (now < drive.nextProgress) {
            return;
        }
        SimulatorStats s = sim.stats();
        listener.progress(new Progress(now - drive.start, drive.published, drive.tickets, tracker.classified(), tracker.deadLettered(),
                s.totalRequests(), s.http429(),
                drive.pending == null ? "streams " + children.lastStreamsState() : drive.pending.waitingFor(now)));
        drive.nextProgress = now + options.progressInterval().toMillis();
    }

    private static List<String> notPerformed(List<ChaosPlan.Step> steps, int stepsDone) {
        List<String> out = new ArrayList<>();
        for (int i = stepsDone; i < steps.size(); i++) {
            if (steps.get(i) instanceof ChaosPlan.Kill k) {
                out.add("#" + k.index() + " " + k.target().label() + " SIGKILL at " + Math.round(k.atShare() * 100)
                        + " % (every ticket was accounted for first)");
            }
        }
        return out;
    }

    private ChaosResult result(ProviderSimulator sim, ChaosPlan plan, List<GeneratedTicket> tickets, Drive drive, Long coldStartMs) {
        long wallTimeMs = drive.lastOutcome - drive.start;
        listener.phase("stopping the pipeline (SIGTERM), then reading every result and dead letter (read_committed)");
        children.pipeline().stop(Duration.ofSeconds(60));
        ChaosFinalRead all = ChaosFinalRead.read(bootstrap);
        int published = drive.published;
        ChaosAccounting accounting = ChaosAccounting.of(tickets.subList(0, published).stream()
                        .map(t -> io.quotaflow.records.TicketKey.key(t.tenant(), t.id())).toList(),
                all.resultKeys(), all.deadLetters());
        List<String> notes = drive.notes;
        if (accounting.unexpected() > 0) {
            notes.add(accounting.unexpected() + " ids in the output topics were never published");
        }
        if (published < drive.tickets) {
            notes.add("only " + published + " of " + drive.tickets + " tickets were published before the run ended");
        }
        double[] accuracy = all.accuracy(tickets);
        SimulatorStats stats = sim.stats();
        return new ChaosResult(scenario.key(), scenario.name(), scenario.description(), scenario.rpm(), scenario.tpm(),
                scenario.simBurstSeconds(), plan.describe(), accounting, stats.totalRequests(), stats.http429(),
                stats.requestsAdmitted(), stats.promptTokens(), stats.completionTokens(), stats.tokensAdmitted(),
                Double.isNaN(accuracy[0]) ? null : accuracy[0], Double.isNaN(accuracy[1]) ? null : accuracy[1], wallTimeMs,
                drive.timedOut, coldStartMs, drive.disruptions, drive.notPerformed, children.logDir().toString(), notes);
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

    private ChaosRecovery kill(ChaosPlan.Kill kill, long atMs, ChaosTracker tracker, long published) {
        ChaosRecovery r = new ChaosRecovery(kill, atMs, tracker.accounted(), published, children, listener);
        if (kill.target() == ChaosPlan.Target.PIPELINE) {
            long pid = children.pipeline().pid();
            r.killedAt = System.currentTimeMillis();
            children.pipeline().kill();
            children.startPipeline(simBaseUrl);
            r.restarted(System.currentTimeMillis());
            // taken after the spawn so as not to delay it: a new JVM needs seconds before it can commit anything
            r.snapshot = tracker.endOffsets();
            // new = committed after the kill and classified by the new process
            tracker.watch(r.snapshot, r.restartedAt, r.restartedAt);
            listener.phase(String.format(Locale.ROOT, "kill #%d: SIGKILL pipeline pid %d at %d %% (%,d accounted for, %,d in flight); "
                            + "restarted as pid %d (%s)", kill.index(), pid, Math.round(kill.atShare() * 100), r.accountedAtKill,
                    published - r.accountedAtKill, children.pipeline().pid(), children.pipeline().log().getFileName()));
        } else {
            r.snapshot = tracker.endOffsets();
            tracker.watch(r.snapshot, Long.MAX_VALUE, Long.MIN_VALUE); // nothing counts until the restart
            long pid = children.broker().pid();
            r.killedAt = System.currentTimeMillis();
            children.broker().kill();
            r.restartDueAt = System.currentTimeMillis() + options.brokerDownTime().toMillis();
            listener.phase(String.format(Locale.ROOT, "kill #%d: SIGKILL broker pid %d at %d %% (%,d accounted for, %,d in flight); "
                            + "restart in %s", kill.index(), pid, Math.round(kill.atShare() * 100), r.accountedAtKill,
                    published - r.accountedAtKill, ChaosResult.seconds(options.brokerDownTime().toMillis())));
        }
        return r;
    }

    /** The arguments of every start of the pipeline: the same each time. */
    static List<String> pipelineArgs(String bootstrap, String baseUrl, Scenario scenario, Path stateDir, int httpPort) {
        return List.of("run", "--bootstrap-servers", bootstrap, "--llm-base-url", baseUrl, "--rpm", Long.toString(scenario.rpm()),
                "--tpm", Long.toString(scenario.tpm()), "--state-dir", stateDir.toString(), "--http-port", Integer.toString(httpPort),
                "--application-id", APPLICATION_ID);
    }
}

package io.quotaflow.demo;

import io.quotaflow.simulator.Faults;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.dlq.DeadLetterReplayer;
import io.quotaflow.dlq.ReplayOptions;
import io.quotaflow.dlq.ReplaySummary;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.testkit.DemoDataset;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.simulator.SimulatorStats;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.Prices;
import org.apache.kafka.clients.admin.Admin;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import io.quotaflow.testkit.OutcomeCounter;

/**
 * Broker + simulator + pipeline in one JVM: publishes the bundled tickets, waits until every one
 * is classified or dead-lettered, and reports what the provider saw.
 */
public final class DemoRun {

    /**
     * @param tickets          how many records to publish (0: the bundled set once; beyond its size it repeats with fresh ids)
     * @param rpm              the simulator's (and the limiter's) requests per minute
     * @param tpm              tokens per minute
     * @param simBurstSeconds  the simulator's bucket capacity in seconds
     * @param timeout          give up after this long
     * @param tickerInterval   how often to call the progress consumer
     */
    public record Options(int tickets, long rpm, long tpm, double simBurstSeconds, Duration timeout, Duration tickerInterval,
                          Scenario scenario) {

        public Options(int tickets, long rpm, long tpm, double simBurstSeconds, Duration timeout, Duration tickerInterval) {
            this(tickets, rpm, tpm, simBurstSeconds, timeout, tickerInterval, Scenario.STEADY);
        }

        public static Options ofDefaults() {
            return new Options(0, 200, 45_000, 5, Duration.ofMinutes(15), Duration.ofMillis(500), Scenario.STEADY);
        }
    }

    /** What the demo shows. */
    public enum Scenario {
        /** The limiter binding on a healthy provider. */
        STEADY,
        /**
         * A provider outage longer than the retry budget: tickets go to the retry topic, the circuit
         * opens, the budget runs out and they are dead-lettered; when the provider is back the
         * dead letters are replayed and every valid ticket ends classified exactly once.
         */
        OUTAGE
    }

    /** The outage scenario's interactive deadline: shorter than its retry budget, so they are handed off first. */
    static final Duration OUTAGE_DEADLINE = Duration.ofSeconds(10);
    /** The outage scenario's cache TTL: short, so the repeats it sends during the outage find only expired answers. */
    static final Duration OUTAGE_CACHE_TTL = Duration.ofSeconds(2);
    /** Tickets the outage scenario sends again (new ids, same text) while the route is down. */
    static final int OUTAGE_REPEATS = 10;
    /**
     * Interactive tickets that arrive while the route is down (new ids, new text): the outage begins once the bundled
     * interactive ones are answered, so these are the ones handed off.
     */
    static final int OUTAGE_INTERACTIVE = 5;

    /** {@code config} with the outage scenario's deadline and cache: interactive tickets due 10 s after intake, answers fresh 2 s. */
    static QuotaflowConfig outage(QuotaflowConfig config) {
        DispatcherSettings d = config.dispatcher();
        io.quotaflow.settings.Routing r = d.routing();
        DispatcherSettings changed = d.withDeadlines(io.quotaflow.settings.DeadlineSettings.DEFAULTS
                        .withDefaults(Map.of(io.quotaflow.records.Priority.INTERACTIVE, OUTAGE_DEADLINE)))
                .withRouting(new io.quotaflow.settings.Routing(r.routes(), r.defaultRoute(), r.byPriority(), r.byTenant(), r.maxWait(),
                        OUTAGE_CACHE_TTL, r.cacheShared(), r.cacheStaleTtl()));
        return new QuotaflowConfig(config.bootstrapServers(), config.applicationId(), config.stateDir(), config.httpPort(),
                config.kafka(), changed);
    }

    /** Retry budget of the outage scenario: short, so the demo shows it running out. */
    static final RetrySettings OUTAGE_RETRY = RetrySettings.ofDefaults().withBase(Duration.ofMillis(500)).withCap(Duration.ofSeconds(4))
            .withMaxAttempts(50).withMaxAge(Duration.ofSeconds(20)).withCircuitOpenWait(Duration.ofSeconds(5));

    /** A progress sample for the live line. */
    public record Progress(long elapsedMs, long expected, long classified, long deadLettered, long calls, long http429,
                           long tokensAdmitted, String state, long retried, String queues) {

        public Progress(long elapsedMs, long expected, long classified, long deadLettered, long calls, long http429,
                        long tokensAdmitted, String state, long retried) {
            this(elapsedMs, expected, classified, deadLettered, calls, http429, tokensAdmitted, state, retried, "");
        }

        /** The live line: {@link #line} with the retries, tokens admitted, route state and queues as the detail. */
        public String line() {
            return DemoRun.line(elapsedMs, classified, expected, deadLettered, calls, http429, String.format(java.util.Locale.ROOT,
                    "retried %d tok %,d %s", retried, tokensAdmitted, state) + (queues.isEmpty() ? "" : " " + queues));
        }
    }

    /**
     * Every scenario's progress line, one format: {@code 12.5s done 120/521 dlq 2 calls 30 429s 0 DETAIL}, where
     * {@code of} is every record the scenario publishes (what is published later included).
     */
    public static String line(long elapsedMs, long done, long of, long deadLettered, long calls, long http429, String detail) {
        return String.format(java.util.Locale.ROOT, "%5.1fs done %d/%d dlq %d calls %d 429s %d%s", elapsedMs / 1000.0, done, of,
                deadLettered, calls, http429, detail.isEmpty() ? "" : " " + detail);
    }

    /**
     * Per priority, what waits at it and above and when that is expected to be done (the tail ETA of
     * {@code /status}), e.g. {@code queued i 0 · s 40 ~25 s · b 310 ~2 min}.
     */
    static String queues(Pipeline pipeline, long now) {
        StringBuilder out = new StringBuilder("queued");
        for (io.quotaflow.status.QueueView view : pipeline.metrics().tickets().views()) {
            for (io.quotaflow.records.Priority p : io.quotaflow.records.Priority.values()) {
                int waiting = view.tail(p).tickets();
                out.append(' ').append(p.wireName().charAt(0)).append(' ').append(waiting);
                if (waiting > 0) {
                    long left = Math.max(0, view.tailEta(p, now).doneAt() - now) / 1000;
                    out.append(" ~").append(left < 120 ? left + " s" : left / 60 + " min");
                }
            }
        }
        return out.length() == "queued".length() ? "" : out.toString();
    }

    private DemoRun() {
    }

    public static DemoReport run(Options options, Consumer<Progress> progress, PrintStream log) {
        Path stateDir;
        try {
            stateDir = Files.createTempDirectory("quotaflow-demo-state");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String apiKey = "sk-demo-" + UUID.randomUUID();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            log.println("Kafka broker (KRaft, in-process) at " + broker.bootstrapServers());
            try (Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
                TopicsApplier.bundled().apply(admin).forEach(line -> log.println("  topics: " + line));
            }
            SimulatorConfig simConfig = SimulatorConfig.builder().port(0).rpm(options.rpm()).tpm(options.tpm())
                    .burstSeconds(options.simBurstSeconds()).apiKeys(java.util.Set.of(apiKey)).build();
            try (ProviderSimulator sim = ProviderSimulator.start(simConfig)) {
                log.println("Provider simulator at " + sim.baseUrl() + " (" + options.rpm() + " RPM, " + options.tpm() + " TPM, burst "
                        + options.simBurstSeconds() + " s)");
                QuotaflowConfig config = new QuotaflowConfig(broker.bootstrapServers(), "quotaflow-demo", stateDir, -1, Map.of(),
                        AssumedPrices.priced(DispatcherSettings.builder(
                                ModelSettings.of(URI.create(sim.baseUrl()), simConfig.model(), Secret.of(apiKey)),
                                QuotaSettings.ofDefaults().withRpm((int) options.rpm()).withTpm((int) options.tpm()),
                                BatchSettings.ofDefaults(),
                                options.scenario() == Scenario.OUTAGE ? OUTAGE_RETRY : RetrySettings.ofDefaults()).build(),
                                Prices.ASSUMED_GPT_4O_MINI));
                if (options.scenario() == Scenario.OUTAGE) {
                    config = outage(config);
                }
                try (Pipeline pipeline = Pipeline.start(config)) {
                    if (!pipeline.awaitRunning(Duration.ofSeconds(60))) {
                        throw new IllegalStateException("the pipeline did not start: " + pipeline.streams().state());
                    }
                    return publishAndWait(options, broker, sim, pipeline, progress, log);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        } finally {
            TempDirs.deleteQuietly(stateDir);
        }
    }

    private static DemoReport publishAndWait(Options options, EmbeddedKafkaBroker broker, ProviderSimulator sim, Pipeline pipeline,
                                             Consumer<Progress> progress, PrintStream log) throws InterruptedException {
        byte[] lines = DemoDataset.lines(options.tickets());
        long start = System.currentTimeMillis();
        PublishSummary summary;
        try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of())) {
            summary = publisher.publish(new ByteArrayInputStream(lines), Optional.empty(), true, p -> { }, issue -> { });
        }
        log.println(summary.describe());
        if (!summary.succeeded()) {
            throw new IllegalStateException("publishing failed: " + summary.firstError());
        }
        long expected = summary.acknowledged();
        try (OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of())) {
            long deadline = System.currentTimeMillis() + options.timeout().toMillis();
            // the denominator counts what the outage scenario publishes later too, so it does not jump
            long later = options.scenario() == Scenario.OUTAGE ? OUTAGE_INTERACTIVE + OUTAGE_REPEATS : 0;
            Ticker ticker = new Ticker(options, start, expected + later, counter, sim, pipeline, progress);
            long replayed = 0;
            long repeats = 0;
            if (options.scenario() == Scenario.OUTAGE) {
                // let the pipeline work for a while, then take the provider down; the dataset's interactive tickets first:
                // one still out when the outage begins would be handed off too, beside those that arrive during it
                java.util.Set<String> interactive = OutageTickets.interactiveKeys(lines);
                waitUntil(ticker, deadline, () -> counter.classified() >= expected / 5 && counter.accountedFor(interactive) >= interactive.size());
                sim.setFaults(Faults.builder().p503(1.0).build());
                log.printf("%n>>> OUTAGE: the provider now answers 503 to everything; tickets go to tickets.retry, the circuit opens,"
                        + " interactive tickets are handed off before their %d s deadline, the others are dead-lettered after their"
                        + " %d s budget%n", OUTAGE_DEADLINE.toSeconds(), OUTAGE_RETRY.maxAge().toSeconds());
                long arrived = OutageTickets.publishInteractive(broker, lines, log);
                ticker.expected = expected + arrived + OUTAGE_REPEATS;
                waitUntil(ticker, deadline, () -> pipeline.metrics().snapshots().stream().anyMatch(s -> "CIRCUIT_OPEN".equals(s.state())));
                // every answer given before the outage has expired by now: the repeats find stale ones only
                long expired = System.currentTimeMillis() + OUTAGE_CACHE_TTL.toMillis() + 500;
                waitUntil(ticker, deadline, () -> System.currentTimeMillis() >= expired);
                repeats = arrived + OutageTickets.publishRepeats(broker, lines, counter.classifiedIds(), log);
                long all = expected + repeats;
                ticker.expected = all;
                waitUntil(ticker, deadline, () -> (long) counter.classified() + counter.deadLettered() + counter.handedOff() >= all);
                sim.setFaults(Faults.none());
                log.printf("%n>>> the provider is back; dead letters by kind: %s%n>>> replaying kind retries-exhausted"
                        + " (quotaflow dlq replay --kind retries-exhausted)%n", counter.deadLettersByKind());
                ReplaySummary replay = new DeadLetterReplayer(broker.bootstrapServers(), Map.of(),
                        ReplayOptions.builder().kinds(ErrorKind.RETRIES_EXHAUSTED.wire()).ratePerSecond(0).build()).run();
                replayed = replay.replayed();
                log.printf(">>> replayed %d dead letters to their origin topics%n", replayed);
                long outageLetters = counter.deadLettersByKind().getOrDefault(ErrorKind.RETRIES_EXHAUSTED.wire(), 0L);
                waitUntil(ticker, deadline, () -> (long) counter.classified() + counter.deadLettered() + counter.handedOff()
                        - outageLetters >= all);
            } else {
                waitUntil(ticker, deadline, () -> (long) counter.classified() + counter.deadLettered() >= expected);
            }
            long elapsed = System.currentTimeMillis() - start;
            // a last look for duplicates that a late commit could reveal
            counter.poll(Duration.ofMillis(500));
            ticker.tick(true);
            SimulatorStats stats = sim.stats();
            DemoReport report = report(summary.acknowledged() + repeats, counter, stats, elapsed, options)
                    .withCost(pipeline.metrics().costUsd(), Prices.ASSUMED_GPT_4O_MINI);
            return options.scenario() == Scenario.OUTAGE ? report.withOutage(pipeline.metrics().retriedCount(), replayed,
                    stats.requestsWithStatus(503), counter.handedOff(), OutageTickets.staleAnswers(counter)) : report;
        }
    }

    private static void waitUntil(Ticker ticker, long deadline, java.util.function.BooleanSupplier done) {
        while (true) {
            ticker.counter.poll(Duration.ofMillis(100));
            boolean finished = done.getAsBoolean();
            ticker.tick(finished);
            if (finished) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("timed out with " + ticker.counter.classified() + " classified and "
                        + ticker.counter.deadLettered() + " dead-lettered of " + ticker.expected);
            }
        }
    }

    /** Samples progress at the configured interval. */
    private static final class Ticker {
        final Options options;
        final long start;
        long expected;
        final OutcomeCounter counter;
        final ProviderSimulator sim;
        final Pipeline pipeline;
        final Consumer<Progress> progress;
        long next;

        Ticker(Options options, long start, long expected, OutcomeCounter counter, ProviderSimulator sim, Pipeline pipeline,
               Consumer<Progress> progress) {
            this.options = options;
            this.start = start;
            this.expected = expected;
            this.counter = counter;
            this.sim = sim;
            this.pipeline = pipeline;
            this.progress = progress;
        }

        void tick(boolean force) {
            long now = System.currentTimeMillis();
            if (!force && now < next) {
                return;
            }
            next = now + options.tickerInterval().toMillis();
            SimulatorStats stats = sim.stats();
            String state = pipeline.metrics().snapshots().stream().map(s -> s.state()).findFirst().orElse("STARTING");
            progress.accept(new Progress(now - start, expected, counter.classified(), counter.deadLettered(),
                    stats.totalRequests(), stats.http429(), stats.tokensAdmitted(), state, pipeline.metrics().retriedCount(),
                    queues(pipeline, now)));
        }
    }

    /** The report of a run in which {@code tickets} records were published (the outage's repeats included). */
    static DemoReport report(long tickets, OutcomeCounter counter, SimulatorStats stats, long elapsed, Options options) {
        List<SimulatorStats.Second> seconds = stats.perSecond();
        double utilization = 0;
        String binding = "TPM";
        if (!seconds.isEmpty()) {
            long from = seconds.get(0).epochSecond();
            long to = seconds.get(seconds.size() - 1).epochSecond();
            // the busy span: first admission to the second before the last (partial seconds excluded)
            if (to - from >= 2) {
                double minutes = (to - from) / 60.0;
                double tpmUse = stats.tokensAdmittedBetween(from, to) / (options.tpm() * minutes);
                double rpmUse = stats.requestsAdmittedBetween(from, to) / (options.rpm() * minutes);
                binding = rpmUse > tpmUse ? "RPM" : "TPM";
                utilization = Math.max(tpmUse, rpmUse);
            }
        }
        return new DemoReport(tickets, counter.classified(), counter.deadLettered(), counter.duplicates(),
                stats.totalRequests(), stats.http429(), stats.promptTokens(), stats.completionTokens(), stats.tokensAdmitted(),
                elapsed, utilization, binding, counter.deadLettersByKind(), options.rpm(), options.tpm());
    }

}

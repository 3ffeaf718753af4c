package io.quotaflow.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.testkit.DemoDataset;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RecordLimits;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.simulator.Faults;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.records.Json;
import org.apache.kafka.clients.admin.Admin;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import io.quotaflow.testkit.OutcomeCounter;

/**
 * {@code demo --scenario fallback}: three providers (three simulators) behind three routes. The
 * primary (an 8 k context window) goes down mid-run: its waiting tickets move to the backup and,
 * once it is back and its circuit closes, new tickets use it again; a ticket too large for the
 * primary goes to the long-context route; copies of answered tickets are served from the cache.
 */
public final class FallbackDemo {

    /** Short circuit wait so the primary is found back within seconds of its return. */
    static final RetrySettings RETRY = RetrySettings.ofDefaults().withMaxAge(Duration.ofMinutes(10)).withCircuitOpenWait(Duration.ofSeconds(5));

    private FallbackDemo() {
    }

    /** Runs the scenario; {@code progress} gets a line now and then. */
    public static FallbackReport run(DemoRun.Options options, Consumer<String> progress, PrintStream log) {
        Path stateDir;
        try {
            stateDir = Files.createTempDirectory("quotaflow-demo-state");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            log.println("Kafka broker (KRaft, in-process) at " + broker.bootstrapServers());
            try (Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
                TopicsApplier.bundled().apply(admin).forEach(line -> log.println("  topics: " + line));
            }
            Map<String, String> keys = Map.of("primary", "sk-demo-" + UUID.randomUUID(), "backup", "sk-demo-" + UUID.randomUUID(),
                    "long", "sk-demo-" + UUID.randomUUID());
            try (ProviderSimulator primary = sim(options, keys.get("primary"), 8_192);
                 ProviderSimulator backup = sim(options, keys.get("backup"), 128_000);
                 ProviderSimulator longContext = sim(options, keys.get("long"), 200_000)) {
                Map<String, ProviderSimulator> sims = new LinkedHashMap<>();
                sims.put("primary", primary);
                sims.put("backup", backup);
                sims.put("long", longContext);
                sims.forEach((name, s) -> log.printf("route %-8s -> simulator at %s (%d RPM, %d TPM, context %,d)%n", name, s.baseUrl(),
                        options.rpm(), options.tpm(), s.config().contextTokens()));
                QuotaflowConfig config = new QuotaflowConfig(broker.bootstrapServers(), "quotaflow-demo", stateDir, -1, Map.of(),
                        settings(options, sims, keys));
                try (Pipeline pipeline = Pipeline.start(config)) {
                    if (!pipeline.awaitRunning(Duration.ofSeconds(60))) {
                        throw new IllegalStateException("the pipeline did not start: " + pipeline.streams().state());
                    }
                    return play(options, broker, sims, progress, log).withCost(pipeline.metrics().costUsd());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        } finally {
            TempDirs.deleteQuietly(stateDir);
        }
    }

    private static ProviderSimulator sim(DemoRun.Options options, String key, int contextTokens) {
        return ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(options.rpm()).tpm(options.tpm())
                .burstSeconds(options.simBurstSeconds()).apiKeys(Set.of(key)).contextTokens(contextTokens).build());
    }

    static DispatcherSettings settings(DemoRun.Options options, Map<String, ProviderSimulator> sims, Map<String, String> keys) {
        Map<String, RouteSettings> routes = new LinkedHashMap<>();
        sims.forEach((name, s) -> {
            ModelSettings model = ModelSettings.of(URI.create(s.baseUrl()), s.config().model(), Secret.of(keys.get(name)))
                    .withContextTokens(s.config().contextTokens());
            QuotaSettings quota = QuotaSettings.ofDefaults().withRpm((int) options.rpm()).withTpm((int) options.tpm());
            List<String> fallback = name.equals("primary") ? List.of("backup") : List.of();
            String contextFallback = name.equals("long") ? null : "long";
            // the simulator is free: priced as gpt-4o-mini (assumed, and said so in the report)
            routes.put(name, new RouteSettings(name, model, quota, fallback, contextFallback, io.quotaflow.settings.Prices.ASSUMED_GPT_4O_MINI,
                    null, 0, 0));
        });
        Routing routing = new Routing(routes, "primary", Map.of(), Map.of(), Map.of(), Routing.DEFAULT_CACHE_TTL);
        return DispatcherSettings.of(routing, BatchSettings.ofDefaults(), RETRY, RecordLimits.ofDefaults(), TopicNames.DEFAULT);
    }

    private static FallbackReport play(DemoRun.Options options, EmbeddedKafkaBroker broker, Map<String, ProviderSimulator> sims,
                                       Consumer<String> progress, PrintStream log) {
        byte[] lines = withLongTicket(DemoDataset.lines(options.tickets()));
        // half before the outage, half during it: tickets that arrive while the primary is down must move to the
        // backup, however fast the first half went (on a quick machine every ticket of a single publication was
        // already in a call when the primary went down, and nothing fell back)
        int cut = halfway(lines);
        long start = System.currentTimeMillis();
        PublishSummary first = publish(broker, java.util.Arrays.copyOfRange(lines, 0, cut));
        log.println(first.describe());
        ProviderSimulator primary = sims.get("primary");
        ProviderSimulator backup = sims.get("backup");
        try (OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of())) {
            long deadline = System.currentTimeMillis() + options.timeout().toMillis();
            // the denominator is every record the scenario publishes, from the start: the second half and the copies
            // included (counting only what was published so far made it jump at each publication)
            long secondHalf = records(java.util.Arrays.copyOfRange(lines, cut, lines.length));
            Waiter waiter = new Waiter(counter, options, start, first.acknowledged() + secondHalf + COPIES, sims, progress, deadline);
            waiter.until(() -> counter.classified() >= first.acknowledged() / 2);
            primary.setFaults(Faults.builder().p503(1.0).build());
            log.printf("%n>>> the primary is DOWN (503 to everything): its circuit opens and its tickets move to the backup%n");
            PublishSummary second = publish(broker, java.util.Arrays.copyOfRange(lines, cut, lines.length));
            log.println(second.describe());
            long expected = first.acknowledged() + second.acknowledged();
            waiter.expected = expected + COPIES;
            waiter.until(() -> counter.classified() >= expected * 3 / 4 && backup.stats().requestsWithStatus(200) > 0);
            primary.setFaults(Faults.none());
            log.printf("%n>>> the primary is BACK: the ticket it kept as its probe closes its circuit, new tickets use it again%n");
            waiter.until(() -> (long) counter.classified() + counter.deadLettered() >= expected);
            byte[] copies = copies(counter, COPIES);
            PublishSummary again = publish(broker, copies);
            log.printf("%n>>> published %d copies of tickets the primary answered, under new ids: its cache answers them without a call%n",
                    again.acknowledged());
            long total = expected + again.acknowledged();
            waiter.expected = total;
            waiter.until(() -> (long) counter.classified() + counter.deadLettered() >= total);
            counter.poll(Duration.ofMillis(500));
            waiter.tick(true);
            return report(counter, sims, total, System.currentTimeMillis() - start);
        }
    }

    static FallbackReport report(OutcomeCounter counter, Map<String, ProviderSimulator> sims, long tickets, long elapsedMs) {
        Map<String, Long> byRoute = new TreeMap<>();
        Map<String, Long> fallbacks = new TreeMap<>();
        long cached = 0;
        for (byte[] value : counter.results().values()) {
            try {
                JsonNode json = Json.MAPPER.readTree(value);
                byRoute.merge(json.path("route").asText("?"), 1L, Long::sum);
                if (json.hasNonNull("fallbackFrom")) {
                    fallbacks.merge(json.get("fallbackFrom").asText() + " -> " + json.path("route").asText() + " ("
                            + json.path("fallbackReason").asText() + ")", 1L, Long::sum);
                }
                if (json.path("cached").asBoolean(false)) {
                    cached++;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Map<String, Long> calls = new LinkedHashMap<>();
        Map<String, Long> http429 = new LinkedHashMap<>();
        sims.forEach((name, s) -> {
            calls.put(name, s.stats().totalRequests());
            http429.put(name, s.stats().http429());
        });
        return new FallbackReport(tickets, counter.classified(), counter.deadLettered(), counter.duplicates(), byRoute, fallbacks,
                cached, calls, http429, sims.get("primary").stats().requestsWithStatus(503), counter.deadLettersByKind(), elapsedMs);
    }

    /** The bundled tickets and one about 30 k characters long: too large for the primary's 8 k window, not for the long route. */
    /** The offset of the line break nearest the middle of {@code lines} (JSON lines), just after it. */
    /** Copies of answered tickets published at the end, for the cache to answer. */
    static final int COPIES = 20;

    /** The records {@code lines} publishes: its non-blank lines (the publisher sends invalid ones too, to be dead-lettered). */
    static long records(byte[] lines) {
        return new String(lines, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).count();
    }

    static int halfway(byte[] lines) {
        for (int i = lines.length / 2; i < lines.length; i++) {
            if (lines[i] == '\n') {
                return i + 1;
            }
        }
        return lines.length;
    }

    static byte[] withLongTicket(byte[] lines) {
        String body = "Our nightly export fails; the full log follows. " + "step=export status=timeout retry=3 ".repeat(900);
        String ticket = "{\"id\":\"T-LONG-1\",\"subject\":\"Export fails every night (log attached)\",\"body\":\"" + body
                + "\",\"tenant\":\"acme\",\"priority\":\"standard\"}\n";
        byte[] extra = ticket.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[lines.length + extra.length];
        System.arraycopy(lines, 0, out, 0, lines.length);
        System.arraycopy(extra, 0, out, lines.length, extra.length);
        return out;
    }

    /**
     * {@code n} tickets the primary answered, again under new ids with the same text: they go to
     * the primary (the default route), whose cache holds their answers (each route has its own).
     */
    private static byte[] copies(OutcomeCounter counter, int n) {
        StringBuilder out = new StringBuilder();
        int written = 0;
        for (String line : new String(DemoDataset.lines(0), StandardCharsets.UTF_8).split("\n")) {
            try {
                JsonNode node = Json.MAPPER.readTree(line);
                if (written < n && node != null && node.isObject() && node.hasNonNull("id")
                        && answeredBy(counter, io.quotaflow.records.TicketKey.key(node.path("tenant").asText(null),
                                node.get("id").asText()), "primary")) {
                    ((com.fasterxml.jackson.databind.node.ObjectNode) node).put("id", node.get("id").asText() + "-copy");
                    out.append(Json.MAPPER.writeValueAsString(node)).append('\n');
                    written++;
                }
            } catch (IOException e) {
                // the malformed lines of the set
            }
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static boolean answeredBy(OutcomeCounter counter, String id, String route) throws IOException {
        byte[] result = counter.results().get(id);
        return result != null && route.equals(Json.MAPPER.readTree(result).path("route").asText());
    }

    private static PublishSummary publish(EmbeddedKafkaBroker broker, byte[] lines) {
        try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of())) {
            PublishSummary summary = publisher.publish(new ByteArrayInputStream(lines), Optional.empty(), true, p -> { }, issue -> { });
            if (!summary.succeeded()) {
                throw new IllegalStateException("publishing failed: " + summary.firstError());
            }
            return summary;
        }
    }

    /** Polls the outcomes and reports progress until a condition holds. */
    private static final class Waiter {
        final OutcomeCounter counter;
        final DemoRun.Options options;
        final long start;
        long expected;
        final Map<String, ProviderSimulator> sims;
        final Consumer<String> progress;
        final long deadline;
        long next;

        Waiter(OutcomeCounter counter, DemoRun.Options options, long start, long expected, Map<String, ProviderSimulator> sims,
               Consumer<String> progress, long deadline) {
            this.counter = counter;
            this.options = options;
            this.start = start;
            this.expected = expected;
            this.sims = sims;
            this.progress = progress;
            this.deadline = deadline;
        }

        void until(BooleanSupplier done) {
            while (true) {
                counter.poll(Duration.ofMillis(100));
                boolean finished = done.getAsBoolean();
                tick(finished);
                if (finished) {
                    return;
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("timed out with " + counter.classified() + " classified and "
                            + counter.deadLettered() + " dead-lettered of " + expected);
                }
            }
        }

        void tick(boolean force) {
            long now = System.currentTimeMillis();
            if (!force && now < next) {
                return;
            }
            next = now + options.tickerInterval().toMillis();
            StringBuilder byRoute = new StringBuilder("by route");
            long calls = 0;
            long refused = 0;
            for (Map.Entry<String, ProviderSimulator> sim : sims.entrySet()) {
                var stats = sim.getValue().stats();
                byRoute.append(' ').append(sim.getKey()).append(' ').append(stats.totalRequests());
                calls += stats.totalRequests();
                refused += stats.http429();
            }
            progress.accept(DemoRun.line(now - start, counter.classified(), expected, counter.deadLettered(), calls, refused,
                    byRoute.toString()));
        }
    }
}

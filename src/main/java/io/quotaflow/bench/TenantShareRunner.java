package io.quotaflow.bench;

import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.config.BatchSettings;
import io.quotaflow.config.DispatcherSettings;
import io.quotaflow.config.ModelSettings;
import io.quotaflow.config.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.config.RetrySettings;
import io.quotaflow.config.Secret;
import io.quotaflow.config.TenantSettings;
import io.quotaflow.local.broker.EmbeddedKafkaBroker;
import io.quotaflow.local.demo.OutcomeCounter;
import io.quotaflow.local.sim.ProviderSimulator;
import io.quotaflow.local.sim.SimulatorConfig;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.ticket.Priority;
import org.apache.kafka.clients.admin.Admin;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Bench (l), {@code tenant-shares}: two tenants weighted 3:1 each publish {@code ticketsEach} bulk
 * tickets at once into one TPM-bound route; the light tenant's tickets are about three times as
 * long. Measures each one's admitted tokens ({@code quotaflow_tenant_tokens_total}) and classified
 * tickets while both have work ({@link ShareWindow}). A fresh in-process broker and simulator.
 */
public final class TenantShareRunner {

    public static final String HEAVY = "gold";
    public static final String LIGHT = "noisy";
    public static final double HEAVY_WEIGHT = 3;
    public static final double LIGHT_WEIGHT = 1;
    public static final int DEFAULT_TICKETS_EACH = 1_500;
    static final int RPM = 500;
    static final int TPM = 300_000;

    private final long seed;
    private final Duration timeout;
    private final Consumer<String> phase;

    public TenantShareRunner(long seed, Duration timeout, Consumer<String> phase) {
        this.seed = seed;
        this.timeout = timeout;
        this.phase = phase;
    }

    /** The two tenants' tickets, interleaved as one publish: the heavy tenant's as generated, the light one's three times as long. */
    static List<GeneratedTicket> tickets(long seed, int each) {
        List<GeneratedTicket> base = new TicketGenerator(seed, 0).generate(2 * each);
        List<GeneratedTicket> out = new ArrayList<>(2 * each);
        for (int i = 0; i < each; i++) {
            GeneratedTicket h = base.get(2 * i);
            GeneratedTicket l = base.get(2 * i + 1);
            out.add(new GeneratedTicket(HEAVY + "-" + i, HEAVY, Priority.BULK, h.language(), h.subject(), h.body(), h.submittedAt(),
                    h.channel(), h.label()));
            String longer = l.body() + "\n\n" + l.body() + "\n\n" + l.body();
            out.add(new GeneratedTicket(LIGHT + "-" + i, LIGHT, Priority.BULK, l.language(), l.subject(), longer, l.submittedAt(),
                    l.channel(), l.label()));
        }
        return out;
    }

    public TenantShareResult run(int ticketsEach) {
        String apiKey = "sk-bench-" + UUID.randomUUID();
        Path stateDir = null;
        phase.accept("starting Kafka broker (KRaft, in-process)");
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            try (Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
                TopicsApplier.bundled().apply(admin);
            }
            SimulatorConfig simConfig = SimulatorConfig.builder().port(0).rpm(RPM).tpm(TPM).burstSeconds(5)
                    .apiKeys(Set.of(apiKey)).build();
            try (ProviderSimulator sim = ProviderSimulator.start(simConfig)) {
                stateDir = Files.createTempDirectory("quotaflow-bench-state-");
                phase.accept("provider simulator at " + sim.baseUrl() + " (" + RPM + " RPM, " + TPM + " TPM); tenants " + HEAVY
                        + " (weight 3) and " + LIGHT + " (weight 1, tickets three times as long)");
                try (Pipeline pipeline = Pipeline.start(config(broker.bootstrapServers(), stateDir, sim.baseUrl(), simConfig.model(),
                        apiKey))) {
                    if (!pipeline.awaitRunning(Duration.ofSeconds(90))) {
                        throw new IllegalStateException("the pipeline did not start: " + pipeline.streams().state());
                    }
                    return measure(broker, sim, pipeline, ticketsEach);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            if (stateDir != null) {
                deleteQuietly(stateDir);
            }
        }
    }

    static QuotaflowConfig config(String bootstrap, Path stateDir, String baseUrl, String model, String apiKey) {
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(RPM).withTpm(TPM);
        DispatcherSettings dispatcher = new DispatcherSettings(ModelSettings.of(URI.create(baseUrl), model, Secret.of(apiKey)), quota,
                BatchSettings.ofDefaults(), RetrySettings.ofDefaults())
                .withTenants(TenantSettings.builder().weight(HEAVY, HEAVY_WEIGHT).weight(LIGHT, LIGHT_WEIGHT).build());
        return new QuotaflowConfig(bootstrap, BenchmarkRunner.APPLICATION_ID, stateDir, -1, Map.of("num.standby.replicas", "0"),
                dispatcher);
    }

    private TenantShareResult measure(EmbeddedKafkaBroker broker, ProviderSimulator sim, Pipeline pipeline, int each) {
        List<GeneratedTicket> tickets = tickets(seed, each);
        phase.accept("publishing " + tickets.size() + " bulk tickets");
        long start = System.currentTimeMillis();
        try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of());
             OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of())) {
            PublishSummary summary = publisher.publish(new ByteArrayInputStream(TicketGenerator.jsonLines(tickets)),
                    Optional.of(Priority.BULK), false, p -> { }, issue -> { });
            if (!summary.succeeded() || summary.acknowledged() != tickets.size()) {
                throw new IllegalStateException("publishing failed: " + summary.describe());
            }
            phase.accept("published; classifying until one tenant is done");
            ShareWindow window = new ShareWindow(each);
            long deadline = start + timeout.toMillis();
            long nextPhase = start + 10_000;
            while (!window.closed()) {
                counter.poll(Duration.ofMillis(100));
                long now = System.currentTimeMillis();
                long heavy = counter.classifiedIds().stream().filter(id -> id.startsWith(HEAVY + "-")).count();
                long light = counter.classifiedIds().stream().filter(id -> id.startsWith(LIGHT + "-")).count();
                window.add(new ShareWindow.Sample(now - start, pipeline.metrics().tenantTokens(HEAVY),
                        pipeline.metrics().tenantTokens(LIGHT), heavy, light));
                if (now >= nextPhase) {
                    double tokensHeavy = pipeline.metrics().tenantTokens(HEAVY);
                    double tokensLight = pipeline.metrics().tenantTokens(LIGHT);
                    phase.accept(String.format(java.util.Locale.ROOT, "%.0f s: classified %d %s, %d %s; admitted tokens %,.0f : %,.0f",
                            (now - start) / 1000.0, heavy, HEAVY, light, LIGHT, tokensHeavy, tokensLight));
                    nextPhase = now + 10_000;
                }
                if (now > deadline) {
                    throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s");
                }
            }
            ShareWindow.Sample end = window.end();
            return new TenantShareResult(each, HEAVY_WEIGHT, LIGHT_WEIGHT, end.tokensA() / Math.max(1, end.ticketsA()),
                    end.tokensB() / Math.max(1, end.ticketsB()), end.elapsedMs(), end.tokensA(), end.tokensB(), end.ticketsA(),
                    end.ticketsB(), sim.stats().http429(), counter.deadLettered());
        }
    }

    private static void deleteQuietly(Path dir) {
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory
        }
    }
}

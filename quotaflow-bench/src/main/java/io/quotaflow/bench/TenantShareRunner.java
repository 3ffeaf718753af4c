package io.quotaflow.bench;

import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.demo.TempDirs;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.records.Priority;
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
 * Two tenants publishing bulk tickets at once into one TPM-bound route ({@link TenantPlan}): bench
 * (l), {@code tenant-shares}, and {@code demo --scenario tenants}. Measures each one's admitted
 * tokens ({@code quotaflow_tenant_tokens_total}) and classified tickets while both have work
 * ({@link ShareWindow}), and when each is done. A fresh in-process broker and simulator.
 */
public final class TenantShareRunner {

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

    /** The two tenants' tickets, interleaved as one publish; {@code b}'s bodies repeated {@code lengthFactorB} times. */
    static List<GeneratedTicket> tickets(long seed, TenantPlan plan) {
        List<GeneratedTicket> base = new TicketGenerator(seed, 0).generate(plan.ticketsA() + plan.ticketsB());
        List<GeneratedTicket> out = new ArrayList<>(base.size());
        int a = 0;
        int b = 0;
        for (GeneratedTicket t : base) {
            boolean toA = b >= plan.ticketsB() || (a < plan.ticketsA() && (long) a * plan.ticketsB() <= (long) b * plan.ticketsA());
            String tenant = toA ? plan.nameA() : plan.nameB();
            String body = toA ? t.body() : String.join("\n\n", java.util.Collections.nCopies(plan.lengthFactorB(), t.body()));
            out.add(new GeneratedTicket(tenant + "-" + (toA ? a++ : b++), tenant, Priority.BULK, t.language(), t.subject(), body,
                    t.submittedAt(), t.channel(), t.label()));
        }
        return out;
    }

    public TenantShareResult run(TenantPlan plan) {
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
                phase.accept(String.format(java.util.Locale.ROOT, "provider simulator at %s (%d RPM, %d TPM); tenants %s (weight %.0f) "
                        + "and %s (weight %.0f, tickets %d times as long)", sim.baseUrl(), RPM, TPM, plan.nameA(), plan.weightA(),
                        plan.nameB(), plan.weightB(), plan.lengthFactorB()));
                try (Pipeline pipeline = Pipeline.start(config(broker.bootstrapServers(), stateDir, sim.baseUrl(), simConfig.model(),
                        apiKey, plan))) {
                    if (!pipeline.awaitRunning(Duration.ofSeconds(90))) {
                        throw new IllegalStateException("the pipeline did not start: " + pipeline.streams().state());
                    }
                    return measure(broker, sim, pipeline, plan);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            if (stateDir != null) {
                TempDirs.deleteQuietly(stateDir);
            }
        }
    }

    static QuotaflowConfig config(String bootstrap, Path stateDir, String baseUrl, String model, String apiKey, TenantPlan plan) {
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(RPM).withTpm(TPM);
        DispatcherSettings dispatcher = DispatcherSettings.builder(ModelSettings.of(URI.create(baseUrl), model, Secret.of(apiKey)), quota,
                BatchSettings.ofDefaults(), RetrySettings.ofDefaults()).build()
                .withTenants(TenantSettings.builder().weight(plan.nameA(), plan.weightA()).weight(plan.nameB(), plan.weightB()).build());
        // the share is read per tenant name from quotaflow_tenant_tokens_total: names on
        return new QuotaflowConfig(bootstrap, BenchmarkRunner.APPLICATION_ID, stateDir, -1, Map.of("num.standby.replicas", "0"),
                dispatcher).withMetrics(io.quotaflow.settings.MetricsSettings.DEFAULT.withTenantLabels(true));
    }

    private TenantShareResult measure(EmbeddedKafkaBroker broker, ProviderSimulator sim, Pipeline pipeline, TenantPlan plan) {
        List<GeneratedTicket> tickets = tickets(seed, plan);
        int all = tickets.size();
        phase.accept("publishing " + all + " bulk tickets");
        long start = System.currentTimeMillis();
        try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of());
             OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of())) {
            PublishSummary summary = publisher.publish(new ByteArrayInputStream(TicketGenerator.jsonLines(tickets)),
                    Optional.of(Priority.BULK), false, p -> { }, issue -> { });
            if (!summary.succeeded() || summary.acknowledged() != all) {
                throw new IllegalStateException("publishing failed: " + summary.describe());
            }
            phase.accept("published; classifying" + (plan.untilAllDone() ? "" : " until one tenant is done"));
            ShareWindow window = new ShareWindow(plan.ticketsA(), plan.ticketsB());
            long deadline = start + timeout.toMillis();
            long nextPhase = start + 10_000;
            long doneA = -1;
            long doneB = -1;
            while (plan.untilAllDone() ? counter.classified() + counter.deadLettered() < all : !window.closed()) {
                counter.poll(Duration.ofMillis(100));
                long now = System.currentTimeMillis();
                // results are keyed tenant:id
                long a = counter.classifiedIds().stream().filter(key -> io.quotaflow.records.TicketKey.parse(key).tenant().equals(plan.nameA()))
                        .count();
                long b = counter.classifiedIds().stream().filter(key -> io.quotaflow.records.TicketKey.parse(key).tenant().equals(plan.nameB()))
                        .count();
                double tokensA = pipeline.metrics().tenantTokens(plan.nameA());
                double tokensB = pipeline.metrics().tenantTokens(plan.nameB());
                window.add(new ShareWindow.Sample(now - start, tokensA, tokensB, a, b, waiting(pipeline, plan.nameA()),
                        waiting(pipeline, plan.nameB())));
                doneA = doneA < 0 && a >= plan.ticketsA() ? now - start : doneA;
                doneB = doneB < 0 && b >= plan.ticketsB() ? now - start : doneB;
                if (now >= nextPhase) {
                    phase.accept(String.format(java.util.Locale.ROOT, "%.0f s: classified %d %s, %d %s; admitted tokens %,.0f : %,.0f",
                            (now - start) / 1000.0, a, plan.nameA(), b, plan.nameB(), tokensA, tokensB));
                    nextPhase = now + 10_000;
                }
                if (now > deadline) {
                    throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s");
                }
            }
            ShareWindow.Sample end = window.end();
            return new TenantShareResult(plan, end.elapsedMs(), end.tokensA(), end.tokensB(), end.ticketsA(), end.ticketsB(), doneA,
                    doneB, counter.classified(), sim.stats().http429(), counter.deadLettered());
        }
    }

    /** Tickets of {@code tenant} waiting in the pipeline's queues, from its latest snapshots. */
    private static int waiting(Pipeline pipeline, String tenant) {
        return pipeline.metrics().snapshots().stream().mapToInt(s -> s.tenants().containsKey(tenant) ? s.tenants().get(tenant).depth() : 0)
                .sum();
    }
}

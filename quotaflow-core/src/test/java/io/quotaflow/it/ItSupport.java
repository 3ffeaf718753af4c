package io.quotaflow.it;

import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.config.DispatcherSettings;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The world of one pipeline integration test class, as a JUnit extension: its own in-process KRaft
 * broker with the topics applied, and the provider simulator with one API key. Register it with
 * {@code @RegisterExtension static final ItSupport it = ItSupport.of(...)}.
 */
final class ItSupport implements BeforeAllCallback, AfterAllCallback {

    final String key;
    private final long rpm;
    private final long tpm;
    private final long latencyMs;
    private final UnaryOperator<SimulatorConfig.Builder> simulatorShape;
    EmbeddedKafkaBroker broker;
    ProviderSimulator sim;

    private ItSupport(String key, long rpm, long tpm, long latencyMs, UnaryOperator<SimulatorConfig.Builder> simulatorShape) {
        this.key = key;
        this.rpm = rpm;
        this.tpm = tpm;
        this.latencyMs = latencyMs;
        this.simulatorShape = simulatorShape;
    }

    /** A broker and a simulator admitting {@code rpm}/{@code tpm} with a 5 s burst, started before the class. */
    static ItSupport of(String key, long rpm, long tpm, long latencyMs) {
        return new ItSupport(key, rpm, tpm, latencyMs, UnaryOperator.identity());
    }

    /** {@link #of(String, long, long, long)} with more simulator settings (other models served, ...). */
    static ItSupport of(String key, long rpm, long tpm, long latencyMs, UnaryOperator<SimulatorConfig.Builder> simulatorShape) {
        return new ItSupport(key, rpm, tpm, latencyMs, simulatorShape);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        broker = EmbeddedKafkaBroker.start();
        try (Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
            TopicsApplier.bundled().apply(admin);
        }
        sim = ProviderSimulator.start(simulatorShape.apply(SimulatorConfig.builder().port(0).rpm(rpm).tpm(tpm)
                .burstSeconds(5).apiKeys(Set.of(key)).baseLatencyMs(latencyMs)).build());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (sim != null) {
            sim.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** A pipeline configuration against this broker and simulator. */
    QuotaflowConfig config(String applicationId, QuotaSettings quota, RetrySettings retry) {
        return config(broker, sim, key, applicationId, quota, retry);
    }

    Set<String> publish(String prefix, int n) {
        return publish(broker, prefix, n);
    }

    static QuotaflowConfig config(EmbeddedKafkaBroker broker, ProviderSimulator sim, String key, String applicationId,
                                  QuotaSettings quota, RetrySettings retry) {
        try {
            return new QuotaflowConfig(broker.bootstrapServers(), applicationId, Files.createTempDirectory("qf-" + applicationId), -1,
                    Map.of(), new DispatcherSettings(ModelSettings.of(URI.create(sim.baseUrl()), "gpt-4o-mini", Secret.of(key)),
                    quota, BatchSettings.ofDefaults(), retry));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Publishes {@code n} small tickets with ids {@code prefix-0 … prefix-(n-1)} over the three priorities, each of its own text. */
    static Set<String> publish(EmbeddedKafkaBroker broker, String prefix, int n) {
        StringBuilder lines = new StringBuilder();
        Set<String> ids = new LinkedHashSet<>();
        String[] priorities = {"interactive", "standard", "bulk"};
        for (int i = 0; i < n; i++) {
            String id = prefix + "-" + i;
            ids.add(id);
            // the id in the text: tickets of two calls must not be answered from each other's cache
            lines.append("{\"id\":\"").append(id).append("\",\"subject\":\"Order ").append(id)
                    .append(" not delivered\",\"body\":\"The tracking for my package has not moved for ").append(i % 9 + 2)
                    .append(" days.\",\"tenant\":\"t").append(i % 3).append("\",\"priority\":\"").append(priorities[i % 3]).append("\"}\n");
        }
        try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of())) {
            PublishSummary summary = publisher.publish(new ByteArrayInputStream(lines.toString().getBytes(StandardCharsets.UTF_8)),
                    Optional.empty(), false, p -> { }, i -> { });
            if (!summary.succeeded() || summary.acknowledged() != n) {
                throw new IllegalStateException("publish failed: " + summary.describe());
            }
        }
        return ids;
    }
}

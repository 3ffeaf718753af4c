package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicSpec;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.testkit.KafkaBrokerExtension;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.settings.DispatcherSettings;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import static org.awaitility.Awaitility.await;

/**
 * The world of one pipeline integration test class, as a JUnit extension: the broker shared by every
 * test class of the JVM ({@link KafkaBrokerExtension}) with the topics applied under a
 * {@code topics.prefix} of this class's own, and the provider simulator with one API key. Register it
 * with {@code @RegisterExtension static final ItSupport it = ItSupport.of(...)}.
 *
 * <p>Everything a test makes through it is under the class's prefix: the topics, the application
 * ids of its pipelines ({@link #config}), the tickets it publishes ({@link #publish}) and the
 * outcomes it counts ({@link #counter()}), so the classes sharing the broker never see each
 * other's records, consumer groups or transactions.
 */
final class ItSupport implements BeforeAllCallback, AfterAllCallback {

    /**
     * Partitions of every topic an IT makes (and of its dispatch topic), unless the class asks for the
     * bundled counts ({@link #withBundledPartitions()}): two, not the bundled six, so a pipeline has a
     * third of the tasks, stores and transactions to start; still more than one, so the tickets of a
     * test spread over partitions and tasks.
     */
    static final int IT_PARTITIONS = 2;

    final String key;
    private final long rpm;
    private final long tpm;
    private final long latencyMs;
    private final UnaryOperator<SimulatorConfig.Builder> simulatorShape;
    EmbeddedKafkaBroker broker;
    ProviderSimulator sim;
    private final int partitions;
    private TopicNames topics;

    private ItSupport(String key, long rpm, long tpm, long latencyMs, UnaryOperator<SimulatorConfig.Builder> simulatorShape,
                      int partitions) {
        this.key = key;
        this.rpm = rpm;
        this.tpm = tpm;
        this.latencyMs = latencyMs;
        this.simulatorShape = simulatorShape;
        this.partitions = partitions;
    }

    /** This world with the bundled partition counts and the default {@code dispatch.partitions}, for tests about them. */
    ItSupport withBundledPartitions() {
        return new ItSupport(key, rpm, tpm, latencyMs, simulatorShape, Integer.MAX_VALUE);
    }

    /** The shared broker and a simulator admitting {@code rpm}/{@code tpm} with a 5 s burst, started before the class. */
    static ItSupport of(String key, long rpm, long tpm, long latencyMs) {
        return new ItSupport(key, rpm, tpm, latencyMs, UnaryOperator.identity(), IT_PARTITIONS);
    }

    /** {@link #of(String, long, long, long)} with more simulator settings (other models served, ...). */
    static ItSupport of(String key, long rpm, long tpm, long latencyMs, UnaryOperator<SimulatorConfig.Builder> simulatorShape) {
        return new ItSupport(key, rpm, tpm, latencyMs, simulatorShape, IT_PARTITIONS);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        // the shared broker, closed by JUnit at the end of the run
        new KafkaBrokerExtension().beforeAll(context);
        broker = KafkaBrokerExtension.broker();
        topics = applyTopics(broker, KafkaBrokerExtension.uniqueName(context.getRequiredTestClass().getSimpleName()) + ".", partitions);
        sim = ProviderSimulator.start(simulatorShape.apply(SimulatorConfig.builder().port(0).rpm(rpm).tpm(tpm)
                .burstSeconds(5).apiKeys(Set.of(key)).baseLatencyMs(latencyMs)).build());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (sim != null) {
            sim.close();
        }
    }

    /**
     * Applies the bundled topics under {@code prefix} on {@code broker}, and waits until the broker
     * serves every partition of them. A topic exists for the controller before the broker has its
     * logs: an idempotent producer whose first batch to a partition failed there while its next
     * batch got in is stuck on an out-of-order sequence (seen on the shared, busier broker).
     */
    static TopicNames applyTopics(EmbeddedKafkaBroker broker, String prefix) {
        return applyTopics(broker, prefix, IT_PARTITIONS);
    }

    /** {@link #applyTopics(EmbeddedKafkaBroker, String)} with at most {@code partitions} partitions a topic. */
    static TopicNames applyTopics(EmbeddedKafkaBroker broker, String prefix, int partitions) {
        TopicNames topics = new TopicNames(prefix);
        try (Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
            new TopicsApplier(TopicSpec.loadBundled().stream().map(t -> new TopicSpec(prefix + t.name(),
                    Math.min(t.partitions(), partitions), t.replicationFactor(), t.configs())).toList()).apply(admin);
            await("the broker serves every partition of " + topics.all()).atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() -> {
                        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                        admin.describeTopics(topics.all()).allTopicNames().get(10, TimeUnit.SECONDS).values()
                                .forEach(d -> d.partitions().forEach(p -> latest.put(new TopicPartition(d.name(), p.partition()),
                                        OffsetSpec.latest())));
                        // answered by the partition's leader from its log: there once the broker can append
                        admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS);
                        return true;
                    });
        }
        return topics;
    }

    String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** This class's topic names. */
    TopicNames topics() {
        return topics;
    }

    /**
     * A pipeline configuration against this broker and simulator, on this class's topics, with
     * {@code applicationId} under this class's prefix (instances of one test pass the same id).
     */
    QuotaflowConfig config(String applicationId, QuotaSettings quota, RetrySettings retry) {
        QuotaflowConfig config = config(broker, sim, key, topics, topics.prefix() + applicationId, quota, retry);
        return partitions == IT_PARTITIONS ? config : new QuotaflowConfig(config.bootstrapServers(), config.applicationId(),
                config.stateDir(), -1, Map.of(), config.dispatcher().withDispatchPartitions(DispatcherSettings.DEFAULT_DISPATCH_PARTITIONS));
    }

    /** As {@link #config(String, QuotaSettings, RetrySettings)}, with the dispatcher's settings changed by {@code change}. */
    QuotaflowConfig config(String applicationId, QuotaSettings quota, RetrySettings retry,
                           java.util.function.UnaryOperator<DispatcherSettings> change) {
        QuotaflowConfig c = config(applicationId, quota, retry);
        return new QuotaflowConfig(c.bootstrapServers(), c.applicationId(), c.stateDir(), -1, Map.of(), change.apply(c.dispatcher()));
    }

    /** Counts the outcomes on this class's topics; the caller closes it. */
    OutcomeCounter counter() {
        return new OutcomeCounter(bootstrapServers(), Map.of(), topics.prefix());
    }

    Set<String> publish(String prefix, int n) {
        return publish(broker, topics, prefix, n);
    }

    static QuotaflowConfig config(EmbeddedKafkaBroker broker, ProviderSimulator sim, String key, TopicNames topics,
                                  String applicationId, QuotaSettings quota, RetrySettings retry) {
        try {
            return new QuotaflowConfig(broker.bootstrapServers(), applicationId, io.quotaflow.testkit.TestDirs.temporary("qf-" + applicationId), -1,
                    Map.of(), DispatcherSettings.builder(ModelSettings.of(URI.create(sim.baseUrl()), "gpt-4o-mini", Secret.of(key)),
                    quota, BatchSettings.ofDefaults(), retry).build().withTopics(topics).withDispatchPartitions(IT_PARTITIONS));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Publishes {@code n} small tickets with ids {@code prefix-0 … prefix-(n-1)} over the three priorities and tenants
     * {@code t0..t2}, each of its own text, to the input topics of {@code topics}; returns their keys ({@code t1:prefix-1}).
     */
    static Set<String> publish(EmbeddedKafkaBroker broker, TopicNames topics, String prefix, int n) {
        StringBuilder lines = new StringBuilder();
        Set<String> ids = new LinkedHashSet<>();
        String[] priorities = {"interactive", "standard", "bulk"};
        for (int i = 0; i < n; i++) {
            String id = prefix + "-" + i;
            // results are keyed tenant:id (these tickets name tenants t0, t1 and t2)
            ids.add("t" + i % 3 + ":" + id);
            // the id in the text: tickets of two calls must not be answered from each other's cache
            lines.append("{\"id\":\"").append(id).append("\",\"subject\":\"Order ").append(id)
                    .append(" not delivered\",\"body\":\"The tracking for my package has not moved for ").append(i % 9 + 2)
                    .append(" days.\",\"tenant\":\"t").append(i % 3).append("\",\"priority\":\"").append(priorities[i % 3]).append("\"}\n");
        }
        try (TicketPublisher publisher = new TicketPublisher(broker.bootstrapServers(), Map.of(), topics)) {
            PublishSummary summary = publisher.publish(new ByteArrayInputStream(lines.toString().getBytes(StandardCharsets.UTF_8)),
                    Optional.empty(), false, p -> { }, i -> { });
            if (!summary.succeeded() || summary.acknowledged() != n) {
                throw new IllegalStateException("publish failed: " + summary.describe());
            }
        }
        return ids;
    }

    /**
     * Waits until nothing new happens for {@code quiet}: {@code probe} (polling what it reads) returns
     * the same value for that long. For "nothing more may come" before asserting on what came; a late
     * arrival restarts the wait, and the assertions that follow see it. Fails after {@code atMost}.
     */
    static void awaitQuiet(Duration quiet, Duration atMost, Callable<?> probe) {
        AtomicReference<Object> last = new AtomicReference<>(new Object());
        await().during(quiet).atMost(atMost).pollInterval(Duration.ofMillis(100)).until(() -> {
            Object now = probe.call();
            return Objects.equals(last.getAndSet(now), now);
        });
    }

    /** {@link #awaitQuiet(Duration, Duration, Callable)} on the records {@code counter} reads, for at most 30 s more. */
    static void awaitQuiet(Duration quiet, OutcomeCounter counter) {
        awaitQuiet(quiet, quiet.plusSeconds(30), () -> {
            counter.poll(Duration.ofMillis(100));
            return counter.read();
        });
    }
}

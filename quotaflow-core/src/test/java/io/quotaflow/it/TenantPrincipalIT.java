package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TenantAcls;
import io.quotaflow.admin.TopicSpec;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.records.Priority;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.TenantAccess;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.testkit.OutcomeCounter;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code tenants.from=principal} on a broker that enforces it (docs/operations.md, "Tenants and access", "Producers"):
 * a broker of its own with a SASL/PLAIN listener, users alice and bob, the StandardAuthorizer and the ACLs of
 * {@link TenantAcls} (acme to User:alice, globex to User:bob). The pipeline runs as the super user admin. The broker
 * refuses alice on bob's topic and on the shared priority topics; on her own topic a body claiming globex is
 * dead-lettered, and bob's tombstones on his topic cancel nothing of acme's.
 */
class TenantPrincipalIT {

    private static final QuotaSettings QUOTA = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000);
    private static final String KEY = "sk-it-tenant-principal";

    private static byte[] ticket(String tenant, String id, String body) {
        return ("{\"id\":\"" + id + "\"" + (tenant == null ? "" : ",\"tenant\":\"" + tenant + "\"")
                + ",\"subject\":\"Support request\",\"body\":\"" + body + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static KafkaProducer<String, byte[]> producer(EmbeddedKafkaBroker broker, String user) {
        Map<String, Object> extra = new HashMap<>(broker.saslClientProperties(user));
        extra.put("max.block.ms", 10_000);
        extra.put("delivery.timeout.ms", 20_000);
        extra.put("request.timeout.ms", 10_000);
        return new KafkaProducer<>(KafkaClients.properties(broker.bootstrapServers(), extra), new StringSerializer(),
                new ByteArraySerializer());
    }

    private static void assertRefused(EmbeddedKafkaBroker broker, String user, String topic) {
        try (KafkaProducer<String, byte[]> producer = producer(broker, user)) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "R-1", ticket(null, "R-1", "Refused"))).get())
                    .as(user + " writing " + topic).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldBindEachUserToItsTenantThroughTheBrokersAcls() throws Exception {
        TenantAccess access = TenantAccess.builder().from(TenantAccess.From.PRINCIPAL).allowed(List.of("acme", "globex"))
                .principal("acme", "User:alice").principal("globex", "User:bob").build();
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.startWithSaslUsers(Map.of("alice", "alice-secret", "bob", "bob-secret"));
             ProviderSimulator sim = ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(6_000).tpm(2_000_000)
                     .burstSeconds(5).apiKeys(Set.of(KEY)).baseLatencyMs(20).build())) {
            Map<String, String> admin = broker.saslClientProperties(EmbeddedKafkaBroker.SASL_ADMIN);
            TopicNames topics = new TopicNames("sasl.");
            try (Admin client = KafkaClients.admin(broker.bootstrapServers(), admin)) {
                List<TopicSpec> specs = new java.util.ArrayList<>(TopicSpec.loadBundled().stream()
                        .map(t -> new TopicSpec(topics.prefix() + t.name(),
                                Math.min(t.partitions(), ItSupport.IT_PARTITIONS), 1, t.configs())).toList());
                access.topics(topics).keySet().forEach(t -> specs.add(new TopicSpec(t, 1, 1, Map.of())));
                new TopicsApplier(specs).apply(client);
                client.createAcls(TenantAcls.all(access, topics)).all().get(30, TimeUnit.SECONDS);
            }
            String acme = TenantAccess.topic(topics, "acme", Priority.BULK);
            String globex = TenantAccess.topic(topics, "globex", Priority.BULK);

            // the broker's part: alice may not write bob's topic, nor the shared priority topics
            assertRefused(broker, "alice", globex);
            assertRefused(broker, "alice", topics.input(Priority.STANDARD));
            assertRefused(broker, "bob", acme);

            QuotaflowConfig base = ItSupport.config(broker, sim, KEY, topics, "sasl.quotaflow-principal", QUOTA, RetrySettings.ofDefaults());
            QuotaflowConfig config = new QuotaflowConfig(base.bootstrapServers(), base.applicationId(), base.stateDir(), -1, admin,
                    base.dispatcher().withTenants(TenantSettings.NONE.withAccess(access)));
            try (Pipeline pipeline = Pipeline.start(config, ModelClients.of(FakeModelClient.labellingAll("account", "low")));
                 OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), admin, topics.prefix());
                 KafkaProducer<String, byte[]> alice = producer(broker, "alice");
                 KafkaProducer<String, byte[]> bob = producer(broker, "bob")) {
                assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
                alice.send(new ProducerRecord<>(acme, "P-1", ticket(null, "P-1", "Our invoice is wrong"))).get(20, TimeUnit.SECONDS);
                bob.send(new ProducerRecord<>(globex, "P-1", ticket("globex", "P-1", "Cannot log in"))).get(20, TimeUnit.SECONDS);
                // alice, on her own topic, claims globex in the body: dead-lettered, never classified
                alice.send(new ProducerRecord<>(acme, "globex:F-1", ticket("globex", "F-1", "Forged"))).get(20, TimeUnit.SECONDS);
                // acme's ticket, then bob's tombstones for it on his own topic: they cancel nothing of acme's
                alice.send(new ProducerRecord<>(acme, "P-2", ticket(null, "P-2", "Charged twice"))).get(20, TimeUnit.SECONDS);
                bob.send(new ProducerRecord<>(globex, "acme:P-2", null)).get(20, TimeUnit.SECONDS);
                bob.send(new ProducerRecord<>(globex, "P-2", null)).get(20, TimeUnit.SECONDS);

                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> {
                    counter.poll(Duration.ofMillis(100));
                    return counter.classifiedIds().containsAll(List.of("acme:P-1", "globex:P-1", "acme:P-2"))
                            && counter.deadLetters().keySet().stream().anyMatch(k -> k.endsWith("F-1"));
                });
                ItSupport.awaitQuiet(Duration.ofSeconds(2), counter);

                assertThat(counter.classifiedIds()).containsExactlyInAnyOrder("acme:P-1", "globex:P-1", "acme:P-2");
                assertThat(new String(counter.results().get("acme:P-1"), StandardCharsets.UTF_8)).contains("\"tenant\":\"acme\"");
                assertThat(new String(counter.results().get("globex:P-1"), StandardCharsets.UTF_8)).contains("\"tenant\":\"globex\"");
                assertThat(counter.deadLetters()).hasSize(1).containsValue("bad-input");
                assertThat(pipeline.metrics().cancelledCount()).isZero();
            }
        }
    }
}

package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.admin.TopicSpec;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.records.Priority;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.TenantAccess;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testkit.OutcomeCounter;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Where a ticket's tenant comes from, on a real broker (docs/operations.md, "Tenants and access"): a producer that
 * names another tenant's ticket can neither replace nor cancel it, and an unlisted tenant is dead-lettered.
 * {@code principal} is checked here as intake sees it (per-tenant topics) on the shared plaintext broker;
 * {@link TenantPrincipalIT} runs it on a broker with SASL users whose ACLs bind each topic to one principal.
 */
class TenantSourceIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-tenant-source", 6_000, 2_000_000, 20);

    private static final QuotaSettings QUOTA = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000);

    private static byte[] ticket(String tenant, String id, String body) {
        return ("{\"id\":\"" + id + "\"" + (tenant == null ? "" : ",\"tenant\":\"" + tenant + "\"")
                + ",\"subject\":\"Support request\",\"body\":\"" + body + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(KafkaClients.properties(it.bootstrapServers(), Map.of()), new StringSerializer(),
                new ByteArraySerializer());
    }

    private static Pipeline start(String applicationId, TenantAccess access) {
        return Pipeline.start(it.config(applicationId, QUOTA, RetrySettings.ofDefaults(),
                d -> d.withTenants(TenantSettings.NONE.withAccess(access))), ModelClients.of(FakeModelClient.labellingAll("account", "low")));
    }

    private static void awaitKeys(OutcomeCounter counter, List<String> classified, List<String> dead) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> {
            counter.poll(Duration.ofMillis(100));
            return counter.classifiedIds().containsAll(classified) && counter.deadLetters().keySet().containsAll(dead);
        });
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldDeadLetterAForgedKeyAndAnInventedTenantUnderKey() throws Exception {
        TenantAccess access = TenantAccess.builder().from(TenantAccess.From.KEY).allowed(List.of("acme", "globex")).build();
        try (Pipeline pipeline = start("quotaflow-tenant-key", access);
             OutcomeCounter counter = it.counter();
             KafkaProducer<String, byte[]> producer = producer()) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            String standard = it.topics().input(Priority.STANDARD);
            producer.send(new ProducerRecord<>(standard, "acme:K-1042", ticket("acme", "K-1042", "Our invoice is wrong")));
            producer.flush();
            awaitKeys(counter, List.of("acme:K-1042"), List.of());
            // globex's producer names acme's ticket in its body: replacing it, and cancelling it, both fail
            producer.send(new ProducerRecord<>(standard, "globex:K-1042", ticket("acme", "K-1042", "Forged replacement")));
            producer.send(new ProducerRecord<>(standard, "globex:K-1042", null));
            producer.send(new ProducerRecord<>(standard, "initech:K-7", ticket("initech", "K-7", "Invented tenant")));
            producer.flush();
            awaitKeys(counter, List.of(), List.of("globex:K-1042", "initech:K-7"));

            assertThat(counter.deadLetters()).containsEntry("globex:K-1042", "bad-input").containsEntry("initech:K-7", "unknown-tenant");
            // the other tests of this class share the results topic: only this test's ids (K-) count here
            assertThat(counter.classifiedIds()).filteredOn(k -> k.contains(":K-")).containsExactly("acme:K-1042");
            assertThat(new String(counter.results().get("acme:K-1042"), StandardCharsets.UTF_8)).contains("\"tenant\":\"acme\"");
            assertThat(counter.deadLetters().keySet()).filteredOn(k -> k.contains(":K-"))
                    .containsExactlyInAnyOrder("globex:K-1042", "initech:K-7");
        }
    }

    @ParameterizedTest
    @EnumSource(value = TenantAccess.From.class, names = {"TOPIC", "PRINCIPAL"})
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldLetNoProducerReplaceOrCancelAnotherTenantsTicketThroughItsOwnTopic(TenantAccess.From from) throws Exception {
        TenantAccess.Builder b = TenantAccess.builder().from(from).allowed(List.of("acme", "globex"));
        if (from == TenantAccess.From.PRINCIPAL) {
            b.principal("acme", "User:acme-producer").principal("globex", "User:globex-producer");
        }
        TenantAccess access = b.build();
        String p = from.name().charAt(0) + "-";
        try (Admin admin = KafkaClients.admin(it.bootstrapServers(), Map.of())) {
            new TopicsApplier(access.topics(it.topics()).keySet().stream().map(t -> new TopicSpec(t, 1, 1, Map.of())).toList())
                    .apply(admin);
        }
        try (Pipeline pipeline = start("quotaflow-tenant-" + from.name().toLowerCase(java.util.Locale.ROOT), access);
             OutcomeCounter counter = it.counter();
             KafkaProducer<String, byte[]> producer = producer()) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            String acme = TenantAccess.topic(it.topics(), "acme", Priority.BULK);
            String globex = TenantAccess.topic(it.topics(), "globex", Priority.BULK);
            producer.send(new ProducerRecord<>(acme, p + "1042", ticket(null, p + "1042", "Our invoice is wrong")));
            // globex's producer, on its own topic: a body naming acme is dead-lettered, a tombstone naming acme's id
            // cancels nothing of acme's
            producer.send(new ProducerRecord<>(globex, "acme:" + p + "1042", ticket("acme", p + "1042", "Forged replacement")));
            producer.send(new ProducerRecord<>(globex, "acme:" + p + "1042", null));
            producer.send(new ProducerRecord<>(globex, p + "1042", null));
            producer.flush();
            awaitKeys(counter, List.of("acme:" + p + "1042"), List.of("acme:" + p + "1042"));

            assertThat(counter.deadLetters()).containsEntry("acme:" + p + "1042", "bad-input");
            assertThat(counter.classifiedIds()).contains("acme:" + p + "1042").doesNotContain("globex:" + p + "1042");
            assertThat(pipeline.metrics().cancelledCount()).isZero();
        }
    }
}

package io.quotaflow.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.llm.ModelClient;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.testing.FakeModelClient;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tenants on a real broker do not affect or learn about each other's tickets (docs/design.md,
 * "Tenants"): one id in two tenants is two tickets, a tombstone cancels only the ticket its key
 * names, a tenant's text never hits another tenant's cache, and a dead letter names no other ticket.
 */
class TenantIsolationIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-tenants", 6_000, 2_000_000, 20);

    /**
     * The model: a call about a ticket whose body has {@code [hold]} waits until {@link #release};
     * one with {@code [fail]} then fails as transient, one with {@code Strange} fails for good after
     * two seconds; the rest are answered at once.
     */
    static final class Scripted implements ModelClient {
        final List<ModelRequest> requests = Collections.synchronizedList(new ArrayList<>());
        private final CompletableFuture<Void> gate = new CompletableFuture<>();

        @Override
        public CompletionStage<ModelOutcome> classify(ModelRequest request) {
            requests.add(request);
            boolean hold = request.items().stream().anyMatch(i -> i.body().contains("[hold]"));
            boolean fail = request.items().stream().anyMatch(i -> i.body().contains("[fail]"));
            boolean strange = request.items().stream().anyMatch(i -> i.body().contains("Strange"));
            CompletableFuture<Void> start = hold ? gate : CompletableFuture.completedFuture(null);
            return start.thenApplyAsync(v -> fail ? FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 503, "busy")
                            : strange ? FakeModelClient.failed(ModelOutcome.FailureKind.NON_RETRYABLE, 400, "unsupported parameter")
                            : FakeModelClient.answer(request, "account", "high"),
                    CompletableFuture.delayedExecutor(strange ? 2_000 : 20, TimeUnit.MILLISECONDS));
        }

        void release() {
            gate.complete(null);
        }

        long asked(String key) {
            synchronized (requests) {
                return requests.stream().flatMap(r -> r.items().stream()).map(ModelItem::id).filter(key::equals).count();
            }
        }
    }

    static byte[] ticket(String tenant, String id, String body) {
        return ("{\"id\":\"" + id + "\",\"tenant\":\"" + tenant + "\",\"subject\":\"Support request\",\"body\":\"" + body + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The dead letters on this class's topic, by key, as their error message. */
    static Map<String, ConsumerRecord<String, byte[]>> deadLetters(ItSupport support) {
        Map<String, Object> p = KafkaClients.properties(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                support.bootstrapServers(), Map.of());
        Map<String, ConsumerRecord<String, byte[]>> out = new HashMap<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(support.topics().dlq()).stream()
                    .map(pi -> new TopicPartition(pi.topic(), pi.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            for (int i = 0; i < 5; i++) {
                consumer.poll(Duration.ofMillis(500)).forEach(r -> out.put(r.key(), r));
            }
        }
        return out;
    }

    private static String header(ConsumerRecord<String, byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldKeepEveryTenantsTicketsItsOwn() throws Exception {
        Scripted model = new Scripted();
        QuotaSettings oneCall = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000).withMaxInFlight(1);
        try (Pipeline pipeline = Pipeline.start(it.config("quotaflow-tenants", oneCall, RetrySettings.ofDefaults()),
                ModelClients.of(model));
             OutcomeCounter counter = it.counter();
             KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaClients.properties(it.bootstrapServers(), Map.of()),
                     new StringSerializer(), new ByteArraySerializer())) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            String standard = it.topics().input(Priority.STANDARD);
            // one call at a time, and the first one holds: everything after it waits
            producer.send(new ProducerRecord<>(standard, "acme:H-1", ticket("acme", "H-1", "[hold] the first call")));
            producer.flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> model.asked("acme:H-1") == 1);
            producer.send(new ProducerRecord<>(standard, "acme:1042", ticket("acme", "1042", "Data breach: our customer list leaked")));
            producer.send(new ProducerRecord<>(standard, "globex:1042", ticket("globex", "1042", "How do I change my avatar?")));
            producer.send(new ProducerRecord<>(standard, "acme:W-2", ticket("acme", "W-2", "Please close my account")));
            producer.flush();
            // foreign tombstones: the default tenant's 1042 and W-2, globex's W-2; then acme's own cancel of W-2
            producer.send(new ProducerRecord<>(standard, "1042", null));
            producer.send(new ProducerRecord<>(it.topics().input(Priority.BULK), "W-2", null));
            producer.send(new ProducerRecord<>(standard, "globex:W-2", null));
            producer.flush();
            Thread.sleep(1_000);
            producer.send(new ProducerRecord<>(standard, "acme:W-2", null));
            producer.flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> pipeline.metrics().cancelledCount() == 1);
            model.release();

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(List.of("acme:H-1", "acme:1042", "globex:1042"));
            });
            JsonNode acme = Json.MAPPER.readTree(counter.results().get("acme:1042"));
            JsonNode globex = Json.MAPPER.readTree(counter.results().get("globex:1042"));
            assertThat(acme.get("tenant").asText()).isEqualTo("acme");
            assertThat(acme.get("id").asText()).isEqualTo("1042");
            assertThat(globex.get("tenant").asText()).isEqualTo("globex");
            assertThat(model.asked("acme:1042")).isEqualTo(1);
            assertThat(model.asked("globex:1042")).as("neither replaced the other").isEqualTo(1);

            // a cache probe: globex sends acme's exact text; acme sends it again
            producer.send(new ProducerRecord<>(standard, "globex:P-1", ticket("globex", "P-1", "Data breach: our customer list leaked")));
            producer.flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.results().containsKey("globex:P-1");
            });
            producer.send(new ProducerRecord<>(standard, "acme:P-2", ticket("acme", "P-2", "Data breach: our customer list leaked")));
            producer.flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.results().containsKey("acme:P-2");
            });
            assertThat(Json.MAPPER.readTree(counter.results().get("globex:P-1")).get("cached").asBoolean())
                    .as("another tenant's answer is never served").isFalse();
            assertThat(model.asked("globex:P-1")).isEqualTo(1);
            assertThat(Json.MAPPER.readTree(counter.results().get("acme:P-2")).get("cached").asBoolean()).isTrue();

            // a leader that fails for good, its same-tenant follower, and another tenant's identical ticket
            producer.send(new ProducerRecord<>(standard, "acme:S-1", ticket("acme", "S-1", "Strange request")));
            producer.flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> model.asked("acme:S-1") == 1);
            producer.send(new ProducerRecord<>(standard, "acme:S-2", ticket("acme", "S-2", "Strange request")));
            producer.send(new ProducerRecord<>(standard, "globex:S-3", ticket("globex", "S-3", "Strange request")));
            producer.flush();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.deadLettered() >= 3;
            });
            Map<String, ConsumerRecord<String, byte[]>> dead = deadLetters(it);
            assertThat(dead).containsOnlyKeys("acme:S-1", "acme:S-2", "globex:S-3");
            assertThat(model.asked("acme:S-2")).as("the follower waited for its leader's call").isZero();
            assertThat(header(dead.get("acme:S-2"), DeadLetterHeaders.ERROR_MESSAGE)).doesNotContain("S-1");
            assertThat(header(dead.get("globex:S-3"), DeadLetterHeaders.TENANT)).isEqualTo("globex");
            assertThat(header(dead.get("globex:S-3"), DeadLetterHeaders.ERROR_MESSAGE)).doesNotContain("acme").doesNotContain("S-1");
            assertThat(model.asked("globex:S-3")).as("another tenant's identical ticket is asked on its own").isEqualTo(1);

            ItSupport.awaitQuiet(Duration.ofSeconds(2), counter);
            assertThat(counter.classifiedIds()).containsExactlyInAnyOrder("acme:H-1", "acme:1042", "globex:1042", "globex:P-1",
                    "acme:P-2");
            assertThat(counter.duplicates()).isZero();
            assertThat(pipeline.metrics().cancelledCount()).as("only acme's own tombstone cancelled").isEqualTo(1);
        }
    }
}

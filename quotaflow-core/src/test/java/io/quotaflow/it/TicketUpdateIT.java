package io.quotaflow.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A help desk re-sends an edited ticket: the same id twice with different text while the first copy
 * waits (or is being asked about) gives one result, for the newer text.
 */
class TicketUpdateIT {

    /** Every answer takes 1.5 s, so a ticket can be updated while its call is out. */
    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-update", 1_000, 400_000, 1_500);

    private static byte[] ticket(String id, String subject, String body) {
        return ("{\"id\":\"" + id + "\",\"subject\":\"" + subject + "\",\"body\":\"" + body + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static void send(String topic, String id, byte[] value) throws Exception {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaClients.properties(it.bootstrapServers(), Map.of()),
                new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, id, value)).get();
        }
    }

    private static List<JsonNode> resultsFor(String id, Duration wait) throws Exception {
        Map<String, Object> props = KafkaClients.properties(it.bootstrapServers(), Map.of());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<JsonNode> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(it.topics().classified()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            long deadline = System.nanoTime() + wait.toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key().equals(id)) {
                        out.add(Json.MAPPER.readTree(r.value()));
                    }
                }
            }
        }
        return out;
    }

    private QuotaflowConfig config(String applicationId) {
        return it.config(applicationId, QuotaSettings.ofDefaults().withRpm(1_000).withTpm(400_000), RetrySettings.ofDefaults());
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldClassifyOnlyTheNewerTextOfATicketRepublishedWhileItWaitsOrIsAskedAbout() throws Exception {
        // waiting: both copies are there before the pipeline starts
        send(it.topics().input(Priority.STANDARD), "UPD-1", ticket("UPD-1", "Refund for invoice", "I was billed twice, please refund the charge"));
        send(it.topics().input(Priority.STANDARD), "UPD-1", ticket("UPD-1", "App crashes", "The app crashes with an error on login, a bug"));
        try (Pipeline pipeline = Pipeline.start(config("quotaflow-update"))) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            await().atMost(Duration.ofMinutes(1)).until(() -> pipeline.metrics().classifiedCount() >= 1);
            assertThat(resultsFor("UPD-1", Duration.ofSeconds(3))).singleElement()
                    .satisfies(r -> assertThat(r.get("category").asText()).isEqualTo("technical"));
            assertThat(pipeline.metrics().republishedCounts()).containsEntry("replaced", 1L);
            // one call when both copies reached the dispatcher together; two when the first was already out
            // (its answer is then ignored): either way one result, for the newer text
            long afterFirst = it.sim.stats().totalRequests();
            assertThat(afterFirst).isBetween(1L, 2L);

            // in flight: the update arrives while the first copy's call (1.5 s) is out
            // texts of its own: UPD-1's answer is cached and would answer a copy without a call
            send(it.topics().input(Priority.INTERACTIVE), "UPD-2", ticket("UPD-2", "Refund for my invoice", "I was billed twice, please refund it"));
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> it.sim.stats().totalRequests() >= afterFirst + 1);
            send(it.topics().input(Priority.INTERACTIVE), "UPD-2", ticket("UPD-2", "App crashes on start", "The app crashes with an error at start, a bug"));
            await().atMost(Duration.ofMinutes(1)).until(() -> pipeline.metrics().classifiedCount() >= 2);
            assertThat(resultsFor("UPD-2", Duration.ofSeconds(5))).singleElement()
                    .satisfies(r -> assertThat(r.get("category").asText()).isEqualTo("technical"));
            assertThat(it.sim.stats().totalRequests()).as("the first copy's answer is ignored, the update asked")
                    .isEqualTo(afterFirst + 2);
            assertThat(pipeline.metrics().classifiedCount()).isEqualTo(2);
        }
    }
}

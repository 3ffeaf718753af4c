package io.quotaflow.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.DeadlineSettings;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.records.HandoffHeaders;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.simulator.Faults;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Deadlines against a real broker: while the route is down (every call 503), interactive tickets due 20 s after
 * intake are handed to people on {@code tickets.handoff} before their deadline; {@code GET /tickets/{id}} says
 * {@code handed-off}; after the route is back, and after a restart, none of them is ever classified.
 */
@Order(6) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
class DeadlineHandoffIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-deadline", 2_000, 1_000_000, 20);

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private final HttpClient http = HttpClient.newHttpClient();

    private QuotaflowConfig config() {
        return it.config("quotaflow-deadline", QuotaSettings.ofDefaults().withRpm(2_000).withTpm(1_000_000),
                RetrySettings.ofDefaults().withCircuitOpenWait(Duration.ofSeconds(10)),
                d -> d.withDeadlines(DeadlineSettings.DEFAULTS.withDefaults(Map.of(Priority.INTERACTIVE, DEADLINE))))
                .withHttp("127.0.0.1", 0);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldHandOffBeforeTheDeadlineWhileTheRouteIsDownAndNeverClassifyThemAfter() throws Exception {
        it.sim.setFaults(Faults.builder().p503(1.0).build());
        Set<String> ids = new TreeSet<>();
        Map<String, Long> publishedAt = new HashMap<>();
        try (OutcomeCounter counter = it.counter(); KafkaConsumer<String, byte[]> handoffs = handoffConsumer()) {
            List<ConsumerRecord<String, byte[]>> handed = new ArrayList<>();
            try (Pipeline pipeline = Pipeline.start(config())) {
                assertThat(pipeline.awaitRunning(Duration.ofSeconds(90))).isTrue();
                for (int i = 0; i < 12; i++) {
                    publishedAt.put("H-" + i, System.currentTimeMillis());
                    publish("H-" + i, "interactive");
                    ids.add("H-" + i);
                }
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    handoffs.poll(Duration.ofMillis(100)).forEach(handed::add);
                    return handed.size() >= ids.size();
                });
                assertThat(handed).extracting(ConsumerRecord::key).containsExactlyInAnyOrderElementsOf(ids);
                for (ConsumerRecord<String, byte[]> r : handed) {
                    Instant deadline = Instant.parse(header(r, HandoffHeaders.DEADLINE));
                    assertThat(deadline.toEpochMilli()).as("20 s after intake").isBetween(publishedAt.get(r.key()),
                            publishedAt.get(r.key()) + DEADLINE.toMillis() + 10_000);
                    assertThat(r.timestamp()).as(r.key() + " handed off before its deadline").isLessThan(deadline.toEpochMilli());
                    assertThat(header(r, HandoffHeaders.REASON)).isIn("unavailable", "eta");
                    assertThat(Json.MAPPER.readTree(r.value()).path("id").asText()).isEqualTo(r.key());
                }
                JsonNode status = get(pipeline, "/tickets/H-0");
                assertThat(status.path("state").asText()).as("its status, as soon as its hand-off can be read: " + status)
                        .isEqualTo("handed-off");

                it.sim.setFaults(Faults.none());
                publish("AFTER-1", "standard");
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    counter.poll(Duration.ofMillis(100));
                    return counter.classifiedIds().contains("AFTER-1");
                });
            }
            try (Pipeline restarted = Pipeline.start(config())) {
                assertThat(restarted.awaitRunning(Duration.ofSeconds(90))).isTrue();
                publish("AFTER-2", "standard");
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    counter.poll(Duration.ofMillis(100));
                    return counter.classifiedIds().contains("AFTER-2");
                });
                ItSupport.awaitQuiet(Duration.ofSeconds(3), counter);
            }
            assertThat(counter.classifiedIds()).as("no handed-off ticket classified, after the route came back or a restart")
                    .doesNotContainAnyElementsOf(ids);
            assertThat(counter.deadLettered()).isZero();
            handoffs.poll(Duration.ofMillis(500)).forEach(handed::add);
            assertThat(handed).as("one hand-off each").hasSize(ids.size());
            System.out.printf("DeadlineHandoffIT: %d interactive tickets handed off while the route was down, %s before their deadlines%n",
                    handed.size(), handed.stream().mapToLong(r -> Instant.parse(header(r, HandoffHeaders.DEADLINE)).toEpochMilli()
                            - r.timestamp()).summaryStatistics());
        }
    }

    /** A ticket of {@code priority} (the ones sent after the outage are standard: no deadline, they wait for the circuit). */
    private void publish(String id, String priority) {
        String line = "{\"id\":\"" + id + "\",\"subject\":\"Cannot log in " + id + "\",\"body\":\"My password reset link for "
                + id + " never arrives.\",\"priority\":\"" + priority + "\"}\n";
        try (TicketPublisher publisher = new TicketPublisher(it.bootstrapServers(), Map.of(), it.topics())) {
            assertThat(publisher.publish(new ByteArrayInputStream(line.getBytes(StandardCharsets.UTF_8)), Optional.empty(), false,
                    p -> { }, i -> { }).succeeded()).isTrue();
        }
    }

    private KafkaConsumer<String, byte[]> handoffConsumer() {
        Map<String, Object> p = KafkaClients.properties(Map.of(ConsumerConfig.CLIENT_ID_CONFIG, "it-handoff"), it.bootstrapServers(), Map.of());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(it.topics().handoff(), Duration.ofSeconds(30)).stream()
                .map(pi -> new TopicPartition(pi.topic(), pi.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return consumer;
    }

    private static String header(ConsumerRecord<String, byte[]> r, String key) {
        var h = r.headers().lastHeader(key);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private JsonNode get(Pipeline p, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p.httpPort() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }
}

package io.quotaflow.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.llm.ModelClient;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.RecordLimits;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A ticket re-published to another route while it waits on the first gets one result, for the
 * newest content, on a real broker where the two routes' quota scopes are owned by different
 * stream tasks (docs/design.md, "Tenants": publication notices).
 */
class RepublishAcrossRoutesIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-republish", 6_000, 2_000_000, 20);

    /** A route's model: answers, or refuses every call with a 401 while {@link #down}. */
    private static final class Switchable implements ModelClient {
        final List<ModelRequest> requests = Collections.synchronizedList(new ArrayList<>());
        volatile boolean down;

        @Override
        public CompletionStage<ModelOutcome> classify(ModelRequest request) {
            requests.add(request);
            ModelOutcome outcome = down ? FakeModelClient.failed(ModelOutcome.FailureKind.HALT, 401, "invalid api key")
                    : FakeModelClient.answer(request, "account", "high");
            return CompletableFuture.supplyAsync(() -> outcome, CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS));
        }

        List<String> bodiesOf(String key) {
            synchronized (requests) {
                return requests.stream().flatMap(r -> r.items().stream()).filter(i -> i.id().equals(key)).map(ModelItem::body).toList();
            }
        }
    }

    private static byte[] ticket(String id, String body) {
        return ("{\"id\":\"" + id + "\",\"subject\":\"Ticket " + id + "\",\"body\":\"" + body + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldAnswerOnlyTheNewestContentOfATicketRepublishedToAnotherRoute() throws Exception {
        RouteSettings a = Fixtures.route("a", 128_000, List.of(), null);
        RouteSettings b = Fixtures.route("b", 128_000, List.of(), null);
        Map<String, RouteSettings> routes = new LinkedHashMap<>();
        routes.put("a", a);
        routes.put("b", b);
        Routing routing = new Routing(routes, "a", Map.of(Priority.INTERACTIVE, "b"), Map.of(), Map.of(), Duration.ZERO);
        // a halted route probes every 2 s, so route a is back soon after its key works again
        RetrySettings retry = new RetrySettings(Duration.ofSeconds(1), Duration.ofMinutes(5), 8, Duration.ofHours(1),
                Duration.ofSeconds(2), Duration.ofSeconds(2));
        DispatcherSettings settings = DispatcherSettings.of(routing, BatchSettings.ofDefaults(), retry, RecordLimits.ofDefaults(),
                it.topics());
        String app = it.topics().prefix() + "quotaflow-republish";
        QuotaflowConfig config = new QuotaflowConfig(it.bootstrapServers(), app, io.quotaflow.testkit.TestDirs.temporary("qf-republish"), -1,
                Map.of(), settings);
        Switchable modelA = new Switchable();
        Switchable modelB = new Switchable();
        modelA.down = true;
        try (Pipeline pipeline = Pipeline.start(config, ModelClients.perScope(r -> r.name().equals("a") ? modelA : modelB));
             OutcomeCounter counter = it.counter();
             KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaClients.properties(it.bootstrapServers(), Map.of()),
                     new StringSerializer(), new ByteArraySerializer())) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            producer.send(new ProducerRecord<>(it.topics().input(Priority.STANDARD), "D-1", ticket("D-1", "Old text: my parcel is late")));
            producer.send(new ProducerRecord<>(it.topics().input(Priority.STANDARD), "X-1", ticket("X-1", "Never republished")));
            producer.flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> !modelA.requests.isEmpty());
            producer.send(new ProducerRecord<>(it.topics().input(Priority.INTERACTIVE), "D-1",
                    ticket("D-1", "New text: my account was hacked")));
            producer.flush();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.results().containsKey("D-1");
            });

            modelA.down = false;
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.results().containsKey("X-1");
            });
            ItSupport.awaitQuiet(Duration.ofSeconds(5), counter);

            JsonNode d1 = Json.MAPPER.readTree(counter.results().get("D-1"));
            assertThat(d1.get("route").asText()).isEqualTo("b");
            assertThat(Json.MAPPER.readTree(counter.results().get("X-1")).get("route").asText()).as("route a is back").isEqualTo("a");
            assertThat(counter.duplicates()).as("one result per ticket").isZero();
            assertThat(modelB.bodiesOf("D-1")).containsExactly("New text: my account was hacked");
            assertThat(modelA.bodiesOf("D-1")).as("route a was asked about the old text only while down")
                    .allSatisfy(body -> assertThat(body).startsWith("Old text"));
            long askedWhileDown = modelA.bodiesOf("D-1").size();
            await("route a is not asked about D-1 again").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                    .until(() -> modelA.bodiesOf("D-1").size() == askedWhileDown);
            assertThat(counter.deadLettered()).isZero();
        }
    }
}

package io.quotaflow.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.llm.ModelClient;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.records.Json;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
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
 * The interactive lane on a real broker (docs/design.md, "Interactive lane"): a ticket published as
 * standard behind a bulk backlog, then again as interactive with new text, reaches its one route
 * twice, by two topics and in either order. It gets one result, for the new text, and the backlog
 * one result a ticket.
 */
class InteractiveLaneIT {

    private static final int BACKLOG = 2_000;

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-lane", 6_000, 2_000_000, 20);

    /** Labels a ticket by its text: "hacked" is security, anything else shipping; records what it was asked. */
    private static final class Labeller implements ModelClient {
        final List<ModelItem> asked = Collections.synchronizedList(new ArrayList<>());
        volatile long firstAskedAboutLane = -1;

        @Override
        public CompletionStage<ModelOutcome> classify(ModelRequest request) {
            asked.addAll(request.items());
            if (firstAskedAboutLane < 0 && request.items().stream().anyMatch(i -> i.id().equals("L-1"))) {
                firstAskedAboutLane = asked.size();
            }
            Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
            request.items().forEach(i -> labels.put(i.id(), new ModelOutcome.Label(i.body().contains("hacked") ? "security" : "shipping",
                    "high")));
            ModelOutcome outcome = new ModelOutcome.Answered(labels, Map.of(), "stop", request.prompt().promptTokens(), 12L * labels.size(),
                    RateLimitInfo.EMPTY, 5);
            return CompletableFuture.supplyAsync(() -> outcome, CompletableFuture.delayedExecutor(5, TimeUnit.MILLISECONDS));
        }

        List<String> bodiesOf(String id) {
            synchronized (asked) {
                return asked.stream().filter(i -> i.id().equals(id)).map(ModelItem::body).toList();
            }
        }
    }

    private static byte[] ticket(String id, String body) {
        return ("{\"id\":\"" + id + "\",\"subject\":\"Ticket " + id + "\",\"body\":\"" + body + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldAnswerTheNewestTextOnceWhenATicketIsPublishedAgainAsInteractiveBehindABacklog() throws Exception {
        QuotaflowConfig config = it.config("quotaflow-lane", QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000),
                RetrySettings.ofDefaults());
        Labeller model = new Labeller();
        try (Pipeline pipeline = Pipeline.start(config, model);
             OutcomeCounter counter = it.counter();
             KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaClients.properties(it.bootstrapServers(), Map.of()),
                     new StringSerializer(), new ByteArraySerializer())) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            for (int i = 0; i < BACKLOG; i++) {
                producer.send(new ProducerRecord<>(it.topics().input(Priority.BULK), "B-" + i, ticket("B-" + i, "Parcel " + i + " is late")));
            }
            producer.send(new ProducerRecord<>(it.topics().input(Priority.STANDARD), "L-1", ticket("L-1", "Old text: where is my parcel")));
            producer.flush();
            producer.send(new ProducerRecord<>(it.topics().input(Priority.INTERACTIVE), "L-1",
                    ticket("L-1", "New text: my account was hacked")));
            producer.flush();
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().size() >= BACKLOG + 1;
            });
            ItSupport.awaitQuiet(Duration.ofSeconds(3), counter);

            assertThat(counter.classifiedIds()).hasSize(BACKLOG + 1);
            assertThat(counter.duplicates()).as("one result per ticket").isZero();
            assertThat(counter.deadLettered()).isZero();
            JsonNode lane = Json.MAPPER.readTree(counter.results().get("L-1"));
            assertThat(lane.get("category").asText()).as("the result is the new text's").isEqualTo("security");
            List<String> bodies = model.bodiesOf("L-1");
            assertThat(bodies).last().isEqualTo("New text: my account was hacked");
            System.out.printf("InteractiveLaneIT: L-1 first asked about after %d of %d tickets, texts asked %s%n",
                    model.firstAskedAboutLane, BACKLOG + 1, bodies);
        }
    }
}

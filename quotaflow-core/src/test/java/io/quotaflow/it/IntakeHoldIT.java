package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.llm.ModelClient;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The hold on intake on a real broker (docs/design.md, "Dispatch first"), set as tight as it goes: a
 * thread holds its inputs while its dispatch partitions lag a single record. Behind a backlog on
 * every input topic, with a second instance joining mid-run (partitions revoked while held), every
 * ticket is answered once and none is lost: the hold orders work, it never stalls it.
 */
class IntakeHoldIT {

    private static final int BULK = 1_500;
    private static final int STANDARD = 500;
    private static final int INTERACTIVE = 20;

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-hold", 6_000, 2_000_000, 20);

    /** Labels every ticket "shipping"; counts the tickets it was asked about. */
    private static final class Labeller implements ModelClient {
        final AtomicInteger asked = new AtomicInteger();

        @Override
        public CompletionStage<ModelOutcome> classify(ModelRequest request) {
            asked.addAndGet(request.items().size());
            Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
            request.items().forEach(i -> labels.put(i.id(), new ModelOutcome.Label("shipping", "low")));
            ModelOutcome outcome = new ModelOutcome.Answered(labels, Map.of(), "stop", request.prompt().promptTokens(), 12L * labels.size(),
                    RateLimitInfo.EMPTY, 5);
            return CompletableFuture.supplyAsync(() -> outcome, CompletableFuture.delayedExecutor(5, TimeUnit.MILLISECONDS));
        }
    }

    private static byte[] ticket(String id) {
        return ("{\"id\":\"" + id + "\",\"subject\":\"Ticket " + id + "\",\"body\":\"Parcel " + id + " is late\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldAnswerEveryTicketOnceWithTheTightestHoldWhileASecondInstanceJoins() throws Exception {
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000);
        QuotaflowConfig first = it.config("quotaflow-hold", quota, RetrySettings.ofDefaults()).withIntakeHoldLag(1);
        QuotaflowConfig second = it.config("quotaflow-hold", quota, RetrySettings.ofDefaults()).withIntakeHoldLag(1);
        Labeller model = new Labeller();
        int total = BULK + STANDARD + INTERACTIVE;
        try (Pipeline a = Pipeline.start(first, model);
             OutcomeCounter counter = it.counter();
             KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaClients.properties(it.bootstrapServers(), Map.of()),
                     new StringSerializer(), new ByteArraySerializer())) {
            assertThat(a.awaitRunning(Duration.ofSeconds(60))).isTrue();
            for (int i = 0; i < BULK; i++) {
                producer.send(new ProducerRecord<>(it.topics().input(Priority.BULK), "B-" + i, ticket("B-" + i)));
            }
            for (int i = 0; i < STANDARD; i++) {
                producer.send(new ProducerRecord<>(it.topics().input(Priority.STANDARD), "S-" + i, ticket("S-" + i)));
            }
            for (int i = 0; i < INTERACTIVE; i++) {
                producer.send(new ProducerRecord<>(it.topics().input(Priority.INTERACTIVE), "I-" + i, ticket("I-" + i)));
            }
            producer.flush();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return !counter.classifiedIds().isEmpty();
            });
            long holds;
            try (Pipeline b = Pipeline.start(second, model)) {
                // a timeout says how far the run got: a stall shows as a count that stopped, a slow machine as one still rising
                await().atMost(Duration.ofSeconds(150)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                    counter.poll(Duration.ofMillis(100));
                    assertThat(counter.classifiedIds().size()).as("classified of %d (asked %d; holds %d and %d; dead-lettered %d)", total,
                            model.asked.get(), a.metrics().intakeHoldCount(), b.metrics().intakeHoldCount(), counter.deadLettered())
                            .isGreaterThanOrEqualTo(total);
                });
                ItSupport.awaitQuiet(Duration.ofSeconds(3), counter);
                holds = a.metrics().intakeHoldCount() + b.metrics().intakeHoldCount();
            }

            assertThat(counter.classifiedIds()).hasSize(total);
            assertThat(counter.duplicates()).as("one result per ticket").isZero();
            assertThat(counter.deadLettered()).isZero();
            assertThat(holds).as("the hold held intake while the dispatchers read").isPositive();
            assertThat(model.asked.get()).as("each ticket asked about at least once").isGreaterThanOrEqualTo(total);
        }
    }
}

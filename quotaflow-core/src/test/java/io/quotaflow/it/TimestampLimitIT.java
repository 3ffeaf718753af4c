package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.llm.ModelClient;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * On a cluster that refuses records more than ten minutes old ({@code log.message.timestamp.before.max.ms}),
 * interactive tickets go through: the interactive lanes date them an hour early to be read first
 * (docs/design.md, "Interactive lane"), but every record quotaflow writes, changelogs included,
 * carries the wall clock, so the broker refuses none.
 */
class TimestampLimitIT {

    private static final String KEY = "sk-it-timestamps";
    private static final int TICKETS = 90;

    /** Answers every ticket at once with one label. */
    private static final class Answerer implements ModelClient {
        @Override
        public CompletionStage<ModelOutcome> classify(ModelRequest request) {
            Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
            request.items().forEach(i -> labels.put(i.id(), new ModelOutcome.Label("shipping", "high")));
            return CompletableFuture.completedFuture(new ModelOutcome.Answered(labels, Map.of(), "stop",
                    request.prompt().promptTokens(), 12L * labels.size(), RateLimitInfo.EMPTY, 5));
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldClassifyInteractiveTicketsOnABrokerThatRefusesRecordsTenMinutesOld() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(0, null, Map.of("log.message.timestamp.before.max.ms", "600000"));
             ProviderSimulator sim = ProviderSimulator.start(SimulatorConfig.builder().port(0).apiKeys(Set.of(KEY)).build())) {
            TopicNames topics = ItSupport.applyTopics(broker, "ts.");
            QuotaflowConfig config = ItSupport.config(broker, sim, KEY, topics, "ts.quotaflow-timestamps",
                    QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000), RetrySettings.ofDefaults());
            try (Pipeline pipeline = Pipeline.start(config, new Answerer());
                 OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of(), topics.prefix())) {
                assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
                // a third of them interactive (ItSupport.publish rotates interactive, standard, bulk)
                Set<String> keys = ItSupport.publish(broker, topics, "TS", TICKETS);
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    counter.poll(Duration.ofMillis(100));
                    return counter.classifiedIds().size() + counter.deadLettered() >= TICKETS;
                });
                ItSupport.awaitQuiet(Duration.ofSeconds(2), counter);

                assertThat(counter.classifiedIds()).containsExactlyInAnyOrderElementsOf(keys);
                assertThat(counter.deadLettered()).isZero();
                assertThat(counter.duplicates()).isZero();
                assertThat(pipeline.streams().state()).isEqualTo(KafkaStreams.State.RUNNING);

                // the interactive third went over the dispatcher's interactive lane, dated an hour early there
                try (Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
                    String lane = config.applicationId() + "-dispatch-interactive-repartition";
                    Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
                    for (int p = 0; p < ItSupport.IT_PARTITIONS; p++) {
                        ends.put(new TopicPartition(lane, p), OffsetSpec.latest());
                    }
                    long laneRecords = admin.listOffsets(ends).all().get(30, TimeUnit.SECONDS).values().stream()
                            .mapToLong(ListOffsetsResult.ListOffsetsResultInfo::offset).sum();
                    assertThat(laneRecords).as("records and transaction markers on the lane").isGreaterThanOrEqualTo(TICKETS / 3);
                }
            }
        }
    }
}

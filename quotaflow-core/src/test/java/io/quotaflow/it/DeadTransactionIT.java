package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.testkit.EmbeddedKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A transaction a dead instance of the application left open (a Kafka Streams producer's id, never
 * committed) is ended by a live instance once it is past its timeout, while that instance rebalances
 * (its start is a rebalance), on a broker whose own scan for timed-out transactions would not run for
 * an hour (io.quotaflow.admin.TimedOutTransactions).
 */
class DeadTransactionIT {

    private static final String KEY = "sk-it-dead-txn";

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldEndADeadInstancesTimedOutTransactionWhileRebalancing() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(0, null, EmbeddedKafkaBroker.SLOW_TRANSACTION_SCAN);
             ProviderSimulator sim = ProviderSimulator.start(SimulatorConfig.builder().port(0).apiKeys(Set.of(KEY)).build());
             Admin admin = io.quotaflow.admin.KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
            TopicNames topics = ItSupport.applyTopics(broker, "dt.");
            QuotaflowConfig config = ItSupport.config(broker, sim, KEY, topics, "dt.quotaflow-dead-txn", QuotaSettings.ofDefaults(),
                    RetrySettings.ofDefaults());
            String dead = config.applicationId() + "-" + UUID.randomUUID() + "-1";
            try (KafkaProducer<String, String> producer = io.quotaflow.testkit.OpenTransaction.open(broker.bootstrapServers(), dead, 1_000,
                    new org.apache.kafka.common.TopicPartition(topics.classified(), 0))) {
                try (Pipeline pipeline = Pipeline.start(config)) {
                    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                            assertThat(admin.describeTransactions(List.of(dead)).all().get(10, TimeUnit.SECONDS).get(dead).state())
                                    .isNotEqualTo(TransactionState.ONGOING));
                }
            }
        }
    }
}

package io.quotaflow.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Only the two expected warnings are dropped; reconnects, missing topics and other produce errors stay. */
class ExpectedKafkaWarningsTest {

    private static final String CONSUMER = "[Consumer instanceId=app-vm-1, clientId=app-1-StreamThread-1-consumer, groupId=app] ";
    private static final String PRODUCER = "[Producer clientId=app-1-StreamThread-1-producer, transactionalId=app-1-1] ";

    private final LoggerContext context = new LoggerContext();
    private final ExpectedKafkaWarnings filter = new ExpectedKafkaWarnings();

    private FilterReply decide(String logger, Level level, String message) {
        return filter.decide(null, context.getLogger(logger), level, message, null, null);
    }

    @Test
    void shouldDropTheFirstStartsUnknownInternalTopics() {
        assertThat(decide(ExpectedKafkaWarnings.NETWORK_CLIENT, Level.WARN, CONSUMER + "The metadata response from the cluster reported "
                + "a recoverable issue with correlation id 2 : {app-dispatch-repartition=UNKNOWN_TOPIC_OR_PARTITION, "
                + "app-qf-status-changelog=UNKNOWN_TOPIC_OR_PARTITION}")).isEqualTo(FilterReply.DENY);
    }

    @Test
    void shouldKeepAnUnknownInputTopicAndEveryOtherNetworkWarning() {
        assertThat(decide(ExpectedKafkaWarnings.NETWORK_CLIENT, Level.WARN, CONSUMER + "The metadata response from the cluster reported "
                + "a recoverable issue with correlation id 2 : {app-dispatch-repartition=UNKNOWN_TOPIC_OR_PARTITION, "
                + "tickets.standard=UNKNOWN_TOPIC_OR_PARTITION}")).isEqualTo(FilterReply.NEUTRAL);
        assertThat(decide(ExpectedKafkaWarnings.NETWORK_CLIENT, Level.WARN, CONSUMER + "The metadata response from the cluster reported "
                + "a recoverable issue with correlation id 7 : {app-dispatch-repartition=TOPIC_AUTHORIZATION_FAILED}"))
                .isEqualTo(FilterReply.NEUTRAL);
        assertThat(decide(ExpectedKafkaWarnings.NETWORK_CLIENT, Level.WARN, "[AdminClient clientId=quotaflow-check] Connection to node -1 "
                + "(/127.0.0.1:9092) could not be established. Node may not be available.")).isEqualTo(FilterReply.NEUTRAL);
    }

    @Test
    void shouldDropOnlyTheCommitRacesOfTheProducer() {
        assertThat(decide(ExpectedKafkaWarnings.SENDER, Level.WARN, PRODUCER + "Got error produce response with correlation id 41 on "
                + "topic-partition tickets.classified-3, retrying (2147483646 attempts left). Error: CONCURRENT_TRANSACTIONS"))
                .isEqualTo(FilterReply.DENY);
        assertThat(decide(ExpectedKafkaWarnings.SENDER, Level.WARN, PRODUCER + "Got error produce response with correlation id 42 on "
                + "topic-partition tickets.classified-3, retrying (2147483646 attempts left). Error: OUT_OF_ORDER_SEQUENCE_NUMBER"))
                .isEqualTo(FilterReply.DENY);
        assertThat(decide(ExpectedKafkaWarnings.SENDER, Level.WARN, PRODUCER + "Got error produce response with correlation id 43 on "
                + "topic-partition tickets.classified-3, retrying (2147483646 attempts left). Error: NOT_ENOUGH_REPLICAS"))
                .isEqualTo(FilterReply.NEUTRAL);
        assertThat(decide(ExpectedKafkaWarnings.SENDER, Level.ERROR, PRODUCER + "Got error produce response with correlation id 44 on "
                + "topic-partition tickets.classified-3, retrying (1 attempts left). Error: CONCURRENT_TRANSACTIONS"))
                .as("only WARN lines").isEqualTo(FilterReply.NEUTRAL);
    }

    @Test
    void shouldFormatAMessageThatComesWithItsArguments() {
        assertThat(filter.decide(null, context.getLogger(ExpectedKafkaWarnings.SENDER), Level.WARN,
                "Got error produce response with correlation id {} on topic-partition {}, retrying ({} attempts left). Error: {}",
                new Object[] {41, "t-3", 5, "CONCURRENT_TRANSACTIONS"}, null)).isEqualTo(FilterReply.DENY);
        assertThat(decide("org.apache.kafka.clients.producer.KafkaProducer", Level.WARN, "Error: CONCURRENT_TRANSACTIONS"))
                .isEqualTo(FilterReply.NEUTRAL);
    }
}

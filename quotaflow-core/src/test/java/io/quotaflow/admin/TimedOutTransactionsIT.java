package io.quotaflow.admin;

import io.quotaflow.testkit.EmbeddedKafkaBroker;
import io.quotaflow.testkit.OpenTransaction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * On a broker whose own scan for timed-out transactions would not run for an hour: only this
 * application's transactions past their timeout are ended, and a {@code read_committed} reader
 * then reads past them.
 */
class TimedOutTransactionsIT {

    private static final String APP = "acme-qf";

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldEndOnlyThisApplicationsTransactionsPastTheirTimeout() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(0, null, EmbeddedKafkaBroker.SLOW_TRANSACTION_SCAN);
             Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
            admin.createTopics(List.of(new NewTopic("changelog", 1, (short) 1), new NewTopic("replayed", 1, (short) 1))).all()
                    .get(30, TimeUnit.SECONDS);
            TopicPartition changelog = new TopicPartition("changelog", 0);
            try (KafkaProducer<String, String> dead = openTransaction(broker, APP + "-0b7e3c1a-4d2f-4e8a-9b1c-2d3e4f5a6b7c-1", 1_000, changelog);
                 KafkaProducer<String, String> otherApp = openTransaction(broker, "globex-qf-1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f-1", 1_000, changelog);
                 // not a Kafka Streams producer of the application, though its id starts alike (a dlq replay's)
                 KafkaProducer<String, String> replay = openTransaction(broker, APP + "-dlq-replay-g1", 1_000, new TopicPartition("replayed", 0))) {
                Thread.sleep(2_200);
                try (KafkaProducer<String, String> live = openTransaction(broker, APP + "-9f3a2b1c-0d9e-4f8a-b7c6-d5e4f3a2b1c0-1", 60_000, changelog)) {
                    long end = offset(admin, changelog, IsolationLevel.READ_UNCOMMITTED);
                    assertThat(offset(admin, changelog, IsolationLevel.READ_COMMITTED)).as("held by the open transactions").isZero();

                    List<String> ended = new TimedOutTransactions(admin, APP, Duration.ofSeconds(10)).abortTimedOut().ended();

                    assertThat(ended).containsExactly(APP + "-0b7e3c1a-4d2f-4e8a-9b1c-2d3e4f5a6b7c-1");
                    // the other application's timed-out transaction is left to the broker; our live one is untouched
                    assertThat(new TimedOutTransactions(admin, APP, Duration.ofSeconds(10)).abortTimedOut().ended()).isEmpty();
                    live.commitTransaction();
                    // past ours, which is ended, up to the other application's first record, which is still open
                    assertThat(offset(admin, changelog, IsolationLevel.READ_COMMITTED)).as("still held by the other application's")
                            .isEqualTo(1);
                    new TimedOutTransactions(admin, "globex-qf", Duration.ofSeconds(10)).abortTimedOut();
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                            assertThat(offset(admin, changelog, IsolationLevel.READ_COMMITTED)).isGreaterThanOrEqualTo(end));
                }
            }
        }
    }

    /**
     * This host's clock an hour ahead of the broker's (a VM resumed, an NTP step): a live producer's transaction, a
     * second or two old and well within its 5 s timeout, is not ended, while one genuinely stuck past its timeout is.
     */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldEndNothingLiveWhileThisHostsClockIsAnHourAhead() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(0, null, EmbeddedKafkaBroker.SLOW_TRANSACTION_SCAN);
             Admin admin = KafkaClients.admin(broker.bootstrapServers(), Map.of())) {
            admin.createTopics(List.of(new NewTopic("changelog", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            TopicPartition changelog = new TopicPartition("changelog", 0);
            String stuckId = APP + "-0b7e3c1a-4d2f-4e8a-9b1c-2d3e4f5a6b7c-1";
            String liveId = APP + "-9f3a2b1c-0d9e-4f8a-b7c6-d5e4f3a2b1c0-1";
            try (KafkaProducer<String, String> stuck = openTransaction(broker, stuckId, 1_000, changelog)) {
                Thread.sleep(1_000);
                try (KafkaProducer<String, String> live = openTransaction(broker, liveId, 5_000, changelog)) {
                    Thread.sleep(1_300);
                    TimedOutTransactions.Watch watch = new TimedOutTransactions.Watch(new TimedOutTransactions(admin, APP,
                            Duration.ofSeconds(10)), () -> { }, new SkewedTime(Duration.ofHours(1)), false);
                    watch.stateChanged(org.apache.kafka.streams.KafkaStreams.State.REBALANCING);

                    TimedOutTransactions.Sweep sweep = watch.tick();

                    assertThat(sweep.status()).isEqualTo(TimedOutTransactions.Sweep.Status.LOOKED);
                    assertThat(sweep.ended()).containsExactly(stuckId);
                    assertThat(admin.describeTransactions(List.of(liveId)).all().get(10, TimeUnit.SECONDS).get(liveId).state())
                            .as("the live transaction is still open").isEqualTo(org.apache.kafka.clients.admin.TransactionState.ONGOING);
                    live.send(new org.apache.kafka.clients.producer.ProducerRecord<>("changelog", 0, "k", "after")).get(10, TimeUnit.SECONDS);
                    live.commitTransaction(); // a fenced producer would throw here
                    assertThat(watch.tick().ended()).as("a second look an hour ahead ends nothing either").isEmpty();
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                            assertThat(offset(admin, changelog, IsolationLevel.READ_COMMITTED))
                                    .isEqualTo(offset(admin, changelog, IsolationLevel.READ_UNCOMMITTED)));
                }
            }
        }
    }

    /** The system clock shifted by {@code skew}, both wall and monotonic. */
    private record SkewedTime(Duration skew) implements org.apache.kafka.common.utils.Time {
        @Override
        public long milliseconds() {
            return System.currentTimeMillis() + skew.toMillis();
        }

        @Override
        public long nanoseconds() {
            return System.nanoTime() + skew.toNanos();
        }

        @Override
        public void sleep(long ms) {
            org.apache.kafka.common.utils.Utils.sleep(ms);
        }
    }

    private static KafkaProducer<String, String> openTransaction(EmbeddedKafkaBroker broker, String transactionalId, int timeoutMs,
                                                                TopicPartition partition) throws Exception {
        return OpenTransaction.open(broker.bootstrapServers(), transactionalId, timeoutMs, partition);
    }

    private static long offset(Admin admin, TopicPartition partition, IsolationLevel isolation) throws Exception {
        return admin.listOffsets(Map.of(partition, OffsetSpec.latest()), new ListOffsetsOptions(isolation)).all()
                .get(30, TimeUnit.SECONDS).get(partition).offset();
    }
}

package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.records.Priority;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Tombstones cancel waiting tickets exactly once on a real broker (docs/design.md, "Cancellation"). */
class CancelIT {

    /** 60 calls a minute: a 200-ticket bulk backlog waits long enough to be cancelled from. */
    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-cancel", 60, 1_000_000, 20);

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldCancelWaitingTicketsExactlyOnceAndClassifyTheRest() throws Exception {
        Set<String> kept = new LinkedHashSet<>();
        Set<String> cancelled = new LinkedHashSet<>();
        try (Pipeline pipeline = Pipeline.start(it.config("quotaflow-cancel", QuotaSettings.ofDefaults().withRpm(60).withTpm(1_000_000),
                RetrySettings.ofDefaults()));
             OutcomeCounter counter = it.counter();
             KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaClients.properties(it.bootstrapServers(), Map.of()),
                     new StringSerializer(), new ByteArraySerializer())) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            for (int i = 0; i < 200; i++) {
                String id = "C-" + i;
                (i >= 180 ? cancelled : kept).add(id);
                producer.send(new ProducerRecord<>(it.topics().input(Priority.BULK), id, ("{\"id\":\"" + id + "\",\"subject\":\"Parcel " + id
                        + " late\",\"body\":\"Where is parcel " + id + "?\"}").getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
            for (String id : cancelled) {
                producer.send(new ProducerRecord<>(it.topics().input(Priority.BULK), id, null));
            }
            // a second tombstone for the same ids and one for an id nobody published change nothing
            for (String id : cancelled) {
                producer.send(new ProducerRecord<>(it.topics().input(Priority.BULK), id, null));
            }
            producer.send(new ProducerRecord<>(it.topics().input(Priority.STANDARD), "NOBODY", null));
            producer.flush();

            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(kept);
            });
            ItSupport.awaitQuiet(Duration.ofSeconds(3), counter);

            assertThat(counter.classifiedIds()).isEqualTo(kept);
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).as("a tombstone is not bad input").isZero();
            assertThat(pipeline.metrics().cancelledCount()).as("each cancelled once").isEqualTo(cancelled.size());
            assertThat(it.sim.stats().http429()).isZero();
            System.out.printf("CancelIT: 200 tickets, %d cancelled while waiting (41 tombstones), %d classified, 0 dead letters%n",
                    pipeline.metrics().cancelledCount(), counter.classified());
        }
    }
}

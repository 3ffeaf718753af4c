package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.records.Priority;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;


import static io.quotaflow.it.TenantIsolationIT.deadLetters;
import static io.quotaflow.it.TenantIsolationIT.ticket;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A cancel that arrives while the ticket's call is out ends the ticket when that call fails (docs/design.md, "Cancellation"). */
class CancelInFlightIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-cancel-out", 6_000, 2_000_000, 20);

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldEndATicketCancelledWhileItsCallWasOutWhenThatCallFails() throws Exception {
        TenantIsolationIT.Scripted model = new TenantIsolationIT.Scripted();
        try (Pipeline pipeline = Pipeline.start(it.config("quotaflow-cancel-out", QuotaSettings.ofDefaults().withRpm(6_000)
                        .withTpm(2_000_000), RetrySettings.ofDefaults()), ModelClients.of(model));
             OutcomeCounter counter = it.counter();
             KafkaProducer<String, byte[]> producer = new KafkaProducer<>(KafkaClients.properties(it.bootstrapServers(), Map.of()),
                     new StringSerializer(), new ByteArraySerializer())) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            String interactive = it.topics().input(Priority.INTERACTIVE);
            producer.send(new ProducerRecord<>(interactive, "acme:F-1", ticket("acme", "F-1", "[hold] [fail] flaky")));
            producer.flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> model.asked("acme:F-1") == 1);
            producer.send(new ProducerRecord<>(interactive, "acme:F-2", ticket("acme", "F-2", "answered normally")));
            producer.send(new ProducerRecord<>(interactive, "acme:F-1", null));
            producer.flush();
            Thread.sleep(2_000);
            model.release();

            await().atMost(Duration.ofSeconds(30)).until(() -> pipeline.metrics().cancelledCount() == 1);
            // longer than the first retry's backoff: a retry would have been asked by then
            await("acme:F-1 is not retried").during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10))
                    .until(() -> model.asked("acme:F-1") == 1);
            counter.poll(Duration.ofSeconds(1));
            assertThat(counter.results()).doesNotContainKey("acme:F-1");
            assertThat(counter.classifiedIds()).as("the other ticket is answered as usual").contains("acme:F-2");
            assertThat(deadLetters(it)).doesNotContainKey("acme:F-1");
        }
    }
}

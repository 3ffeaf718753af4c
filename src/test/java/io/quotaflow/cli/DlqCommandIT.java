package io.quotaflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.testing.KafkaBrokerExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code quotaflow dlq stats|replay} end to end on the shared broker. */
@ExtendWith(KafkaBrokerExtension.class)
class DlqCommandIT {

    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void shouldPrintStatsThenDryRunThenReplayTheSelectedKeys() throws Exception {
        String bootstrap = KafkaBrokerExtension.bootstrapServers();
        try (Admin admin = KafkaBrokerExtension.admin()) {
            TopicsApplier.bundled().apply(admin);
        }
        String prefix = KafkaBrokerExtension.uniqueName("cli-dlq");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 3; i++) {
                RecordHeaders h = new RecordHeaders();
                h.add(FailureHeaders.ERROR_KIND, "retries-exhausted".getBytes(StandardCharsets.UTF_8));
                h.add(FailureHeaders.ERROR_STATUS, "503".getBytes(StandardCharsets.UTF_8));
                h.add(FailureHeaders.ERROR_MESSAGE, ("HTTP 503 " + prefix).getBytes(StandardCharsets.UTF_8));
                h.add(FailureHeaders.ORIGIN_TOPIC, "tickets.bulk".getBytes(StandardCharsets.UTF_8));
                producer.send(new ProducerRecord<>("tickets.dlq", null, (prefix + "-" + i).getBytes(StandardCharsets.UTF_8),
                        ("{\"id\":\"" + prefix + "-" + i + "\",\"body\":\"x\"}").getBytes(StandardCharsets.UTF_8), h));
            }
            producer.flush();
        }

        CommandRun stats = CommandRun.of(new DlqCommand(), "stats", "--bootstrap-servers", bootstrap, "--json");
        assertThat(stats.exitCode()).as(stats.err()).isZero();
        JsonNode report = mapper.readTree(stats.out());
        assertThat(report.path("total").asLong()).isGreaterThanOrEqualTo(3);
        assertThat(report.path("byOriginTopic").path("tickets.bulk").asLong()).isGreaterThanOrEqualTo(3);

        CommandRun table = CommandRun.of(new DlqCommand(), "stats", "--bootstrap-servers", bootstrap);
        assertThat(table.exitCode()).isZero();
        assertThat(table.out()).startsWith("tickets.dlq: ").contains("error kind", "origin topic", "top error messages");

        String group = KafkaBrokerExtension.uniqueName("cli-replay");
        String[] select = {"--bootstrap-servers", bootstrap, "--group", group, "--key", prefix + "-0", "--key",
                prefix + "-2", "--rate", "0"};
        CommandRun dry = CommandRun.of(new DlqCommand(), concat(new String[] {"replay", "--dry-run"}, select));
        assertThat(dry.exitCode()).as(dry.err()).isZero();
        assertThat(dry.out()).startsWith("Dry run complete").containsPattern("would be replayed +2\n")
                .containsPattern("tickets.bulk +2\n");
        assertThat(dry.err()).contains("Dry run of a replay of tickets.dlq (group " + group);

        CommandRun real = CommandRun.of(new DlqCommand(), concat(new String[] {"replay", "--json"}, select));
        assertThat(real.exitCode()).as(real.err()).isZero();
        JsonNode summary = mapper.readTree(real.out());
        assertThat(summary.path("outcome").asText()).isEqualTo("completed");
        assertThat(summary.path("replayed").asLong()).isEqualTo(2);
        assertThat(summary.path("replayedByTopic").path("tickets.bulk").asLong()).isEqualTo(2);

        CommandRun again = CommandRun.of(new DlqCommand(), concat(new String[] {"replay", "--json"}, select));
        assertThat(mapper.readTree(again.out()).path("replayed").asLong()).as("the group's offsets moved on").isZero();

        CommandRun missing = CommandRun.of(new DlqCommand(), "stats", "--bootstrap-servers", bootstrap, "--topic",
                KafkaBrokerExtension.uniqueName("absent"));
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("does not exist");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}

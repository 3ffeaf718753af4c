package io.quotaflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testkit.KafkaBrokerExtension;
import io.quotaflow.testkit.RecordingReporter;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code publish} tells where each ticket went and {@code cancel} writes tombstones, both under a
 * {@code topics.prefix}, checked against what a consumer reads at the positions they printed.
 */
@ExtendWith(KafkaBrokerExtension.class)
@ResourceLock(RecordingReporter.LOCK)
class IntakeCommandsIT {

    private static final Pattern POSITION = Pattern.compile("(\\S+)-(\\d+)@(\\d+)");
    private static String prefix;

    @BeforeAll
    static void topics() {
        prefix = KafkaBrokerExtension.uniqueName("intake") + ".";
        CommandRun apply = run(Map.of(), "topics", "apply");
        assertThat(apply.exitCode()).as(apply.err()).isZero();
    }

    private static CommandRun run(Map<String, String> extraEnv, String... args) {
        java.util.HashMap<String, String> env = new java.util.HashMap<>(extraEnv);
        env.put("QUOTAFLOW_BOOTSTRAP_SERVERS", KafkaBrokerExtension.bootstrapServers());
        env.putIfAbsent("QUOTAFLOW_TOPICS_PREFIX", prefix);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), env, args);
        return new CommandRun(code, out.toString().replace(System.lineSeparator(), "\n"),
                err.toString().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void shouldPrintIdTopicPartitionAndOffsetOfEachTicketAsAConsumerReadsIt(@TempDir Path dir) throws Exception {
        List<String> lines = List.of(Fixtures.ticketJson("ACK-1", "interactive", "acme", "card declined"),
                "not json",
                Fixtures.ticketJson("ACK-2", "bulk", "acme", "refund please"),
                Fixtures.ticketJson("ACK-3", "standard", "globex", "login loop"));
        Path file = Files.writeString(dir.resolve("t.jsonl"), String.join("\n", lines) + "\n");

        CommandRun json = run(Map.of(), "publish", "--file", file.toString(), "--json");
        CommandRun text = run(Map.of(), "publish", "--file", file.toString());

        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.err()).contains("line 2: not JSON").contains("published 3 tickets");
        String[] printed = json.out().split("\n");
        assertThat(printed).hasSize(3);
        List<String> ids = new ArrayList<>();
        for (String line : printed) {
            JsonNode ack = new ObjectMapper().readTree(line);
            String id = ack.get("id").asText();
            ids.add(id);
            ConsumerRecord<String, byte[]> record = read(ack.get("topic").asText(), ack.get("partition").asInt(),
                    ack.get("offset").asLong());
            assertThat(record.key()).isEqualTo(ack.get("key").asText()).isEqualTo(ack.get("tenant").asText() + ":" + id);
            String expected = lines.stream().filter(l -> l.contains("\"" + id + "\"")).findFirst().orElseThrow();
            assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo(expected);
        }
        assertThat(ids).containsExactlyInAnyOrder("ACK-1", "ACK-2", "ACK-3");
        assertThat(new ObjectMapper().readTree(printed[0]).get("topic").asText()).isIn(
                prefix + "tickets.interactive", prefix + "tickets.bulk", prefix + "tickets.standard");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out().split("\n")).hasSize(3).allSatisfy(line ->
                assertThat(line).matches("accepted (acme|globex):ACK-[123] " + Pattern.quote(prefix) + "tickets\\.\\w+-\\d+@\\d+"));
        Matcher m = POSITION.matcher(text.out().lines().filter(l -> l.contains("ACK-2")).findFirst().orElseThrow());
        assertThat(m.find()).isTrue();
        assertThat(m.group(1)).isEqualTo(prefix + "tickets.bulk");
        assertThat(read(m.group(1), Integer.parseInt(m.group(2)), Long.parseLong(m.group(3))).key()).isEqualTo("acme:ACK-2");
    }

    @Test
    void shouldWriteNullValuedRecordsKeyedByIdToAllThreePriorityTopics() {
        CommandRun cancel = run(Map.of(), "cancel", "C-1", "C-2");

        assertThat(cancel.exitCode()).as(cancel.err()).isZero();
        assertThat(cancel.err()).contains("wrote tombstones for 2 ids to " + prefix + "tickets.interactive, "
                + prefix + "tickets.standard, " + prefix + "tickets.bulk");
        String[] printed = cancel.out().split("\n");
        assertThat(printed).hasSize(2);
        assertTombstones(printed[0], "C-1", "interactive", "standard", "bulk");
        assertTombstones(printed[1], "C-2", "interactive", "standard", "bulk");
    }

    @Test
    void shouldWriteOnlyToTheGivenPriorityTopicWithIdsFromStandardInput() {
        CancelCommand command = new CancelCommand();
        command.stdin = new ByteArrayInputStream("S-1\n\nS-2\n".getBytes(StandardCharsets.UTF_8));

        CommandRun cancel = CommandRun.of(command, "--bootstrap-servers", KafkaBrokerExtension.bootstrapServers(),
                "--topics-prefix", prefix, "--priority", "bulk", "-");

        assertThat(cancel.exitCode()).as(cancel.err()).isZero();
        String[] printed = cancel.out().split("\n");
        assertThat(printed).hasSize(2);
        assertTombstones(printed[0], "S-1", "bulk");
        assertTombstones(printed[1], "S-2", "bulk");
    }

    @Test
    void shouldHandKafkaPropertiesFromTheEnvironmentToCancelsClients() {
        RecordingReporter.clear();

        CommandRun cancel = run(Map.of("QUOTAFLOW_KAFKA_METRIC_REPORTERS", RecordingReporter.class.getName()),
                "cancel", "--priority", "standard", "K-1");

        assertThat(cancel.exitCode()).as(cancel.err()).isZero();
        assertThat(RecordingReporter.seen()).contains(new RecordingReporter.Seen("kafka.producer", "quotaflow-cancel"));
        assertThat(RecordingReporter.seen()).extracting(RecordingReporter.Seen::namespace).contains("kafka.admin.client");
    }

    @Test
    void shouldFailWithoutWritingWhenThePrefixedTopicsDoNotExist() {
        CommandRun cancel = run(Map.of("QUOTAFLOW_TOPICS_PREFIX", "nobody-here."), "cancel", "X-1");

        assertThat(cancel.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(cancel.err()).contains("cancel: no such topic: nobody-here.tickets.interactive");
        assertThat(cancel.out()).isEmpty();
    }

    /** {@code line} is {@code tombstone ID pos...}, one position per priority, each a null-valued record keyed ID. */
    private static void assertTombstones(String line, String id, String... priorities) {
        String[] parts = line.split(" ");
        assertThat(parts[0]).isEqualTo("tombstone");
        assertThat(parts[1]).isEqualTo(id);
        assertThat(parts).hasSize(2 + priorities.length);
        for (int i = 0; i < priorities.length; i++) {
            Matcher m = POSITION.matcher(parts[2 + i]);
            assertThat(m.matches()).as(parts[2 + i]).isTrue();
            assertThat(m.group(1)).isEqualTo(prefix + "tickets." + priorities[i]);
            ConsumerRecord<String, byte[]> record = read(m.group(1), Integer.parseInt(m.group(2)),
                    Long.parseLong(m.group(3)));
            assertThat(record.key()).isEqualTo(id);
            assertThat(record.value()).isNull();
        }
    }

    /** The record at {@code topic-partition@offset}, read by a plain consumer. */
    private static ConsumerRecord<String, byte[]> read(String topic, int partition, long offset) {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaBrokerExtension.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, partition);
            consumer.assign(List.of(tp));
            consumer.seek(tp, offset);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.offset() == offset) {
                        return record;
                    }
                }
            }
        }
        throw new AssertionError("no record at " + topic + "-" + partition + "@" + offset);
    }
}

package io.quotaflow.publish;

import io.quotaflow.records.Priority;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import io.quotaflow.testkit.DemoDataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TicketPublisherTest {

    private static final String INPUT = String.join("\n",
            "{\"id\":\"T-1\",\"body\":\"a\",\"priority\":\"interactive\"}",
            "",
            "not json at all",
            "{\"id\":\"T-2\",\"subject\":\"Olá\",\"priority\":\"bulk\"}",
            "[1,2]",
            "{\"id\":\"T-3\",\"body\":\"c\",\"priority\":\"urgent\"}",
            "{\"body\":\"no id\"}",
            "{\"id\":\"T-4\",\"body\":\"d\"}") + "\n";

    private final MockProducer<String, byte[]> producer =
            new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
    private final List<LineIssue> issues = new ArrayList<>();
    private final List<PublishProgress> progress = new ArrayList<>();

    private PublishSummary publish(String input, Optional<Priority> override, boolean sendInvalid) {
        try (TicketPublisher publisher = new TicketPublisher(producer)) {
            return publisher.publish(new StringReader(input), override, sendInvalid, progress::add, issues::add);
        }
    }

    @Test
    void shouldPublishValidLinesAsOriginalBytesKeyedById() {
        PublishSummary summary = publish(INPUT, Optional.empty(), false);

        assertThat(producer.history()).extracting(ProducerRecord::key).containsExactly("T-1", "T-2", "T-3", "T-4");
        assertThat(producer.history()).extracting(ProducerRecord::topic)
                .containsExactly("tickets.interactive", "tickets.bulk", "tickets.standard", "tickets.standard");
        assertThat(new String(producer.history().get(1).value(), StandardCharsets.UTF_8))
                .isEqualTo("{\"id\":\"T-2\",\"subject\":\"Olá\",\"priority\":\"bulk\"}");
        assertThat(summary.tickets()).isEqualTo(4);
        assertThat(summary.perPriority())
                .containsExactly(Map.entry(Priority.INTERACTIVE, 1L), Map.entry(Priority.STANDARD, 2L),
                        Map.entry(Priority.BULK, 1L));
        assertThat(summary.succeeded()).isTrue();
        assertThat(producer.flushed()).isTrue();
    }

    @Test
    void shouldReportInvalidLinesWithLineNumbersAndSkipThem() {
        PublishSummary summary = publish(INPUT, Optional.empty(), false);

        assertThat(issues).extracting(LineIssue::describe).containsExactly(
                "line 3: not JSON: Unrecognized token 'not' (skipped)",
                "line 5: not a JSON object (skipped)",
                "line 6: unknown priority \"urgent\" (sent to tickets.standard)",
                "line 7: missing id (skipped)");
        assertThat(summary.lines()).isEqualTo(8);
        assertThat(summary.invalid()).isEqualTo(3);
        assertThat(summary.skipped()).isEqualTo(3);
        assertThat(summary.warnings()).isEqualTo(1);
        assertThat(summary.issues()).hasSize(4);
        assertThat(summary.describe()).startsWith("published 4 tickets in ")
                .endsWith("(interactive 1, standard 2, bulk 1); 3 lines invalid (skipped); 1 warning");
    }

    @Test
    void shouldSendInvalidLinesUnchangedWhenAsked() {
        PublishSummary summary = publish(INPUT, Optional.empty(), true);

        assertThat(producer.history()).extracting(ProducerRecord::key)
                .containsExactly("T-1", "line-3", "T-2", "line-5", "T-3", "line-7", "T-4");
        ProducerRecord<String, byte[]> notJson = producer.history().get(1);
        assertThat(notJson.topic()).isEqualTo("tickets.standard");
        assertThat(new String(notJson.value(), StandardCharsets.UTF_8)).isEqualTo("not json at all");
        assertThat(issues.get(0).describe()).isEqualTo("line 3: not JSON: Unrecognized token 'not' (sent to tickets.standard as line-3)");
        assertThat(summary.invalidSent()).isEqualTo(3);
        assertThat(summary.skipped()).isZero();
        assertThat(summary.acknowledged()).isEqualTo(7);
        assertThat(summary.describe()).contains("published 4 tickets and 3 invalid lines in ")
                .contains("(interactive 1, standard 5, bulk 1)");
    }

    @Test
    void shouldSendEverythingToOverrideTopic() {
        PublishSummary summary = publish(INPUT, Optional.of(Priority.INTERACTIVE), true);

        assertThat(producer.history()).extracting(ProducerRecord::topic).containsOnly("tickets.interactive");
        assertThat(summary.perPriority().get(Priority.INTERACTIVE)).isEqualTo(7);
        assertThat(summary.warnings()).isZero();
    }

    @Test
    void shouldPublishEachElementOfAJsonArrayAsItsOwnBytes() {
        String array = "\uFEFF  [\n  {\"id\": \"A-1\", \"body\": \"n\u00e3o [x]\", \"meta\": {\"k\": [1, 2]}},\n"
                + "  {\"id\":\"A-2\",\"priority\":\"bulk\",\"body\":\"b\"},\n  42\n]\n";

        for (boolean bytes : new boolean[] {true, false}) {
            MockProducer<String, byte[]> producer = new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
            issues.clear();
            PublishSummary summary;
            try (TicketPublisher publisher = new TicketPublisher(producer)) {
                summary = bytes
                        ? publisher.publish(new ByteArrayInputStream(array.getBytes(StandardCharsets.UTF_8)), Optional.empty(), false,
                                progress::add, issues::add)
                        : publisher.publish(new StringReader(array), Optional.empty(), false, progress::add, issues::add);
            }

            assertThat(summary.tickets()).as("bytes: %s", bytes).isEqualTo(2);
            assertThat(summary.skipped()).isEqualTo(1);
            assertThat(producer.history()).extracting(ProducerRecord::key).containsExactly("A-1", "A-2");
            assertThat(producer.history()).extracting(ProducerRecord::topic).containsExactly("tickets.standard", "tickets.bulk");
            assertThat(new String(producer.history().get(0).value(), StandardCharsets.UTF_8))
                    .as("the element's own bytes, nested brackets included")
                    .isEqualTo("{\"id\": \"A-1\", \"body\": \"n\u00e3o [x]\", \"meta\": {\"k\": [1, 2]}}");
            assertThat(issues).extracting(LineIssue::describe).singleElement().asString().startsWith("line 3: ");
        }
    }

    @Test
    void shouldFailOnAnUnclosedJsonArrayAfterSendingWhatCameBefore() {
        try (TicketPublisher publisher = new TicketPublisher(producer)) {
            assertThatThrownBy(() -> publisher.publish(new StringReader("[{\"id\":\"U-1\",\"body\":\"a\"},\n{\"id\":\"U-2\""),
                    Optional.empty(), false, progress::add, issues::add))
                    .isInstanceOf(java.io.UncheckedIOException.class).hasMessageContaining("reading input failed");
        }
        assertThat(producer.history()).extracting(ProducerRecord::key).containsExactly("U-1");
    }

    @Test
    void shouldPublishBytesExactlyFromInputStream() {
        byte[] latin1 = "{\"id\":\"T-9\",\"body\":\"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1);
        byte[] input = concat(new byte[]{(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                "{\"id\":\"T-8\",\"body\":\"não\"}\r\n".getBytes(StandardCharsets.UTF_8), latin1);

        try (TicketPublisher publisher = new TicketPublisher(producer)) {
            PublishSummary summary = publisher.publish(new ByteArrayInputStream(input), Optional.empty(), true,
                    progress::add, issues::add);

            assertThat(summary.tickets()).isEqualTo(1);
            assertThat(summary.invalidSent()).isEqualTo(1);
        }
        assertThat(producer.history().get(0).value())
                .as("BOM and CRLF dropped, bytes kept")
                .isEqualTo("{\"id\":\"T-8\",\"body\":\"não\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(producer.history().get(1).value()).as("invalid UTF-8 sent untouched").isEqualTo(latin1);
        assertThat(issues).extracting(LineIssue::describe)
                .containsExactly("line 2: invalid UTF-8 byte sequence (sent to tickets.standard as line-2)");
    }

    @Test
    void shouldReportEachAcknowledgedTicketWithItsTopicPartitionAndOffset() {
        List<Accepted> accepted = new ArrayList<>();
        try (TicketPublisher publisher = new TicketPublisher(producer, new io.quotaflow.settings.TopicNames("team-a."))) {
            publisher.publish(new ByteArrayInputStream(INPUT.getBytes(StandardCharsets.UTF_8)), Optional.empty(), true,
                    progress::add, issues::add, accepted::add);
        }

        assertThat(producer.history()).as("invalid lines sent anyway too").hasSize(7);
        assertThat(accepted).as("tickets only, in the order sent").containsExactly(
                new Accepted("T-1", "team-a.tickets.interactive", 0, 0),
                new Accepted("T-2", "team-a.tickets.bulk", 0, 0),
                new Accepted("T-3", "team-a.tickets.standard", 0, 2),
                new Accepted("T-4", "team-a.tickets.standard", 0, 4));
    }

    @Test
    void shouldNotReportAFailedSendAsAccepted() {
        MockProducer<String, byte[]> manual = new MockProducer<>(false, null, new StringSerializer(),
                new ByteArraySerializer()) {
            @Override
            public synchronized void flush() {
                errorNext(new RecordTooLargeException("too big"));
                while (completeNext()) {
                    // acknowledge the rest
                }
            }
        };
        List<Accepted> accepted = new ArrayList<>();
        PublishSummary summary;
        try (TicketPublisher publisher = new TicketPublisher(manual)) {
            summary = publisher.publish(new ByteArrayInputStream(
                            "{\"id\":\"A\",\"body\":\"x\"}\n{\"id\":\"B\",\"body\":\"y\"}\n".getBytes(StandardCharsets.UTF_8)),
                    Optional.empty(), false, progress::add, issues::add, accepted::add);
        }

        assertThat(summary.failed()).isEqualTo(1);
        assertThat(accepted).containsExactly(new Accepted("B", "tickets.standard", 0, 1));
    }

    @Test
    void shouldCountLastLineWithoutNewline() {
        PublishSummary summary = publish("{\"id\":\"a\",\"body\":\"x\"}\n{\"id\":\"b\",\"body\":\"y\"}", Optional.empty(), false);

        assertThat(summary.lines()).isEqualTo(2);
        assertThat(summary.tickets()).isEqualTo(2);
    }

    @Test
    void shouldReportProgressAndFinishWithDone() {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 350; i++) {
            many.append("{\"id\":\"T-").append(i).append("\",\"body\":\"x\"}\n");
        }

        publish(many.toString(), Optional.empty(), false);

        assertThat(progress).hasSizeGreaterThanOrEqualTo(4);
        assertThat(progress.get(0).sent()).isEqualTo(TicketPublisher.PROGRESS_EVERY_RECORDS);
        PublishProgress last = progress.get(progress.size() - 1);
        assertThat(last.done()).isTrue();
        assertThat(last.acknowledged()).isEqualTo(350);
        assertThat(progress.subList(0, progress.size() - 1)).noneMatch(PublishProgress::done);
    }

    @Test
    void shouldFailLoudlyAndStopReadingWhenASendFails() {
        MockProducer<String, byte[]> failing = new MockProducer<>(true, null, new StringSerializer(),
                new ByteArraySerializer()) {
            @Override
            public synchronized Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, Callback callback) {
                if ("T-2".equals(record.key())) {
                    RecordTooLargeException e = new RecordTooLargeException("too big");
                    callback.onCompletion(null, e);
                    return CompletableFuture.failedFuture(e);
                }
                return super.send(record, callback);
            }
        };
        StringBuilder input = new StringBuilder();
        for (int i = 1; i <= 10; i++) {
            input.append("{\"id\":\"T-").append(i).append("\",\"body\":\"x\"}\n");
        }

        PublishSummary summary;
        try (TicketPublisher publisher = new TicketPublisher(failing)) {
            summary = publisher.publish(new StringReader(input.toString()), Optional.empty(), false, progress::add,
                    issues::add);
        }

        assertThat(summary.succeeded()).isFalse();
        assertThat(summary.failed()).isEqualTo(1);
        assertThat(summary.inputComplete()).isFalse();
        assertThat(summary.tickets()).isEqualTo(1);
        assertThat(failing.history()).extracting(ProducerRecord::key).containsExactly("T-1");
        assertThat(summary.firstError()).contains("RecordTooLargeException").contains("too big");
        assertThat(issues).extracting(LineIssue::describe)
                .containsExactly("line 2: send failed: RecordTooLargeException: too big (not acknowledged)");
        assertThat(summary.describe()).contains("FAILED: 1 record not acknowledged").contains("stopped after line 2");
    }

    @Test
    void shouldStopReadingWhenStopIsRequested() {
        try (TicketPublisher publisher = new TicketPublisher(producer)) {
            publisher.requestStop();
            PublishSummary summary = publisher.publish(new StringReader(INPUT), Optional.empty(), p -> { });

            assertThat(summary.inputComplete()).isFalse();
            assertThat(summary.succeeded()).isFalse();
            assertThat(producer.history()).isEmpty();
        }
    }

    @Test
    void shouldFlushWhatWasSentThenThrowWhenReadingFails() {
        Reader broken = new Reader() {
            private final StringReader first = new StringReader("{\"id\":\"T-1\",\"body\":\"x\"}\n");
            private boolean failed;

            @Override
            public int read(char[] cbuf, int off, int len) throws IOException {
                int n = first.read(cbuf, off, len);
                if (n > 0) {
                    return n;
                }
                failed = true;
                throw new IOException("disk on fire");
            }

            @Override
            public void close() {
            }
        };

        try (TicketPublisher publisher = new TicketPublisher(producer)) {
            assertThatThrownBy(() -> publisher.publish(broken, Optional.empty(), p -> { }))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("after line 1")
                    .hasRootCauseMessage("disk on fire");
        }
        assertThat(producer.history()).hasSize(1);
        assertThat(producer.flushed()).isTrue();
    }

    @Test
    void shouldPublishTheBundledDemoDataset() throws IOException {
        PublishSummary summary;
        try (TicketPublisher publisher = new TicketPublisher(producer); InputStream in = DemoDataset.openTickets()) {
            summary = publisher.publish(in, Optional.empty(), false, progress::add, issues::add);
        }

        assertThat(summary.succeeded()).isTrue();
        assertThat(summary.lines()).isEqualTo(500);
        assertThat(summary.skipped()).isEqualTo(3);
        assertThat(summary.tickets()).as("495 tickets + T-HUGE-1 + the one without text").isEqualTo(497);
        assertThat(summary.warnings()).isEqualTo(1);
        assertThat(issues).extracting(LineIssue::describe).containsExactly(
                "line 17: not JSON: Unexpected end-of-input in VALUE_STRING (skipped)",
                "line 133: not a JSON object (skipped)",
                "line 250: missing id (skipped)",
                "line 377: missing subject and body (sent to tickets.standard; the pipeline will dead-letter it)");
        ProducerRecord<String, byte[]> huge = producer.history().stream()
                .filter(r -> r.key().endsWith(":" + DemoDataset.HUGE_TICKET_ID)).findFirst().orElseThrow();
        assertThat(huge.value().length).isGreaterThan(500_000);
        assertThat(huge.topic()).isEqualTo("tickets.bulk");
    }

    @Test
    void shouldConfigureAnIdempotentCompressingProducerWithOverrides() {
        Map<String, Object> config = TicketPublisher.producerConfig("broker:9092",
                Map.of("compression.type", "zstd", "security.protocol", "SSL", "bootstrap.servers", "ignored:1",
                        "key.serializer", "x.Y"));

        assertThat(config).containsEntry("enable.idempotence", true)
                .containsEntry("acks", "all")
                .containsEntry("linger.ms", 5)
                .containsEntry("compression.type", "zstd")
                .containsEntry("security.protocol", "SSL")
                .containsEntry("bootstrap.servers", "broker:9092")
                .doesNotContainKey("key.serializer");
        assertThat(TicketPublisher.producerConfig("b:1", Map.of())).containsEntry("compression.type", "lz4");
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}

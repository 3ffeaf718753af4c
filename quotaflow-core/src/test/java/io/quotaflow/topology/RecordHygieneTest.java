package io.quotaflow.topology;

import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.settings.DispatcherSettings;

import io.quotaflow.settings.RecordLimits;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import io.quotaflow.dispatch.report.DispatcherListener;

import static org.assertj.core.api.Assertions.assertThat;

/** Updates, header hygiene, intake accounting and record size bounds, through the whole topology. */
class RecordHygieneTest {

    private static String header(TestRecord<String, byte[]> r, String key) {
        return FailureHeaders.string(r.headers(), key).orElse(null);
    }

    /** Counts what the topology reports. */
    private static final class Recorder implements DispatcherListener {
        final Map<String, AtomicInteger> deadLetters = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> republished = new ConcurrentHashMap<>();

        @Override
        public void deadLettered(String scope, String kind) {
            deadLetters.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
        }

        @Override
        public void republished(String scope, String outcome) {
            republished.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
        }

        int deadLetters(String kind) {
            return deadLetters.getOrDefault(kind, new AtomicInteger()).get();
        }

        int republished(String outcome) {
            return republished.getOrDefault(outcome, new AtomicInteger()).get();
        }
    }

    private static byte[] ticket(String id, String body) {
        return Fixtures.ticket(id, "default", body);
    }

    @Test
    void shouldClassifyOnlyTheNewerTextOfATicketRepublishedWhileItWaits() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        Recorder recorder = new Recorder();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, recorder)) {
            h.pipe(Priority.STANDARD, "T-1", ticket("T-1", "first text"));
            h.pipe(Priority.STANDARD, "T-1", ticket("T-1", "second text"));
            h.pipe(Priority.STANDARD, "T-1", ticket("T-1", "second text"));
            h.advance(Duration.ofSeconds(2));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("T-1");
            assertThat(client.requests()).singleElement()
                    .satisfies(r -> assertThat(r.items()).extracting(ModelItem::body).containsExactly("second text"));
            assertThat(recorder.republished("replaced")).isEqualTo(1);
            assertThat(recorder.republished("identical")).isEqualTo(1);
        }
    }

    @Test
    void shouldAskAgainWithTheNewerTextWhenATicketIsUpdatedDuringItsCall() {
        FakeModelClient client = FakeModelClient.labellingAll("technical", "high").hold();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.pipe(Priority.INTERACTIVE, "T-1", ticket("T-1", "first text"));
            h.advance(Duration.ofMillis(300));
            assertThat(client.requests()).hasSize(1);
            h.pipe(Priority.INTERACTIVE, "T-1", ticket("T-1", "edited text"));
            client.completeAll();
            h.advance(Duration.ofMillis(300));
            client.completeAll();
            h.advance(Duration.ofMillis(300));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("T-1");
            assertThat(client.requests()).hasSize(2);
            assertThat(client.requests().get(1).items()).extracting(ModelItem::body).containsExactly("edited text");
        }
    }

    @Test
    void shouldClassifyARepublishedTicketAgainAfterItsResult() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.pipe(Priority.STANDARD, "T-1", ticket("T-1", "first"));
            h.advance(Duration.ofSeconds(1));
            h.pipe(Priority.STANDARD, "T-1", ticket("T-1", "first"));
            h.advance(Duration.ofSeconds(1));
            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("T-1", "T-1");
        }
    }

    @Test
    void shouldIgnoreForgedFailureHeadersAndKeepTheProducersOwn() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.NON_RETRYABLE, 422, "nope"));
        Recorder recorder = new Recorder();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, recorder)) {
            RecordHeaders forged = new RecordHeaders();
            forged.add(DeadLetterHeaders.ORIGIN_TOPIC, "forged-topic".getBytes(StandardCharsets.UTF_8));
            forged.add(DeadLetterHeaders.ORIGIN_OFFSET, "999999".getBytes(StandardCharsets.UTF_8));
            forged.add(DeadLetterHeaders.ATTEMPT, "7".getBytes(StandardCharsets.UTF_8));
            forged.add(DeadLetterHeaders.REPLAY_COUNT, "2".getBytes(StandardCharsets.UTF_8));
            forged.add("trace-id", "abc-123".getBytes(StandardCharsets.UTF_8));
            h.pipe(Priority.BULK, "T-1", ticket("T-1", "valid"), forged);
            h.pipe(Priority.BULK, "BAD", "not json".getBytes(StandardCharsets.UTF_8), forged);
            h.advance(Duration.ofSeconds(3));

            List<TestRecord<String, byte[]>> dlq = h.deadLetters();
            assertThat(dlq).extracting(TestRecord::key).containsExactlyInAnyOrder("T-1", "BAD");
            for (TestRecord<String, byte[]> r : dlq) {
                assertThat(header(r, DeadLetterHeaders.ORIGIN_TOPIC)).isEqualTo("tickets.bulk");
                assertThat(header(r, DeadLetterHeaders.ORIGIN_OFFSET)).isNotEqualTo("999999");
                assertThat(header(r, "trace-id")).isEqualTo("abc-123");
                assertThat(header(r, DeadLetterHeaders.REPLAY_COUNT)).isEqualTo("2");
                assertThat(r.headers().headers(DeadLetterHeaders.ORIGIN_TOPIC)).hasSize(1);
            }
            assertThat(dlq.stream().filter(r -> r.key().equals("T-1")).findFirst().orElseThrow())
                    .satisfies(r -> assertThat(header(r, DeadLetterHeaders.ATTEMPT)).isEqualTo("0"));
            assertThat(recorder.deadLetters("bad-input")).as("intake dead letters are counted").isEqualTo(1);
            assertThat(recorder.deadLetters("non-retryable")).isEqualTo(1);
        }
    }

    @Test
    void shouldKeepTheProducersHeadersOnRetries() {
        AtomicInteger calls = new AtomicInteger();
        FakeModelClient client = new FakeModelClient(r -> calls.incrementAndGet() == 1
                ? FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 503, "busy")
                : FakeModelClient.answer(r, "billing", "low"));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            RecordHeaders headers = new RecordHeaders();
            headers.add("trace-id", "t-9".getBytes(StandardCharsets.UTF_8));
            h.pipe(Priority.STANDARD, "T-1", ticket("T-1", "text"), headers);
            h.advance(Duration.ofSeconds(20));
            assertThat(h.retries()).singleElement().satisfies(r -> assertThat(header(r, "trace-id")).isEqualTo("t-9"));
            assertThat(h.classified()).hasSize(1);
        }
    }

    @Test
    void shouldTruncateADeadLetterThatCannotFitAndSayWhatItStandsFor() {
        DispatcherSettings settings = Fixtures.settings().withLimits(RecordLimits.ofDefaults().withMaxValueBytes(64 * 1024));
        Recorder recorder = new Recorder();
        try (PipelineHarness h = new PipelineHarness(settings, FakeModelClient.labellingAll("billing", "low"), recorder)) {
            byte[] junk = "z".repeat(200_000).getBytes(StandardCharsets.UTF_8);
            h.pipe(Priority.STANDARD, "JUNK", junk);
            h.advance(Duration.ofMillis(100));
            assertThat(h.deadLetters()).singleElement().satisfies(r -> {
                assertThat(r.value()).hasSize(64 * 1024);
                assertThat(header(r, DeadLetterHeaders.VALUE_TRUNCATED)).isEqualTo("true");
                assertThat(header(r, DeadLetterHeaders.ORIGINAL_SIZE)).isEqualTo("200000");
                assertThat(header(r, DeadLetterHeaders.ORIGINAL_SHA256)).isEqualTo(WorkItem.sha256(junk));
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("bad-input");
            });
        }
    }

    @Test
    void shouldCarryAValidTicketTooLargeToKeepWholeAsItsReducedForm() throws Exception {
        DispatcherSettings settings = Fixtures.settings().withLimits(RecordLimits.ofDefaults().withMaxValueBytes(64 * 1024));
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.NON_RETRYABLE, 422, "no"));
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            byte[] big = ("{\"id\":\"BIG\",\"subject\":\"charged twice\",\"tenant\":\"default\",\"attachment\":\""
                    + "q".repeat(300_000) + "\"}").getBytes(StandardCharsets.UTF_8);
            h.pipe(Priority.STANDARD, "BIG", big);
            h.advance(Duration.ofSeconds(2));
            assertThat(client.requests()).singleElement()
                    .satisfies(r -> assertThat(r.items()).extracting(ModelItem::subject).containsExactly("charged twice"));
            assertThat(h.deadLetters()).singleElement().satisfies(r -> {
                assertThat(r.value().length).isLessThan(1_000);
                assertThat(Json.MAPPER.readTree(r.value()).get("subject").asText()).isEqualTo("charged twice");
                assertThat(Json.MAPPER.readTree(r.value()).has("attachment")).isFalse();
                assertThat(header(r, DeadLetterHeaders.VALUE_TRUNCATED)).isEqualTo("true");
                assertThat(header(r, DeadLetterHeaders.ORIGINAL_SIZE)).isEqualTo(Integer.toString(big.length));
                assertThat(header(r, DeadLetterHeaders.ORIGINAL_SHA256)).isEqualTo(WorkItem.sha256(big));
            });
        }
    }

    @Test
    void shouldCapABatchByBytesAsWellAsByTokens() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        DispatcherSettings settings = Fixtures.settings().withLimits(new RecordLimits(RecordLimits.DEFAULT_MAX_VALUE_BYTES,
                RecordLimits.DEFAULT_MAX_HEADER_BYTES, 2_500));
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                ids.add("T-" + i);
                h.pipe(Priority.INTERACTIVE, "T-" + i, ("{\"id\":\"T-" + i + "\",\"body\":\"help " + i + "\",\"log\":\"" + "w".repeat(1_000)
                        + "\"}").getBytes(StandardCharsets.UTF_8));
            }
            h.advance(Duration.ofSeconds(2));
            assertThat(h.classified()).extracting(TestRecord::key).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(client.requests()).hasSize(3).allSatisfy(r -> assertThat(r.items()).hasSize(2));
        }
    }
}

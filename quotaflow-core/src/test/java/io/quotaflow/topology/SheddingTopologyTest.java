package io.quotaflow.topology;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.records.Priority;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code queue.max-depth.<priority>}: explicit shedding of new tickets beyond a class's depth, as replayable dead letters. */
class SheddingTopologyTest {

    private static String header(TestRecord<String, byte[]> r, String key) {
        return FailureHeaders.string(r.headers(), key).orElse(null);
    }

    @Test
    void shouldShedNewTicketsOfAClassBeyondItsDepthAndKeepTheOthers() {
        DispatcherSettings settings = Fixtures.settings().withMaxDepth(Map.of(Priority.STANDARD, 2));
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.HALT, 401, "invalid api key"));
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            h.pipe(Priority.INTERACTIVE, "K", Fixtures.ticket("K"));
            h.advance(Duration.ofSeconds(1));
            for (int i = 1; i <= 5; i++) {
                h.pipe(Priority.STANDARD, "S-" + i, Fixtures.ticket("S-" + i));
            }
            h.pipe(Priority.INTERACTIVE, "I-1", Fixtures.ticket("I-1"));
            h.pipe(Priority.STANDARD, "S-1", Fixtures.ticket("S-1"));
            h.advance(Duration.ofSeconds(1));

            List<TestRecord<String, byte[]>> dlq = h.deadLetters();
            assertThat(dlq).extracting(TestRecord::key).as("the 3rd to 5th standard tickets; S-1's update is no new ticket")
                    .containsExactly("S-3", "S-4", "S-5");
            assertThat(dlq).allSatisfy(r -> {
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("shed");
                assertThat(header(r, DeadLetterHeaders.ERROR_MESSAGE)).contains("2 standard tickets were waiting", "queue.max-depth.standard=2");
                assertThat(header(r, DeadLetterHeaders.ORIGIN_TOPIC)).isEqualTo("tickets.standard");
            });
            assertThat(dlq.get(0).value()).as("the original bytes, replayable unchanged").isEqualTo(Fixtures.ticket("S-3"));
            assertThat(h.classified()).isEmpty();
        }
    }

    @Test
    void shouldShedNothingByDefault() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.HALT, 401, "invalid api key"));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.pipe(Priority.INTERACTIVE, "K", Fixtures.ticket("K"));
            h.advance(Duration.ofSeconds(1));
            for (int i = 1; i <= 50; i++) {
                h.pipe(Priority.STANDARD, "S-" + i, Fixtures.ticket("S-" + i));
            }
            h.advance(Duration.ofSeconds(1));

            assertThat(h.deadLetters()).isEmpty();
        }
    }
}

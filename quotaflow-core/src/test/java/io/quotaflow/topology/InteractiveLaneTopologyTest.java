package io.quotaflow.topology;

import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.records.Priority;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interactive lane (docs/design.md, "Interactive lane"): an interactive ticket reaches its scope's
 * task on a topic of its own, so it can arrive before an older publication of the same ticket still
 * on the dispatch topic. That older copy is dropped when it arrives: one result, for the newest text.
 * The driver runs each record to the end before the next, so the overtaking is piped here as it
 * happens on a broker: the newer interactive publication first, the older one after it.
 */
class InteractiveLaneTopologyTest {

    private final List<String> republished = new ArrayList<>();

    private final DispatcherListener listener = new DispatcherListener() {
        @Override
        public void republished(String scope, String outcome) {
            republished.add(outcome);
        }
    };

    private static byte[] ticket(String id, String subject) {
        return ("{\"id\":\"" + id + "\",\"subject\":\"" + subject + "\",\"body\":\"Please help with " + subject + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldDropAnOlderPublicationArrivingAfterTheInteractiveOneWasAnswered() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "high");
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, listener)) {
            h.pipe(Priority.INTERACTIVE, "D-1", ticket("D-1", "my account was breached"));
            h.advance(Duration.ofMillis(300));
            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("D-1");
            // the first publication, five seconds older, comes out of the dispatch topic's backlog only now
            h.pipeAt(Priority.STANDARD, "D-1", ticket("D-1", "how do I change my avatar"), h.now().minusSeconds(5));
            h.advance(Duration.ofSeconds(5));

            assertThat(h.classified()).as("no second result, for the older text").isEmpty();
            assertThat(subjectsAsked(client)).containsExactly("my account was breached");
            assertThat(republished).containsExactly("superseded");
        }
    }

    @Test
    void shouldKeepTheInteractivePublicationWhileItsCallIsOutWhenAnOlderOneArrives() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "high").hold();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, listener)) {
            h.pipe(Priority.INTERACTIVE, "D-2", ticket("D-2", "my account was breached"));
            h.advance(Duration.ofMillis(200));
            assertThat(client.requestedIds()).containsExactly("D-2");
            h.pipeAt(Priority.BULK, "D-2", ticket("D-2", "how do I change my avatar"), h.now().minusSeconds(5));
            h.advance(Duration.ofMillis(200));
            client.completeAll();
            h.advance(Duration.ofSeconds(5));
            client.completeAll();
            h.advance(Duration.ofSeconds(1));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("D-2");
            assertThat(subjectsAsked(client)).containsExactly("my account was breached");
        }
    }

    @Test
    void shouldStillTakeANewerPublicationAfterAnInteractiveOne() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low").hold();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, listener)) {
            h.pipe(Priority.INTERACTIVE, "D-3", ticket("D-3", "first text"));
            h.advance(Duration.ofMillis(200));
            assertThat(client.requestedIds()).containsExactly("D-3");
            // an update published after it, on the dispatch topic: the answer for the first text is ignored
            h.pipe(Priority.STANDARD, "D-3", ticket("D-3", "second text"));
            h.advance(Duration.ofMillis(100));
            client.completeAll();
            h.advance(Duration.ofSeconds(5));
            client.completeAll();
            h.advance(Duration.ofSeconds(1));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("D-3");
            assertThat(subjectsAsked(client)).containsExactly("first text", "second text");
        }
    }

    private static List<String> subjectsAsked(FakeModelClient client) {
        return client.requests().stream().flatMap(r -> r.items().stream()).map(ModelItem::subject).toList();
    }
}

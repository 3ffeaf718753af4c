package io.quotaflow.topology;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.dispatch.report.DispatcherSnapshot;
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
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** A backlog beyond {@code queue.max-pending} waits on disk and comes back in order (docs/design.md, "Bounds"). */
class OverflowTopologyTest {

    private final List<String> cancelled = new ArrayList<>();
    private final AtomicReference<DispatcherSnapshot> last = new AtomicReference<>();

    private final DispatcherListener listener = new DispatcherListener() {
        @Override
        public void cancelled(String scope, String id) {
            cancelled.add(id);
        }

        @Override
        public void state(DispatcherSnapshot snapshot) {
            last.set(snapshot);
        }
    };

    private static byte[] ticket(String id, String body) {
        return ("{\"id\":\"" + id + "\",\"subject\":\"" + id + "\",\"body\":\"" + body + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldSpillABacklogBeyondTheCapAndAnswerEveryTicketOnceWithCancelsAndUpdatesOfSpilledOnes() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low").hold();
        // one call out at a time, held: the rest of the backlog waits, most of it on disk
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(),
                io.quotaflow.settings.QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000).withMaxInFlight(1),
                io.quotaflow.settings.BatchSettings.ofDefaults(), io.quotaflow.settings.RetrySettings.ofDefaults()).build().withMaxPending(5);
        try (PipelineHarness h = new PipelineHarness(settings, client, listener)) {
            for (int i = 0; i < 40; i++) {
                h.pipe(Priority.STANDARD, "T-" + i, ticket("T-" + i, "question " + i));
            }
            h.advance(Duration.ofMillis(1_500));
            DispatcherSnapshot during = last.get();
            assertThat(client.requestedIds()).as("one call of the five in memory").hasSize(5);
            assertThat(during.pendingTotal()).as("all counted, on disk or not").isEqualTo(35);
            assertThat(during.spilled().get(Priority.STANDARD)).as("beyond the cap").isEqualTo(30);

            h.pipe(Priority.STANDARD, "T-30", null);
            h.pipe(Priority.STANDARD, "T-31", ticket("T-31", "updated question"));
            h.pipe(Priority.STANDARD, "T-32", ticket("T-32", "question 32"));
            List<String> keys = new ArrayList<>();
            for (int round = 0; round < 200 && keys.size() < 39; round++) {
                client.completeAll();
                h.advance(Duration.ofMillis(200));
                h.classified().stream().map(TestRecord::key).forEach(keys::add);
            }
            assertThat(keys).hasSize(39).doesNotHaveDuplicates().doesNotContain("T-30");
            assertThat(cancelled).containsExactly("T-30");
            assertThat(client.requestedIds()).doesNotHaveDuplicates();
            assertThat(last.get().pendingTotal()).isZero();
            assertThat(h.deadLetters()).isEmpty();
        }
    }
}

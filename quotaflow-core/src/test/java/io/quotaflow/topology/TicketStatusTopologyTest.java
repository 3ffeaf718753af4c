package io.quotaflow.topology;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.status.QueueView;
import io.quotaflow.status.StatusStore;
import io.quotaflow.status.TicketState;
import io.quotaflow.status.TicketStatus;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import io.quotaflow.records.Priority;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import io.quotaflow.dispatch.report.DispatcherListener;

import static org.assertj.core.api.Assertions.assertThat;

/** The dispatcher's {@code qf-status} store follows each ticket through its states (docs/design.md, "Ticket status"). */
class TicketStatusTopologyTest {

    private final AtomicReference<QueueView> lastView = new AtomicReference<>();
    private final DispatcherListener views = new DispatcherListener() {
        @Override
        public void queue(QueueView view) {
            lastView.set(view);
        }
    };

    private static TicketStatus status(PipelineHarness h, String id) {
        KeyValueStore<String, TicketStatus> store = h.driver().getKeyValueStore(StatusStore.STATUS);
        return store.get(id);
    }

    @Test
    void shouldFollowATicketFromPendingThroughInFlightToClassified() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "high").hold();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, views)) {
            h.pipe(Priority.STANDARD, "T-1", Fixtures.ticket("T-1", "globex", "My invoice is wrong, please help."));

            TicketStatus pending = status(h, "globex:T-1");
            assertThat(pending.state()).isEqualTo(TicketState.PENDING);
            assertThat(pending.route()).isEqualTo("default");
            assertThat(pending.priority()).isEqualTo("standard");
            assertThat(pending.tenant()).isEqualTo("globex");
            assertThat(pending.enqueuedAt()).isEqualTo(PipelineHarness.START.toEpochMilli());

            h.advance(Duration.ofSeconds(1));
            TicketStatus inFlight = status(h, "globex:T-1");
            assertThat(inFlight.state()).isEqualTo(TicketState.IN_FLIGHT);
            assertThat(inFlight.updatedAt()).isGreaterThan(pending.updatedAt());
            assertThat(client.requestedIds()).containsExactly("globex:T-1");

            client.completeAll();
            h.advance(Duration.ofMillis(500));
            TicketStatus classified = status(h, "globex:T-1");
            assertThat(classified.state()).isEqualTo(TicketState.CLASSIFIED);
            assertThat(classified.updatedAt()).isGreaterThanOrEqualTo(inFlight.updatedAt());
            assertThat(h.classified()).hasSize(1);
        }
    }

    @Test
    void shouldRecordADeadLetterWithItsKind() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.NON_RETRYABLE, 400,
                "bad request"));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.pipe(Priority.INTERACTIVE, "T-2", Fixtures.ticket("T-2"));
            h.advance(Duration.ofSeconds(2));

            assertThat(h.deadLetters()).hasSize(1);
            TicketStatus dead = status(h, "T-2");
            assertThat(dead.state()).isEqualTo(TicketState.DEAD_LETTERED);
            assertThat(dead.detail()).isEqualTo("non-retryable");
            assertThat(dead.priority()).isEqualTo("interactive");
        }
    }

    @Test
    void shouldRecordARetryAsDelayedUntilItIsDue() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 503, "overloaded"));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.pipe(Priority.INTERACTIVE, "T-3", Fixtures.ticket("T-3"));
            h.advance(Duration.ofMillis(500));

            assertThat(h.retries()).hasSize(1);
            TicketStatus delayed = status(h, "T-3");
            assertThat(delayed.state()).isEqualTo(TicketState.DELAYED);
            assertThat(delayed.dueAt()).isGreaterThan(delayed.updatedAt());
        }
    }

    @Test
    void shouldRecordACancelledWaitingTicketAsCancelled() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low").hold();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.pipe(Priority.INTERACTIVE, "OUT", Fixtures.ticket("OUT", "default", "The first one goes out."));
            h.advance(Duration.ofMillis(100));
            h.pipe(Priority.BULK, "WAIT", Fixtures.ticket("WAIT", "default", "The second one lingers and waits."));
            h.advance(Duration.ofMillis(100));
            assertThat(status(h, "WAIT").state()).isEqualTo(TicketState.PENDING);

            h.pipe(Priority.BULK, "WAIT", null);

            TicketStatus cancelled = status(h, "WAIT");
            assertThat(cancelled.state()).isEqualTo(TicketState.CANCELLED);
            assertThat(cancelled.priority()).isEqualTo("bulk");
            assertThat(status(h, "OUT").state()).as("its call is out").isEqualTo(TicketState.IN_FLIGHT);
        }
    }

    @Test
    void shouldForgetAFinishedTicketOnceTheRetentionIsOver() {
        DispatcherSettings settings = Fixtures.settings().withStatusRetention(Duration.ofMinutes(1));
        try (PipelineHarness h = new PipelineHarness(settings, FakeModelClient.labellingAll("billing", "low"))) {
            h.pipe(Priority.INTERACTIVE, "T-4", Fixtures.ticket("T-4"));
            h.advance(Duration.ofSeconds(1));
            assertThat(status(h, "T-4").state()).isEqualTo(TicketState.CLASSIFIED);

            h.advance(Duration.ofSeconds(50));
            assertThat(status(h, "T-4")).as("still within the retention").isNotNull();
            h.advance(Duration.ofSeconds(15));
            assertThat(status(h, "T-4")).as("swept after the retention").isNull();
        }
    }

    @Test
    void shouldPublishTheWaitingTicketsInDispatchOrder() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "high").hold();
        DispatcherSettings settings = Fixtures.settings();
        try (PipelineHarness h = new PipelineHarness(settings, client, views)) {
            // the first call takes what fits; with calls held, one in flight at a time keeps the rest waiting
            for (int i = 0; i < 40; i++) {
                h.pipe(Priority.BULK, "B-" + i, Fixtures.ticket("B-" + i));
            }
            h.pipe(Priority.INTERACTIVE, "I-1", Fixtures.ticket("I-1"));
            h.advance(Duration.ofSeconds(1));

            QueueView view = lastView.get();
            assertThat(view).isNotNull();
            int waiting = view.size();
            assertThat(waiting).as("some tickets wait behind the calls in flight").isPositive();
            assertThat(view.tail(Priority.BULK).tickets()).isEqualTo(waiting);
            String last = "B-39";
            assertThat(view.place(last)).hasValueSatisfying(p -> {
                assertThat(p.priority()).isEqualTo(Priority.BULK);
                assertThat(p.position()).isEqualTo(waiting - 1);
            });
        }
    }
}

package io.quotaflow.status;

import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A published queue: each waiting ticket's position and the tokens ahead of it; each priority's tail. */
class QueueViewTest {

    static final Eta.Rates RATES = new Eta.Rates(100, 2, 1_000, true);
    static final long NOW = 1_700_000_000_000L;

    static QueueView view() {
        return new QueueView("scope-a", List.of("default"), NOW, RATES, List.of(
                new QueueView.Waiting("I-1", Priority.INTERACTIVE, 50),
                new QueueView.Waiting("I-2", Priority.INTERACTIVE, 150),
                new QueueView.Waiting("B-1", Priority.BULK, 300),
                new QueueView.Waiting("B-2", Priority.BULK, 100)));
    }

    @Test
    void shouldPlaceATicketBehindHigherClassesAndTheTicketsBeforeIt() {
        QueueView.Place p = view().place("B-2").orElseThrow();

        assertThat(p.priority()).isEqualTo(Priority.BULK);
        assertThat(p.position()).isEqualTo(3);
        assertThat(p.tokensAhead()).isEqualTo(500);
        assertThat(view().place("I-1").orElseThrow().position()).isZero();
        assertThat(view().place("nope")).isEmpty();
    }

    @Test
    void shouldGiveEachPriorityTheTailOfItselfAndTheClassesAbove() {
        QueueView v = view();

        assertThat(v.tail(Priority.INTERACTIVE)).isEqualTo(new QueueView.Tail(2, 200));
        assertThat(v.tail(Priority.STANDARD)).as("nothing standard waits: the interactive tickets still go first")
                .isEqualTo(new QueueView.Tail(2, 200));
        assertThat(v.tail(Priority.BULK)).isEqualTo(new QueueView.Tail(4, 600));
    }

    @Test
    void shouldExpectTheTailDoneWhenItsTokensAreAdmittedPlusALatency() {
        // 600 tokens at 100/s = 6 s (3 tickets ahead of the last at 2/s = 1.5 s), + 1 s latency
        assertThat(view().tailEta(Priority.BULK, NOW).doneAt()).isEqualTo(NOW + 7_000);
        QueueView empty = new QueueView("s", List.of("default"), NOW, RATES, List.of());
        assertThat(empty.tail(Priority.BULK)).isEqualTo(new QueueView.Tail(0, 0));
    }
}

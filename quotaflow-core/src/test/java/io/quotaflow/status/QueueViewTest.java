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

    /**
     * Past the list, bulk has three tenants from the same service: a (weight 1) with 10 tickets of 100
     * that arrived from 100 to 190, b (weight 1) with 5 of 100, c (weight 3) with 30 of 100.
     */
    static QueueView rotating() {
        QueueView.Rotation bulk = new QueueView.Rotation(List.of(
                new QueueView.TenantRest("a", 1, 0, 10, 1_000, 1_000, 100, 190),
                new QueueView.TenantRest("b", 1, 0, 5, 500, 500, 100, 200),
                new QueueView.TenantRest("c", 3, 0, 30, 3_000, 3_000, 100, 300)));
        return new QueueView("scope-a", List.of("default"), NOW, RATES, List.of(
                new QueueView.Waiting("I-1", Priority.INTERACTIVE, 50),
                new QueueView.Waiting("B-1", Priority.BULK, 300)),
                java.util.Map.of(Priority.INTERACTIVE, new QueueView.Count(1, 50), Priority.BULK, new QueueView.Count(46, 4_300)),
                List.of(new QueueView.Retry(NOW + 1_000, Priority.STANDARD, 70)), java.util.Map.of(Priority.BULK, bulk));
    }

    @Test
    void shouldPlaceAnUnlistedTicketByItsTenantsTurnInTheRotation() {
        // a's ticket that arrived at 150 has 5 of a's before it (5/9 of the way from 100 to 190): its turn is 600;
        // b's 5 tickets (turn 500) and 18 of c's (600 × weight 3 = 1,800 tokens) go before it
        QueueView.Tail place = rotating().unlisted(Priority.BULK, "a", 150).orElseThrow();

        // what waits above bulk and what the list holds of bulk: I-1 and B-1
        assertThat(place).isEqualTo(new QueueView.Tail(2 + 5 + 5 + 18, 350 + 500 + 500 + 1_800));
        assertThat(place.tickets()).as("well before the class's tail").isLessThan(rotating().tail(Priority.BULK).tickets());
    }

    @Test
    void shouldNotPlaceATicketTheRotationDoesNotHold() {
        QueueView v = rotating();

        assertThat(v.unlisted(Priority.BULK, "a", 191)).as("arrived after a's last ticket here: spilled").isEmpty();
        assertThat(v.unlisted(Priority.BULK, "nobody", 150)).isEmpty();
        assertThat(v.unlisted(Priority.INTERACTIVE, "a", 150)).as("no rotation: listed to its end").isEmpty();
        assertThat(view().unlisted(Priority.BULK, "a", 150)).isEmpty();
    }

    @Test
    void shouldCountTheRetriesOfItsClassAndAboveAhead() {
        QueueView v = rotating();

        assertThat(v.retriesAhead(Priority.BULK)).hasSize(1);
        assertThat(v.retriesAhead(Priority.STANDARD)).hasSize(1);
        assertThat(v.retriesAhead(Priority.INTERACTIVE)).isEmpty();
        // the tail of bulk: 4,350 tokens at 100/s = 43.5 s; the standard retry due in 1 s adds 70 tokens
        assertThat(v.tailEta(Priority.BULK, NOW).startAt()).isEqualTo(NOW + 44_200);
    }
}

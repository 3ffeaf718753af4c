package io.quotaflow.status;

import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.quotaflow.status.QueueViewTest.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/** One ticket's answer from its status record and the live queue of its scope. */
class TicketLocatorTest {

    private final Map<String, TicketStatus> statuses = new HashMap<>();
    private final TicketDirectory directory = new TicketDirectory();
    private final TicketLocator locator = new TicketLocator(id -> Optional.ofNullable(statuses.get(id)), directory);

    private static TicketStatus status(TicketState state, String priority, long at) {
        return new TicketStatus(state, "default", priority, "default", NOW - 5_000, at, 0, null, NOW - 5_000);
    }

    private static String iso(long ms) {
        return Instant.ofEpochMilli(ms).toString();
    }

    @Test
    void shouldAnswerUnknownForATicketNobodyHolds() {
        assertThat(locator.answer("X", NOW)).isEqualTo(TicketAnswer.unknown("X"));
        assertThat(locator.answer("X", NOW).known()).isFalse();
    }

    @Test
    void shouldPlaceAWaitingTicketInItsQueueWithItsEta() {
        directory.publish(QueueViewTest.view());
        statuses.put("B-2", status(TicketState.PENDING, "bulk", NOW - 1_000));

        TicketAnswer a = locator.answer("B-2", NOW);

        // 500 tokens ahead at 100/s = 5 s (3 tickets at 2/s = 1.5 s); then 1 s of latency
        assertThat(a).isEqualTo(new TicketAnswer("B-2", "pending", "default", "bulk", "default", 3, iso(NOW + 5_000), iso(NOW + 6_000)));
    }

    @Test
    void shouldTrustAFinishedRecordNewerThanTheQueueViewThatStillListsTheTicket() {
        directory.publish(QueueViewTest.view());
        statuses.put("B-1", status(TicketState.HANDED_OFF, "bulk", NOW + 200));
        statuses.put("B-2", status(TicketState.CLASSIFIED, "bulk", NOW - 1));

        assertThat(locator.answer("B-1", NOW + 300).state()).as("ended after the view was taken").isEqualTo("handed-off");
        assertThat(locator.answer("B-2", NOW + 300).state()).as("the view is newer: a new copy waits").isEqualTo("pending");
    }

    @Test
    void shouldCallAQueuedRetryPendingWhateverItsRecordSays() {
        directory.publish(QueueViewTest.view());
        statuses.put("I-2", status(TicketState.DELAYED, "interactive", NOW - 3_000));

        assertThat(locator.answer("I-2", NOW).state()).isEqualTo("pending");
        assertThat(locator.answer("I-2", NOW).position()).isEqualTo(1);
    }

    @Test
    void shouldPutAnAcceptedTicketNotYetPublishedBehindItsClassTail() {
        directory.publish(QueueViewTest.view());
        statuses.put("N", status(TicketState.PENDING, "interactive", NOW));

        TicketAnswer a = locator.answer("N", NOW);

        assertThat(a.position()).isEqualTo(2);
        assertThat(a.estimatedStartAt()).isEqualTo(iso(NOW + 2_000));
    }

    @Test
    void shouldExpectAnInFlightTicketOneLatencyAfterItsCallWentOut() {
        directory.publish(QueueViewTest.view());
        statuses.put("F", status(TicketState.IN_FLIGHT, "bulk", NOW - 200));

        TicketAnswer a = locator.answer("F", NOW);

        assertThat(a).isEqualTo(new TicketAnswer("F", "in-flight", "default", "bulk", "default", 0, iso(NOW - 200), iso(NOW + 800)));
    }

    @Test
    void shouldGiveAFinishedTicketTheTimeItEndedAndNoStart() {
        statuses.put("C", status(TicketState.CLASSIFIED, "standard", NOW - 60_000));

        assertThat(locator.answer("C", NOW)).isEqualTo(new TicketAnswer("C", "classified", "default", "standard", "default", null, null,
                iso(NOW - 60_000)));
    }

    @Test
    void shouldForgetTheQueueOfAReleasedScope() {
        directory.publish(new QueueView("s", List.of("default"), NOW, QueueViewTest.RATES,
                List.of(new QueueView.Waiting("W", Priority.STANDARD, 10))));
        assertThat(locator.answer("W", NOW).known()).isTrue();

        directory.release("s");

        assertThat(locator.answer("W", NOW).known()).isFalse();
    }

    @Test
    void shouldCarryTheRouteStateAndGiveNoEtaWhileTheRouteCannotServe() {
        directory.publish(QueueViewTest.view());
        statuses.put("B-2", status(TicketState.PENDING, "bulk", NOW - 1_000));
        statuses.put("C", status(TicketState.CLASSIFIED, "bulk", NOW - 1_000));
        TicketLocator down = new TicketLocator(id -> Optional.ofNullable(statuses.get(id)), directory,
                route -> io.quotaflow.provider.RouteState.unreachable("connection refused"));
        TicketLocator up = new TicketLocator(id -> Optional.ofNullable(statuses.get(id)), directory,
                route -> io.quotaflow.provider.RouteState.OK);

        TicketAnswer waiting = down.answer("B-2", NOW);
        TicketAnswer served = up.answer("B-2", NOW);
        TicketAnswer done = down.answer("C", NOW);

        assertThat(waiting.routeState()).isEqualTo("unreachable: connection refused");
        assertThat(waiting.position()).isEqualTo(3);
        assertThat(waiting.estimatedStartAt()).as("no ETA, never one of now").isNull();
        assertThat(waiting.estimatedDoneAt()).isNull();
        assertThat(served.routeState()).isEqualTo("ok");
        assertThat(served.estimatedStartAt()).isEqualTo(iso(NOW + 5_000));
        assertThat(done.routeState()).isEqualTo("unreachable: connection refused");
        assertThat(done.estimatedDoneAt()).as("a finished ticket keeps its end").isEqualTo(iso(NOW - 1_000));
    }

    @Test
    void shouldPlaceAPendingTicketBeyondTheListByItsTenantsTurn() {
        directory.publish(QueueViewTest.rotating());
        statuses.put("A-150", new TicketStatus(TicketState.PENDING, "default", "bulk", "a", 150, NOW - 1_000, 0, null, 150));
        statuses.put("A-late", new TicketStatus(TicketState.PENDING, "default", "bulk", "a", 500, NOW - 1_000, 0, null, 500));

        TicketAnswer placed = locator.answer("A-150", NOW);
        TicketAnswer behind = locator.answer("A-late", NOW);

        assertThat(placed.position()).isEqualTo(30);
        assertThat(placed.positionEstimated()).isTrue();
        // 3,150 tokens ahead at 100/s; the standard retry due in 1 s goes first (70 tokens): 32.2 s, then 1 s of latency
        assertThat(Instant.parse(placed.estimatedDoneAt()).toEpochMilli()).isCloseTo(NOW + 33_200, org.assertj.core.api.Assertions.within(1L));
        assertThat(behind.position()).as("spilled: behind the whole class").isEqualTo(47);
    }
}

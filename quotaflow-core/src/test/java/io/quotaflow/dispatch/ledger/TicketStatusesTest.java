package io.quotaflow.dispatch.ledger;

import io.quotaflow.dispatch.plan.ViewBuilder;

import io.quotaflow.records.Priority;
import io.quotaflow.status.StatusFixture;
import io.quotaflow.ticket.WorkItem;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A copy of a ticket published before the interactive publication on record is stale
 * (docs/design.md, "Interactive lane"): the status store says so, so a dispatcher that starts
 * afresh on the same stores (a restart, a rebalance) drops it too.
 */
class TicketStatusesTest {

    private static final Duration RETENTION = Duration.ofHours(1);

    private final StatusFixture stores = new StatusFixture();

    @Test
    void shouldTakeACopyPublishedBeforeTheInteractiveOneOnRecordAsOvertakenAfterARestart() {
        WorkItem interactive = ViewBuilder.ticket("D-1", Priority.INTERACTIVE, 50, 10_000);
        TicketStatuses before = new TicketStatuses(stores.store(RETENTION), "default");
        before.accepted(interactive, 10_000);
        before.classified(interactive, false, 11_000);

        TicketStatuses after = new TicketStatuses(stores.store(RETENTION), "default");

        assertThat(after.overtakenOnTheLane(ViewBuilder.ticket("D-1", Priority.STANDARD, 50, 5_000))).isTrue();
        assertThat(after.overtakenOnTheLane(ViewBuilder.ticket("D-1", Priority.STANDARD, 50, 12_000)))
                .as("published after it: an update").isFalse();
        assertThat(after.overtakenOnTheLane(interactive)).as("the same publication again (a retry, a move)").isFalse();
        assertThat(after.overtakenOnTheLane(ViewBuilder.ticket("D-2", Priority.STANDARD, 50, 5_000))).as("another ticket").isFalse();
    }

    @Test
    void shouldLeaveTheOrderOfCopiesOffTheLaneToTheDispatchTopic() {
        WorkItem bulk = ViewBuilder.ticket("D-3", Priority.BULK, 50, 10_000);
        TicketStatuses statuses = new TicketStatuses(stores.store(RETENTION), "default");
        statuses.accepted(bulk, 10_000);

        // both came the same way, in the order they were published to their input topics
        assertThat(statuses.overtakenOnTheLane(ViewBuilder.ticket("D-3", Priority.STANDARD, 50, 5_000))).isFalse();
    }
}

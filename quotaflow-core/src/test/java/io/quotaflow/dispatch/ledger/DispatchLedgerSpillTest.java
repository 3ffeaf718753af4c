package io.quotaflow.dispatch.ledger;

import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.report.QueueViews;

import io.quotaflow.dispatch.outcome.Outbound;

import io.quotaflow.records.Priority;
import io.quotaflow.testing.LedgerStores;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.quotaflow.dispatch.ledger.DispatchLedger.Acceptance.ACCEPTED;
import static io.quotaflow.dispatch.ledger.DispatchLedger.Acceptance.IDENTICAL;
import static io.quotaflow.dispatch.ledger.DispatchLedger.Acceptance.REPLACED;
import static org.assertj.core.api.Assertions.assertThat;

/** Tickets beyond {@code queue.max-pending} wait on disk (docs/design.md, "Bounds"): nothing lost, nothing answered twice. */
class DispatchLedgerSpillTest {

    private static final String SCOPE = "scope-a";
    private static final int CAP = 3;

    private LedgerStores stores;
    private DispatchLedger ledger;
    private long offset;

    @BeforeEach
    void setUp() {
        stores = LedgerStores.open(new MockProcessorContext<String, Outbound>());
        ledger = ledger(CAP);
    }

    private DispatchLedger ledger(int cap) {
        return stores.ledger(SCOPE, cap);
    }

    private WorkItem item(String id, Priority priority, String body, long at) {
        byte[] bytes = ("{\"id\":\"" + id + "\",\"body\":\"" + body + "\"}").getBytes(StandardCharsets.UTF_8);
        return WorkItem.accepted(new WorkItem.Identity(id, priority, "default"), bytes, new WorkItem.Origin("tickets.standard", 0, offset++), at, 10);
    }

    private WorkItem standard(String id, long at) {
        return item(id, Priority.STANDARD, "body of " + id, at);
    }

    /** Sends everything, one call of one ticket at a time, refilling between calls; returns the ids in the order sent. */
    private List<String> drain(DispatchLedger l) {
        List<String> sent = new ArrayList<>();
        int call = 0;
        while (true) {
            l.refill();
            var proposal = l.propose(1, p -> 100_000, Long.MAX_VALUE, 0);
            if (proposal.isEmpty()) {
                return sent;
            }
            List<WorkItem> items = l.load(proposal.get());
            String batch = "b" + call++;
            l.dispatched(proposal.get(), InFlightBatch.of(batch, proposal.get().priority(), items, 0, 10, 10, 20));
            for (WorkItem done : l.complete(batch).orElseThrow().items()) {
                sent.add(done.id());
                l.finish(done);
            }
        }
    }

    @Test
    void shouldSpillBeyondTheCapAndRefillInArrivalOrder() {
        for (int i = 1; i <= 8; i++) {
            assertThat(ledger.accept(standard("T-" + i, i), i)).isEqualTo(ACCEPTED);
        }
        assertThat(ledger.queue().size()).isEqualTo(CAP);
        assertThat(ledger.spilled(Priority.STANDARD)).isEqualTo(5);
        assertThat(ledger.oldestSpilled(Priority.STANDARD)).contains(4L);

        assertThat(drain(ledger)).containsExactly("T-1", "T-2", "T-3", "T-4", "T-5", "T-6", "T-7", "T-8");
        assertThat(ledger.spilledTotal()).isZero();
        assertThat(ledger.refilledEver()).isEqualTo(5);
        assertThat(stores.pending().approximateNumEntries()).isZero();
        assertThat(stores.overflow().approximateNumEntries()).isZero();
    }

    @Test
    void shouldRefillTheHighestClassFirstAndSpillANewTicketBehindOlderSpilledOnesEvenWithRoom() {
        for (int i = 1; i <= 4; i++) {
            ledger.accept(item("B-" + i, Priority.BULK, "b", i), i);
        }
        ledger.accept(item("I-1", Priority.INTERACTIVE, "i", 10), 10);
        assertThat(ledger.spilled(Priority.INTERACTIVE)).as("the queue is full of bulk").isEqualTo(1);
        assertThat(ledger.spilled(Priority.BULK)).isEqualTo(1);
        // room, but an older bulk ticket is spilled: a new one waits behind it
        ledger.queue().remove("B-1");
        stores.pending().delete("B-1");
        ledger.accept(item("B-5", Priority.BULK, "b", 20), 20);
        assertThat(ledger.spilled(Priority.BULK)).isEqualTo(2);

        assertThat(drain(ledger)).containsExactly("I-1", "B-2", "B-3", "B-4", "B-5");
    }

    @Test
    void shouldCountTheBacklogBelowInteractiveInMemoryAndSpilled() {
        for (int i = 1; i <= 4; i++) {
            ledger.accept(item("B-" + i, Priority.BULK, "b", i), i);
        }
        ledger.accept(standard("S-1", 5), 5);
        ledger.accept(item("I-1", Priority.INTERACTIVE, "i", 10), 10);
        assertThat(ledger.spilledTotal()).as("three in memory, three on disk").isEqualTo(3);

        assertThat(ledger.backlog()).as("ten estimated tokens a ticket, interactive left out").isEqualTo(new Backlog(5, 50));
        assertThat(drain(ledger)).hasSize(6);
        assertThat(ledger.backlog()).isEqualTo(new Backlog(0, 0));
    }

    @Test
    void shouldCancelUpdateAndRepublishASpilledTicket() {
        for (int i = 1; i <= 6; i++) {
            ledger.accept(standard("T-" + i, i), i);
        }
        assertThat(ledger.queue().contains("T-5")).isFalse();
        assertThat(ledger.held("T-5")).as("a spilled ticket is held").isPresent();
        assertThat(ledger.held("NOPE")).isEmpty();

        assertThat(ledger.accept(standard("T-5", 50), 50)).as("the same content again").isEqualTo(IDENTICAL);
        assertThat(ledger.accept(item("T-5", Priority.STANDARD, "new content", 60), 60)).isEqualTo(REPLACED);
        assertThat(ledger.spilled(Priority.STANDARD)).as("the update keeps its place on disk").isEqualTo(3);
        assertThat(new String(ledger.held("T-5").orElseThrow().original(), StandardCharsets.UTF_8)).contains("new content");

        ledger.withdraw("T-4");
        assertThat(ledger.held("T-4")).isEmpty();
        assertThat(ledger.spilled(Priority.STANDARD)).isEqualTo(2);

        assertThat(drain(ledger)).containsExactly("T-1", "T-2", "T-3", "T-5", "T-6");
        assertThat(stores.overflow().approximateNumEntries()).isZero();
    }

    @Test
    void shouldMoveASpilledTicketUpdatedToAHigherClassAheadOfTheOthers() {
        for (int i = 1; i <= 6; i++) {
            ledger.accept(standard("T-" + i, i), i);
        }
        ledger.accept(item("T-6", Priority.INTERACTIVE, "urgent now", 70), 70);
        assertThat(ledger.spilled(Priority.STANDARD)).isEqualTo(2);
        assertThat(ledger.spilled(Priority.INTERACTIVE)).isEqualTo(1);
        List<String> order = drain(ledger);
        assertThat(order).containsExactlyInAnyOrder("T-1", "T-2", "T-3", "T-4", "T-5", "T-6");
        assertThat(order.indexOf("T-6")).as("first out of the overflow").isLessThan(order.indexOf("T-4"));
    }

    @Test
    void shouldRestoreSpilledTicketsAfterARestartWithoutLoadingThemIntoMemory() {
        for (int i = 1; i <= 7; i++) {
            ledger.accept(standard("T-" + i, i), i);
        }
        DispatchLedger restarted = ledger(CAP);
        Restored restored = restarted.restore(item -> true);
        assertThat(restored.pending()).isEqualTo(7);
        assertThat(restarted.queue().size()).isEqualTo(CAP);
        assertThat(restarted.spilled(Priority.STANDARD)).isEqualTo(4);
        assertThat(restarted.held("T-7")).isPresent();
        assertThat(drain(restarted)).containsExactly("T-1", "T-2", "T-3", "T-4", "T-5", "T-6", "T-7");
    }

    @Test
    void shouldSpillTheNewestWhenRestoredUnderALowerCap() {
        for (int i = 1; i <= 6; i++) {
            ledger.accept(standard("T-" + i, i), i);
        }
        DispatchLedger lower = ledger(2);
        lower.restore(item -> true);
        assertThat(lower.queue().size()).isEqualTo(2);
        assertThat(lower.spilled(Priority.STANDARD)).isEqualTo(4);
        assertThat(drain(lower)).containsExactly("T-1", "T-2", "T-3", "T-4", "T-5", "T-6");
    }

    @Test
    void shouldLeaveAnotherScopesSpilledTicketsAlone() {
        DispatchLedger other = stores.ledger("scope-b", 1);
        other.accept(standard("B-1", 1), 1);
        other.accept(standard("B-2", 2), 2);
        assertThat(other.spilledTotal()).isEqualTo(1);
        for (int i = 1; i <= 5; i++) {
            ledger.accept(standard("A-" + i, i), i);
        }
        assertThat(ledger.held("B-2")).as("spilled by scope-b").isEmpty();
        assertThat(drain(ledger)).containsExactly("A-1", "A-2", "A-3", "A-4", "A-5");
        assertThat(drain(other)).containsExactly("B-1", "B-2");
    }

    @Test
    void shouldExpireSpilledTicketsByAgeOldestFirstAndBounded() {
        for (int i = 1; i <= 10; i++) {
            ledger.accept(standard("T-" + i, i * 1_000L), i * 1_000L);
        }
        assertThat(ledger.expireSpilled(6_000, 2)).extracting(WorkItem::id).containsExactly("T-4", "T-5");
        assertThat(ledger.expireSpilled(6_000, 100)).extracting(WorkItem::id).containsExactly("T-6");
        assertThat(ledger.held("T-5")).isEmpty();
        assertThat(stores.pending().get("T-5")).isNull();
        assertThat(ledger.spilled(Priority.STANDARD)).isEqualTo(4);
        assertThat(drain(ledger)).containsExactly("T-1", "T-2", "T-3", "T-7", "T-8", "T-9", "T-10");
    }

    @Test
    void shouldBringBackAtMostABoundedNumberPerTick() {
        DispatchLedger big = ledger(Spill.REFILL_PER_TICK * 3);
        for (int i = 0; i < Spill.REFILL_PER_TICK * 4; i++) {
            big.accept(standard("T-" + i, i), i);
        }
        for (PendingQueue.Ref r : big.queue().matching(ref -> true)) {
            big.queue().remove(r.id());
            stores.pending().delete(r.id());
        }
        assertThat(big.spilledTotal()).isEqualTo(Spill.REFILL_PER_TICK);
        int moved = big.refill();
        assertThat(moved).isEqualTo(Spill.REFILL_PER_TICK);
        assertThat(big.spilledTotal()).isZero();
        assertThat(big.refill()).isZero();
    }

    @Test
    void shouldListOnlyTheFirstTicketsInTheViewAndCountTheSpilledOnesInItsTails() {
        DispatchLedger l = ledger(QueueViews.LISTED + 500);
        for (int i = 0; i < QueueViews.LISTED + 1_000; i++) {
            l.accept(standard("T-" + i, i), i);
        }
        l.accept(item("I-1", Priority.INTERACTIVE, "i", 5_000), 5_000);
        var view = QueueViews.take(io.quotaflow.testing.Fixtures.settings(), l, new io.quotaflow.status.Pace(), 10_000);

        assertThat(view.listed()).isEqualTo(QueueViews.LISTED);
        assertThat(view.size()).isEqualTo(QueueViews.LISTED + 1_001);
        assertThat(view.place("T-0")).isPresent();
        assertThat(view.place("T-" + (QueueViews.LISTED + 10))).as("beyond the list: counted, not placed").isEmpty();
        assertThat(view.tail(Priority.INTERACTIVE).tickets()).as("spilled, yet counted").isEqualTo(1);
        assertThat(view.tail(Priority.STANDARD).tickets()).isEqualTo(QueueViews.LISTED + 1_001);
        assertThat(view.tail(Priority.STANDARD).tokens()).isEqualTo(10L * (QueueViews.LISTED + 1_001));
    }
}

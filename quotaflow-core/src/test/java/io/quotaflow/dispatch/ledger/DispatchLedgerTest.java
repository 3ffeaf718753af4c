package io.quotaflow.dispatch.ledger;

import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.outcome.Outbound;

import io.quotaflow.ticket.BinarySerde;
import io.quotaflow.records.Priority;
import io.quotaflow.testing.LedgerStores;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.quotaflow.dispatch.ledger.DispatchLedger.Acceptance.ACCEPTED;
import static io.quotaflow.dispatch.ledger.DispatchLedger.Acceptance.IDENTICAL;
import static io.quotaflow.dispatch.ledger.DispatchLedger.Acceptance.REPLACED;
import static io.quotaflow.dispatch.ledger.DispatchLedger.Acceptance.SUPERSEDED;
import static org.assertj.core.api.Assertions.assertThat;

/** The ledger on real in-memory stores: updates, identical re-publishes and stale retries. */
class DispatchLedgerTest {

    private LedgerStores stores;
    private DispatchLedger ledger;
    private long offset;

    @BeforeEach
    void setUp() {
        stores = LedgerStores.open(new MockProcessorContext<String, Outbound>());
        ledger = ledger();
    }

    /** A ledger over the test's stores, its queue of tenants of weight 1, none capped. */
    private DispatchLedger ledger() {
        return stores.ledger();
    }

    private WorkItem fresh(String id, String body, long now) {
        byte[] bytes = ("{\"id\":\"" + id + "\",\"body\":\"" + body + "\"}").getBytes(StandardCharsets.UTF_8);
        return WorkItem.accepted(new WorkItem.Identity(id, Priority.STANDARD, "default"), bytes, new WorkItem.Origin("tickets.standard", 0, offset++), now, 10);
    }

    private static WorkItem asRetry(WorkItem item, long notBefore) {
        return item.withAttemptFailed(new WorkItem.FailureState(1, 1, "transient", 503, "busy"), notBefore);
    }

    private PendingQueue.Proposal next() {
        return ledger.queue().propose(10, p -> 100_000, Long.MAX_VALUE, 0).orElseThrow();
    }

    private String sendNext(long now) {
        PendingQueue.Proposal proposal = next();
        List<WorkItem> items = ledger.load(proposal);
        String batchId = "b" + now;
        ledger.dispatched(proposal, InFlightBatch.of(batchId, proposal.priority(), items, now, 100, 20, 120));
        return batchId;
    }

    private static String body(WorkItem item) {
        return new String(item.original(), StandardCharsets.UTF_8);
    }

    @Test
    void shouldReplaceAWaitingCopyAndKeepItsPlace() {
        assertThat(ledger.accept(fresh("T-1", "old", 100), 100)).isEqualTo(ACCEPTED);
        assertThat(ledger.accept(fresh("T-2", "other", 150), 150)).isEqualTo(ACCEPTED);
        assertThat(ledger.accept(fresh("T-1", "new", 200), 200)).isEqualTo(REPLACED);

        assertThat(ledger.queue().size()).isEqualTo(2);
        assertThat(body(stores.pending().get("T-1"))).contains("new");
        assertThat(stores.pending().get("T-1").enqueuedAt()).isEqualTo(100);
        assertThat(next().refs()).extracting(PendingQueue.Ref::id).containsExactly("T-1", "T-2");
    }

    @Test
    void shouldTreatAnIdenticalRepublishAsANoOp() {
        WorkItem first = fresh("T-1", "same", 100);
        ledger.accept(first, 100);
        assertThat(ledger.accept(fresh("T-1", "same", 200), 200)).isEqualTo(IDENTICAL);
        assertThat(stores.pending().get("T-1").origin()).isEqualTo(first.origin());
        assertThat(ledger.queue().size()).isEqualTo(1);
    }

    @Test
    void shouldIgnoreTheAnswerForACopyUpdatedWhileItsCallWasOut() {
        ledger.accept(fresh("T-1", "old", 100), 100);
        ledger.accept(fresh("T-2", "two", 100), 100);
        String batch = sendNext(150);
        assertThat(ledger.queue().size()).isZero();
        assertThat(ledger.accept(fresh("T-1", "new", 200), 200)).isEqualTo(REPLACED);
        assertThat(ledger.queue().size()).as("waits for its call to come back").isZero();

        DispatchLedger.Completed done = ledger.complete(batch).orElseThrow();
        assertThat(done.items()).extracting(WorkItem::id).containsExactly("T-2");
        assertThat(done.superseded()).isEqualTo(1);
        assertThat(next().refs()).extracting(PendingQueue.Ref::id).containsExactly("T-1");
        assertThat(body(stores.pending().get("T-1"))).contains("new");
        assertThat(stores.inFlight().get(batch)).isNull();
    }

    @Test
    void shouldKeepInFlightRecordsSmallWhateverTheTicketsWeigh() {
        for (int i = 0; i < 10; i++) {
            ledger.accept(fresh("T-" + i, "x".repeat(100_000), 100), 100);
        }
        String batch = sendNext(150);
        byte[] record = new BinarySerde<>(InFlightBatch.class).serializer().serialize("t", stores.inFlight().get(batch));
        assertThat(record.length).isLessThan(4_000);
        assertThat(stores.pending().approximateNumEntries()).isEqualTo(10);
    }

    @Test
    void shouldDropARetryThatAnUpdateOvertookOnItsWay() {
        WorkItem old = fresh("T-1", "old", 100);
        ledger.accept(old, 100);
        String batch = sendNext(150);
        WorkItem failed = asRetry(ledger.complete(batch).orElseThrow().items().get(0), 5_000);
        ledger.retried(failed);
        assertThat(stores.pending().get("T-1")).isNull();

        assertThat(ledger.accept(fresh("T-1", "new", 300), 300)).isEqualTo(ACCEPTED);
        String second = sendNext(350);
        ledger.finish(ledger.complete(second).orElseThrow().items().get(0));

        // the old copy comes back from tickets.retry after the new one was classified
        assertThat(ledger.accept(failed, 400)).isEqualTo(SUPERSEDED);
        assertThat(stores.pending().get("T-1")).isNull();
        assertThat(stores.delayed().get("T-1")).isNull();
        assertThat(stores.retrying().get("T-1")).isNull();
    }

    @Test
    void shouldLetARetryThroughWhenOnlyAnIdenticalCopyArrivedMeanwhile() {
        ledger.accept(fresh("T-1", "same", 100), 100);
        WorkItem failed = asRetry(ledger.complete(sendNext(150)).orElseThrow().items().get(0), 5_000);
        ledger.retried(failed);
        assertThat(ledger.accept(fresh("T-1", "same", 200), 200)).isEqualTo(IDENTICAL);
        assertThat(ledger.accept(failed, 300)).isEqualTo(ACCEPTED);
        assertThat(stores.delayed().get("T-1")).isNotNull();
        ledger.promoteDue(5_000);
        assertThat(stores.pending().get("T-1").attempt()).isEqualTo(1);
    }

    @Test
    void shouldWaitForTheNewestRetryWhenAnOlderOneArrivesFirst() {
        ledger.accept(fresh("T-1", "a", 100), 100);
        WorkItem retryA = asRetry(ledger.complete(sendNext(150)).orElseThrow().items().get(0), 200);
        ledger.retried(retryA);
        ledger.accept(fresh("T-1", "b", 300), 300);
        WorkItem retryB = asRetry(ledger.complete(sendNext(350)).orElseThrow().items().get(0), 400);
        ledger.retried(retryB);

        assertThat(ledger.accept(retryA, 500)).isEqualTo(SUPERSEDED);
        assertThat(ledger.accept(retryB, 500)).isEqualTo(ACCEPTED);
        assertThat(body(stores.pending().get("T-1"))).contains("\"b\"");
    }

    @Test
    void shouldReplaceADelayedRetryWithAnUpdate() {
        ledger.accept(fresh("T-1", "old", 100), 100);
        WorkItem failed = asRetry(ledger.complete(sendNext(150)).orElseThrow().items().get(0), 60_000);
        ledger.retried(failed);
        assertThat(ledger.accept(failed, 200)).isEqualTo(ACCEPTED);
        assertThat(ledger.delayedCount()).isEqualTo(1);

        assertThat(ledger.accept(fresh("T-1", "new", 300), 300)).isEqualTo(REPLACED);
        assertThat(ledger.delayedCount()).isZero();
        assertThat(stores.delayed().get("T-1")).isNull();
        assertThat(stores.pending().get("T-1").attempt()).isZero();
        assertThat(ledger.queue().contains("T-1")).isTrue();
    }

    @Test
    void shouldAskAgainForTheTicketsOfCallsInterruptedByACrash() {
        ledger.accept(fresh("T-1", "one", 100), 100);
        ledger.accept(fresh("T-2", "two", 100), 100);
        String batch = sendNext(150);

        DispatchLedger restarted = ledger();
        Restored restored = restarted.restore(item -> true);
        assertThat(restored.pending()).isEqualTo(2);
        assertThat(restored.calls()).isEqualTo(1);
        assertThat(stores.inFlight().get(batch)).isNull();
        assertThat(restarted.queue().size()).isEqualTo(2);
        assertThat(restarted.callsInFlight()).isZero();
    }
}

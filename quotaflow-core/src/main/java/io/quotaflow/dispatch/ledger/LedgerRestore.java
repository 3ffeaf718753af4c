package io.quotaflow.dispatch.ledger;

import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A {@link DispatchLedger}'s restore: rebuilds its in-memory indexes from the changelogged stores when its
 * scope is taken over (a start, a rebalance), forgetting a previous owner's calls.
 */
final class LedgerRestore {

    private LedgerRestore() {
    }

    /**
     * Rebuilds the indexes of the tickets {@code mine} claims (the stores are shared by the ledgers
     * of every quota scope a task holds; each takes its own). Calls of a previous owner are
     * forgotten: their tickets are still in {@code pending} and are asked again. An interrupted call
     * is claimed with its first ticket still pending, or by anyone when none is left. A call {@code kept}
     * names (one of a batch job the provider holds) stays out: its answer is still to come.
     */
    static Restored restore(DispatchLedger l, Predicate<WorkItem> mine, Predicate<String> kept) {
        List<KeyValue<String, InFlightBatch>> orphaned = new ArrayList<>();
        try (KeyValueIterator<String, InFlightBatch> it = l.inFlight.all()) {
            it.forEachRemaining(orphaned::add);
        }
        int fromCalls = 0;
        long callTokens = 0;
        int calls = 0;
        int stayed = 0;
        for (KeyValue<String, InFlightBatch> kv : orphaned) {
            if (!claims(l, kv.value, mine)) {
                continue;
            }
            if (kept.test(kv.key)) {
                kv.value.members().forEach(m -> l.inFlightIds.add(m.id()));
                l.inFlightBatches.add(kv.key);
                stayed++;
                continue;
            }
            calls++;
            fromCalls += kv.value.size();
            callTokens += kv.value.chargedTokens();
            l.inFlight.delete(kv.key);
        }
        // only the refs of the tickets not spilled are kept while reading: the store may hold far more than memory would
        List<java.util.Map.Entry<Priority, PendingQueue.Ref>> held = new ArrayList<>();
        int[] restored = {0};
        try (KeyValueIterator<String, WorkItem> it = l.pending.all()) {
            it.forEachRemaining(kv -> {
                if (!mine.test(kv.value) || l.inFlightIds.contains(kv.key)) {
                    return;
                }
                restored[0]++;
                if (l.spill.holds(kv.value)) {
                    l.spill.count(kv.value.priority(), 1, kv.value.tokens());
                } else {
                    held.add(java.util.Map.entry(kv.value.priority(), DispatchLedger.ref(kv.value, false)));
                }
            });
        }
        held.sort(java.util.Map.Entry.<Priority, PendingQueue.Ref>comparingByKey()
                .thenComparing(e -> e.getValue().enqueuedAt()).thenComparing(e -> e.getValue().id()));
        for (java.util.Map.Entry<Priority, PendingQueue.Ref> e : held) {
            if (l.spill.queueFull()) {
                // more than the queue holds (the bound was lowered): the newest wait on disk
                l.spill.spill(e.getKey(), e.getValue());
            } else {
                l.queue.add(e.getKey(), e.getValue());
            }
        }
        try (KeyValueIterator<String, WorkItem> it = l.delayed.all()) {
            it.forEachRemaining(kv -> {
                if (mine.test(kv.value)) {
                    l.delayedIndex.add(new DelayedRef(kv.value.notBefore(), kv.key));
                }
            });
        }
        return new Restored(restored[0], fromCalls, calls, l.delayedIndex.size(), callTokens, restoreCancels(l, mine), stayed);
    }

    /**
     * Tickets cancelled while a previous owner's call was out: that call is forgotten, so they end
     * as cancelled now (returned, still held: the caller withdraws them). A mark whose ticket is
     * gone is dropped; one of another scope's ticket is left to that scope.
     */
    private static List<WorkItem> restoreCancels(DispatchLedger l, Predicate<WorkItem> mine) {
        List<KeyValue<String, Long>> marks = new ArrayList<>();
        try (KeyValueIterator<String, Long> it = l.cancels.all()) {
            it.forEachRemaining(marks::add);
        }
        List<WorkItem> out = new ArrayList<>();
        for (KeyValue<String, Long> mark : marks) {
            WorkItem item = l.pending.get(mark.key);
            if (item == null) {
                l.cancels.delete(mark.key);
            } else if (mine.test(item)) {
                l.cancels.delete(mark.key);
                out.add(item);
            }
        }
        return out;
    }

    private static boolean claims(DispatchLedger l, InFlightBatch batch, Predicate<WorkItem> mine) {
        for (InFlightBatch.Member m : batch.members()) {
            WorkItem item = l.pending.get(m.id());
            if (item != null) {
                return mine.test(item);
            }
        }
        return true;
    }
}

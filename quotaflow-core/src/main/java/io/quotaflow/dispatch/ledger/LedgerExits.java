package io.quotaflow.dispatch.ledger;

import io.quotaflow.ticket.WorkItem;

import java.util.ArrayList;
import java.util.List;

/** Tickets leaving a {@link DispatchLedger} unanswered: read, then taken for a move or an end; withdrawn for another copy. */
final class LedgerExits {

    private LedgerExits() {
    }

    /** The waiting tickets named by {@code ids}, read before a move or an end is built for each (then taken). */
    static List<WorkItem> waiting(DispatchLedger l, java.util.Collection<String> ids) {
        List<WorkItem> out = new ArrayList<>();
        for (String id : ids) {
            WorkItem item = l.queue.contains(id) ? l.pending.get(id) : null;
            if (item != null) {
                out.add(item);
            }
        }
        return out;
    }

    /** Takes the waiting tickets named by {@code ids} out of the queue and the store (the ones not waiting stay as they are). */
    static List<WorkItem> take(DispatchLedger l, java.util.Collection<String> ids) {
        List<WorkItem> out = new ArrayList<>();
        for (String id : ids) {
            if (l.queue.remove(id).isPresent()) {
                WorkItem item = l.pending.get(id);
                if (item != null) {
                    l.pending.delete(id);
                    out.add(item);
                }
            }
        }
        return out;
    }

    /**
     * Drops the copy of {@code id} held here (waiting, delayed, or with its call out: that answer is
     * then ignored) and any retry of it on its way back: another copy is answered instead.
     */
    static void withdraw(DispatchLedger l, String id) {
        l.forgetCancel(id);
        if (l.queue.remove(id).isEmpty()) {
            l.spill.unspill(l.pending.get(id));
        }
        l.pending.delete(id);
        WorkItem later = l.delayed.get(id);
        if (later != null) {
            l.delayed.delete(id);
            l.delayedIndex.remove(new DelayedRef(later.notBefore(), id));
        }
        RetryMarker marker = l.retrying.get(id);
        if (marker != null && !marker.superseded()) {
            l.retrying.put(id, marker.supersede());
        }
    }
}

package io.quotaflow.dispatch.ledger;

import io.quotaflow.ticket.WorkItem;

import java.util.ArrayList;
import java.util.List;

/** A {@link DispatchLedger}'s retries held until their {@code qf.not-before}: read in due order, promoted when due. */
final class DelayedRetries {

    private DelayedRetries() {
    }

    /** The first {@code limit} retries held for later, by due time (a store read each). */
    static List<io.quotaflow.status.QueueView.Retry> first(DispatchLedger l, int limit) {
        List<io.quotaflow.status.QueueView.Retry> out = new ArrayList<>();
        for (DelayedRef ref : l.delayedIndex) {
            if (out.size() >= limit) {
                break;
            }
            WorkItem item = l.delayed.get(ref.id());
            if (item != null) {
                out.add(new io.quotaflow.status.QueueView.Retry(ref.notBefore(), item.priority(), item.tokens()));
            }
        }
        return out;
    }

    /** Moves retries whose time has come to l.pending. */
    static void promoteDue(DispatchLedger l, long now) {
        while (!l.delayedIndex.isEmpty() && l.delayedIndex.first().notBefore() <= now) {
            DelayedRef ref = l.delayedIndex.pollFirst();
            WorkItem item = l.delayed.get(ref.id());
            l.delayed.delete(ref.id());
            if (item != null && l.pending.get(item.key()) == null) {
                l.pending.put(item.key(), item);
                l.index(item, false);
            }
        }
    }
}

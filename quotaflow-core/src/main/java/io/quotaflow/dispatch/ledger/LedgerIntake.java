package io.quotaflow.dispatch.ledger;

import io.quotaflow.ticket.WorkItem;

/**
 * What a {@link DispatchLedger} does with an arriving ticket: holds a new one, replaces an older copy (keeping its
 * place), ignores an identical re-publish, and drops a retry record that a newer copy overtook.
 */
final class LedgerIntake {

    private LedgerIntake() {
    }

    /** Takes in a ticket from the dispatch topic: a new one, an update, or a retry coming back. */
    static DispatchLedger.Acceptance accept(DispatchLedger l, WorkItem item, long now) {
        String id = item.key();
        if (item.attempt() == 0) {
            // published again after a cancel: the ticket counts again
            l.forgetCancel(id);
        }
        WorkItem waiting = l.pending.get(id);
        WorkItem held = waiting != null ? waiting : l.delayed.get(id);
        RetryMarker marker = l.retrying.get(id);
        if (item.attempt() > 0) {
            return acceptRetry(l, item, held, marker, now);
        }
        if (held != null && held.sameContent(item)) {
            return DispatchLedger.Acceptance.IDENTICAL;
        }
        if (held == null && marker != null && !marker.superseded() && marker.sha256().equals(item.originalSha256())) {
            // the same content is on its way back from tickets.retry: that copy goes on
            return DispatchLedger.Acceptance.IDENTICAL;
        }
        if (marker != null && !marker.superseded()) {
            l.retrying.put(id, marker.supersede());
        }
        if (held == null) {
            l.hold(item, now);
            return DispatchLedger.Acceptance.ACCEPTED;
        }
        WorkItem update = item.withEnqueuedAt(Math.min(held.enqueuedAt(), item.enqueuedAt()));
        if (waiting == null) {
            l.delayed.delete(id);
            l.delayedIndex.remove(new DelayedRef(held.notBefore(), id));
            l.hold(update, now);
        } else if (l.inFlightIds.contains(id)) {
            // its call is out: the answer for the old copy will be ignored, then this copy waits its turn
            l.pending.put(id, update);
        } else if (l.queue.contains(id)) {
            l.pending.put(id, update);
            l.queue.replace(update.priority(), DispatchLedger.ref(update, false));
        } else {
            // spilled (it takes its place on disk by its class and arrival), or another scope's copy
            l.spill.unspill(waiting);
            l.pending.put(id, update);
            l.index(update, false);
        }
        return DispatchLedger.Acceptance.REPLACED;
    }

    private static DispatchLedger.Acceptance acceptRetry(DispatchLedger l, WorkItem item, WorkItem held, RetryMarker marker, long now) {
        String id = item.key();
        if (marker != null) {
            if (!marker.matches(item)) {
                // an older retry of a ticket retried again since: that newer one is still coming
                return DispatchLedger.Acceptance.SUPERSEDED;
            }
            l.retrying.delete(id);
            if (marker.superseded() || held != null) {
                return DispatchLedger.Acceptance.SUPERSEDED;
            }
        } else if (held != null) {
            // no record of it being sent (state from an older version): the copy held wins
            return held.origin().equals(item.origin()) ? DispatchLedger.Acceptance.IDENTICAL : DispatchLedger.Acceptance.SUPERSEDED;
        }
        l.hold(item, now);
        return DispatchLedger.Acceptance.ACCEPTED;
    }
}

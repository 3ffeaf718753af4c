package io.quotaflow.dispatch.plan;

import io.quotaflow.dispatch.ledger.Backlog;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.ledger.PendingQueue;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;

import java.util.List;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * A scope's {@link DispatchLedger} as the planner reads it ({@link DispatchView.Queue}): the ledger knows
 * nothing of the planner, so the dependency runs one way, from plan to ledger.
 *
 * @param ledger the scope's ledger, only read through this view
 */
public record LedgerQueue(DispatchLedger ledger) implements DispatchView.Queue {

    @Override
    public Optional<PendingQueue.Proposal> propose(int maxItems, ToIntFunction<Priority> maxTokens, long maxBytes, long now) {
        return ledger.propose(maxItems, maxTokens, maxBytes, now);
    }

    @Override
    public List<WorkItem> load(PendingQueue.Proposal proposal) {
        return ledger.load(proposal);
    }

    @Override
    public int callsInFlight() {
        return ledger.callsInFlight();
    }

    @Override
    public Backlog backlog() {
        return ledger.backlog();
    }

    @Override
    public boolean backlogged() {
        return ledger.backlogged();
    }
}

package io.quotaflow.dispatch.limit;

import io.quotaflow.dispatch.plan.DispatchPlanner;
import io.quotaflow.dispatch.plan.DispatchView;
import io.quotaflow.dispatch.call.BatchCaller;
import io.quotaflow.dispatch.ledger.Backlog;
import io.quotaflow.dispatch.queue.PendingQueue;

import io.quotaflow.quota.Charge;
import io.quotaflow.quota.ContextWindow;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the {@link DispatchPlanner} sees of a batch route's limits: not the per-minute buckets nor a cap
 * on calls out (a batch job's calls are out for hours, and the Batch API has neither), but the room the
 * route's enqueued-token limit leaves ({@link BatchCaller#room}); the prompt, its price and the context
 * window are the provider model's, as on an online route.
 */
public record BatchLimiter(DispatchView.Limiter provider, BatchCaller caller) implements DispatchView.Limiter {

    /** Calls out at once: no limit (half of the largest int, so that the planner's extra calls cannot overflow it). */
    static final int NO_CALL_LIMIT = Integer.MAX_VALUE / 2;

    @Override
    public int maxInFlight(long nanos) {
        return NO_CALL_LIMIT;
    }

    @Override
    public boolean inFlightFixed() {
        return true;
    }

    @Override
    public int promptTokenCap(Priority priority) {
        return provider.promptTokenCap(priority);
    }

    @Override
    public Charge estimate(PendingQueue.Proposal proposal) {
        return provider.estimate(proposal);
    }

    @Override
    public Charge charge(List<WorkItem> items) {
        return provider.charge(items);
    }

    @Override
    public ContextWindow window() {
        return provider.window();
    }

    @Override
    public Charge estimate(Backlog backlog) {
        return provider.estimate(backlog);
    }

    /** Now while the enqueued-token limit has room for {@code charge} (whatever waits after it); else a second (a job must finish first). */
    @Override
    public long nanosUntilAdmissible(Priority priority, Charge charge, Charge after, long nanos) {
        return caller.room(charge.tokens()) ? 0 : TimeUnit.SECONDS.toNanos(1);
    }
}

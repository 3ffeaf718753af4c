package io.quotaflow.dispatch.plan;

import io.quotaflow.dispatch.ledger.Backlog;
import io.quotaflow.dispatch.ledger.PendingQueue;

import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.quota.Charge;
import io.quotaflow.quota.ContextWindow;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.ticket.WorkItem;

import java.util.List;
import java.util.Optional;

/**
 * The dispatch loop's decisions as data flow: what one scope does next, from a {@link DispatchView}
 * of its queue, limiter and circuit. A pure function of (view, time); the {@code ScopeDispatcher}
 * carries the step out. See {@code docs/design.md}, "Dispatcher".
 *
 * <p>It asks, in order: the in-flight limit (beyond an auto limit only an interactive batch may start,
 * in one of {@value #INTERACTIVE_EXTRA_CALLS} extra calls; a configured limit is never exceeded); the circuit (nothing, or one probe of one ticket); the
 * next batch (highest class first, tenants by their shares, within the prompt-token cap and the byte
 * cap); whether a batch that is not full may linger (a probe never does); the limiter on the estimate
 * (while the buckets refill, the usual state when a limit binds, this is where the loop stops, before
 * loading, parsing and pricing anything); the tickets still held; the context window (split, or too
 * large alone); and the limiter on the exact price. The limiter hears, with each price, what the work
 * still waiting behind the batch would cost ({@link Backlog}).
 */
public final class DispatchPlanner {

    /**
     * Calls beyond an auto in-flight limit that only interactive batches may start: an interactive
     * ticket never waits for a slow bulk call to come back before it can go. A configured
     * {@code quota.max-in-flight} is a promise to the provider and gets none.
     */
    static final int INTERACTIVE_EXTRA_CALLS = 2;

    private final BatchSettings batch;
    private final long maxBatchBytes;

    /**
     * @param batch         how tickets are grouped into calls
     * @param maxBatchBytes most ticket bytes in one call (a single larger ticket goes alone)
     */
    public DispatchPlanner(BatchSettings batch, long maxBatchBytes) {
        this.batch = batch;
        this.maxBatchBytes = maxBatchBytes;
    }

    /** What the scope seen in {@code view} does next at {@code now} (epoch ms). */
    public DispatchStep next(DispatchView view, long now) {
        int callsOut = view.queue().callsInFlight();
        int maxInFlight = view.limiter().maxInFlight(view.nanos());
        int extra = view.limiter().inFlightFixed() ? 0 : INTERACTIVE_EXTRA_CALLS;
        if (callsOut >= maxInFlight + extra) {
            return new DispatchStep.Idle(DispatchStep.Idle.Reason.CALLS_OUT);
        }
        DispatchView.Circuit circuit = view.circuit();
        boolean probe = circuit.mode() == ScopeHealth.Mode.PROBE;
        if (circuit.mode() == ScopeHealth.Mode.BLOCKED || (probe && circuit.probeOut())) {
            return new DispatchStep.Idle(DispatchStep.Idle.Reason.CIRCUIT);
        }
        int maxItems = probe ? 1 : batch.maxItems();
        Optional<PendingQueue.Proposal> proposal = view.queue().propose(maxItems, view.limiter()::promptTokenCap, maxBatchBytes, now);
        if (proposal.isEmpty()) {
            return new DispatchStep.Idle(DispatchStep.Idle.Reason.EMPTY);
        }
        if (callsOut >= maxInFlight && proposal.get().priority() != Priority.INTERACTIVE) {
            // the extra calls are interactive work's alone: bulk never fills them
            return new DispatchStep.Idle(DispatchStep.Idle.Reason.CALLS_OUT);
        }
        return plan(proposal.get(), probe, maxItems, view, now);
    }

    private DispatchStep plan(PendingQueue.Proposal proposal, boolean probe, int maxItems, DispatchView view, long now) {
        DispatchView.Limiter limiter = view.limiter();
        Priority priority = proposal.priority();
        // with tickets spilled to disk the batch cannot fill from memory by waiting: no linger then
        if (!probe && !view.queue().backlogged() && proposal.mayLinger(batch.linger(priority).toMillis(), maxItems, limiter.promptTokenCap(priority), now)) {
            return new DispatchStep.Linger(proposal);
        }
        Charge estimate = limiter.estimate(proposal);
        // what still waits behind this batch: the last calls of a backlog may spend what lowerings added to the reserve
        Charge after = limiter.behind(proposal, view.queue().backlog());
        if (limiter.nanosUntilAdmissible(priority, estimate, after, view.nanos()) > 0) {
            return new DispatchStep.Wait(proposal, estimate);
        }
        List<WorkItem> items = view.queue().load(proposal);
        if (items.isEmpty()) {
            return new DispatchStep.Discard(proposal);
        }
        Charge charge = limiter.charge(items);
        ContextWindow window = limiter.window();
        if (!window.fits(charge.tokens())) {
            return tooLarge(proposal, items, charge, window);
        }
        if (limiter.nanosUntilAdmissible(priority, charge, after, view.nanos()) > 0) {
            return new DispatchStep.Wait(proposal, charge);
        }
        return new DispatchStep.Start(proposal, items, charge, after, probe);
    }

    /** A batch over the context window: split in half; a ticket alone cannot be sent. */
    private static DispatchStep tooLarge(PendingQueue.Proposal proposal, List<WorkItem> items, Charge charge, ContextWindow window) {
        if (items.size() > 1) {
            int half = Math.max(1, items.size() / 2);
            return new DispatchStep.Split(proposal, items.stream().map(i -> i.withBatchCap(half)).toList());
        }
        return new DispatchStep.TooLarge(proposal, items.get(0), charge.tokens(), window.tokens(), window.learned());
    }
}

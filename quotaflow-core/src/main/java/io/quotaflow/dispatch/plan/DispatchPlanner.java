package io.quotaflow.dispatch.plan;

import io.quotaflow.dispatch.ledger.Backlog;
import io.quotaflow.dispatch.queue.PendingQueue;

import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The dispatch loop's decisions as data flow: what one scope does next, from a {@link DispatchView}, a
 * value the executor reads of its queue, limiter and circuit before asking. A pure function of (view,
 * time): it holds no ledger, no provider model and no clock; the {@code StepExecutor} carries the step
 * out. See {@code docs/design.md}, "Dispatcher".
 *
 * <p>It asks, in order: the in-flight limit (beyond an auto limit only an interactive batch may start,
 * in one of {@value #INTERACTIVE_EXTRA_CALLS} extra calls; a configured limit is never exceeded); the circuit (nothing, or one probe
 * of one ticket); the next batch (highest class first, tenants by their shares, within the prompt-token cap and the byte
 * cap, as the view proposes it); whether a batch that is not full may linger (a probe never does); the limiter on the estimate
 * (while the buckets refill, the usual state when a limit binds, this is where the loop stops, before
 * loading, parsing and pricing anything). Then ({@link DispatchStep.Load}) the executor loads and prices the tickets, and
 * {@link #priced} decides on that: the tickets still held; the context window (split, or too large alone); and the limiter
 * on the exact price. The limiter hears, with each price, what the work still waiting behind the batch would cost
 * ({@link Backlog}).
 */
public final class DispatchPlanner {

    /**
     * Calls beyond an auto in-flight limit that only interactive batches may start: an interactive
     * ticket never waits for a slow bulk call to come back before it can go. A configured
     * {@code quota.max-in-flight} is a promise to the provider and gets none.
     */
    static final int INTERACTIVE_EXTRA_CALLS = 2;

    private final int batchItems;
    private final Map<Priority, Long> lingerMs;
    private final long maxBatchBytes;

    /**
     * @param batchItems    most tickets in one call ({@code batch.max-items})
     * @param lingerMs      how long a batch of each class that is not full may wait for more tickets, in ms
     * @param maxBatchBytes most ticket bytes in one call (a single larger ticket goes alone)
     */
    public DispatchPlanner(int batchItems, Map<Priority, Long> lingerMs, long maxBatchBytes) {
        this.batchItems = batchItems;
        this.lingerMs = new EnumMap<>(lingerMs);
        this.maxBatchBytes = maxBatchBytes;
    }

    /** Most tickets the next call may take under {@code circuit}: one for a probe. The view proposes at most as many. */
    public int maxItems(DispatchView.Circuit circuit) {
        return circuit.mode() == ScopeHealth.Mode.PROBE ? 1 : batchItems;
    }

    /** Most ticket bytes in one call: the view proposes within it (a single larger ticket goes alone). */
    public long maxBatchBytes() {
        return maxBatchBytes;
    }

    /** What the scope seen in {@code view} does next at {@code now} (epoch ms). */
    public DispatchStep next(DispatchView view, long now) {
        int callsOut = view.callsInFlight();
        int maxInFlight = view.maxInFlight();
        int extra = view.inFlightFixed() ? 0 : INTERACTIVE_EXTRA_CALLS;
        if (callsOut >= maxInFlight + extra) {
            return new DispatchStep.Idle(DispatchStep.Idle.Reason.CALLS_OUT);
        }
        DispatchView.Circuit circuit = view.circuit();
        boolean probe = circuit.mode() == ScopeHealth.Mode.PROBE;
        if (circuit.mode() == ScopeHealth.Mode.BLOCKED || (probe && circuit.probeOut())) {
            return new DispatchStep.Idle(DispatchStep.Idle.Reason.CIRCUIT);
        }
        if (view.next().isEmpty()) {
            return new DispatchStep.Idle(DispatchStep.Idle.Reason.EMPTY);
        }
        if (callsOut >= maxInFlight && view.next().get().proposal().priority() != Priority.INTERACTIVE) {
            // the extra calls are interactive work's alone: bulk never fills them
            return new DispatchStep.Idle(DispatchStep.Idle.Reason.CALLS_OUT);
        }
        return plan(view.next().get(), probe, view, now);
    }

    /** The next batch, the circuit letting it start: linger, wait on the estimate, or load it. */
    private DispatchStep plan(DispatchView.Candidate next, boolean probe, DispatchView view, long now) {
        PendingQueue.Proposal proposal = next.proposal();
        // with tickets spilled to disk the batch cannot fill from memory by waiting: no linger then
        if (!probe && !view.backlogged()
                && proposal.mayLinger(lingerMs.getOrDefault(proposal.priority(), 0L), batchItems, next.tokenCap(), now)) {
            return new DispatchStep.Linger(proposal);
        }
        if (next.waitNanos() > 0) {
            return new DispatchStep.Wait(proposal, next.estimate());
        }
        return new DispatchStep.Load(proposal, next.after(), probe);
    }

    /** What {@code load} comes to once its tickets are loaded and priced ({@code priced}, read after it was chosen). */
    public DispatchStep priced(DispatchStep.Load load, DispatchView.Priced priced) {
        List<WorkItem> items = priced.items();
        if (items.isEmpty()) {
            return new DispatchStep.Discard(load.proposal());
        }
        if (!priced.fits()) {
            return tooLarge(load.proposal(), items, priced);
        }
        if (priced.waitNanos() > 0) {
            return new DispatchStep.Wait(load.proposal(), priced.charge());
        }
        return new DispatchStep.Start(load.proposal(), items, priced.charge(), load.after(), load.probe());
    }

    /** A batch over the context window: split in half; a ticket alone cannot be sent. */
    private static DispatchStep tooLarge(PendingQueue.Proposal proposal, List<WorkItem> items, DispatchView.Priced priced) {
        if (items.size() > 1) {
            int half = Math.max(1, items.size() / 2);
            return new DispatchStep.Split(proposal, items.stream().map(i -> i.withBatchCap(half)).toList());
        }
        return new DispatchStep.TooLarge(proposal, items.get(0), priced.charge().tokens(), priced.windowTokens(), priced.windowLearned());
    }
}

package io.quotaflow.dispatch.plan;

import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.quota.Charge;
import io.quotaflow.ticket.WorkItem;

import java.util.List;

/**
 * What a scope's dispatch loop does next: the {@link DispatchPlanner}'s answer, as a value. The
 * loop carries out {@link Discard}, {@link Split} and {@link TooLarge} and asks again; it stops for
 * this tick on {@link Idle}, {@link Linger} and {@link Wait}; on {@link Load} it loads and prices the
 * chosen tickets and asks the planner on the price ({@link DispatchPlanner#priced}); on {@link Start}
 * it admits the call, takes the circuit's permit last, builds the prompt, sends it and asks again.
 */
public sealed interface DispatchStep {

    /** Whether the loop asks again after carrying this step out. */
    boolean continues();

    /** Nothing may start now. */
    record Idle(Reason reason) implements DispatchStep {

        /** Why nothing may start. */
        enum Reason {
            /** As many calls are out as may be. */
            CALLS_OUT,
            /** The circuit lets nothing start (open, halted, or its one probe is out). */
            CIRCUIT,
            /** Nothing waits (or every waiting tenant is held by its cap). */
            EMPTY
        }

        @Override
        public boolean continues() {
            return false;
        }
    }

    /** The next batch is not full and young enough to wait for more tickets; nothing of a lower class overtakes it. */
    record Linger(PendingQueue.Proposal proposal) implements DispatchStep {

        @Override
        public boolean continues() {
            return false;
        }
    }

    /**
     * The limiter has no room for the next batch at {@code charge} (its estimate, or its price) yet;
     * strict priority: nothing of a lower class overtakes it.
     */
    record Wait(PendingQueue.Proposal proposal, Charge charge) implements DispatchStep {

        @Override
        public boolean continues() {
            return false;
        }
    }

    /**
     * The batch may go on its estimate: the executor loads its tickets from the store and prices them
     * ({@link DispatchView.Priced}), and the planner decides on that price ({@link DispatchPlanner#priced}).
     *
     * @param after what the work still waiting behind it would be charged
     * @param probe the circuit lets this one call through to probe the provider
     */
    record Load(PendingQueue.Proposal proposal, Charge after, boolean probe) implements DispatchStep {

        @Override
        public boolean continues() {
            return true;
        }
    }

    /** Every ticket of the proposal is gone from the store: it leaves the queue. */
    record Discard(PendingQueue.Proposal proposal) implements DispatchStep {

        @Override
        public boolean continues() {
            return true;
        }
    }

    /** The batch is over the context window: its tickets wait again as {@code requeued}, each capped to half the batch. */
    record Split(PendingQueue.Proposal proposal, List<WorkItem> requeued) implements DispatchStep {

        public Split {
            requeued = List.copyOf(requeued);
        }

        @Override
        public boolean continues() {
            return true;
        }
    }

    /**
     * A ticket alone over the context window: unsent, it goes to its route's context fallback, or
     * is dead-lettered {@code too-large}.
     *
     * @param cost          what it would be charged (prompt + {@code max_tokens})
     * @param windowTokens  the context window
     * @param windowLearned the window is the provider's (learned from a refusal), not the configured one
     */
    record TooLarge(PendingQueue.Proposal proposal, WorkItem item, long cost, long windowTokens, boolean windowLearned)
            implements DispatchStep {

        @Override
        public boolean continues() {
            return true;
        }
    }

    /**
     * A call goes now: {@code items}, charged {@code charge}; the executor builds their prompt
     * ({@code ProviderModel.prompt}), whose tokens are those charged.
     *
     * @param after what the work still waiting behind it would be charged (the limiter admits it on both)
     * @param probe the circuit lets this one call through to probe the provider
     */
    record Start(PendingQueue.Proposal proposal, List<WorkItem> items, Charge charge, Charge after, boolean probe)
            implements DispatchStep {

        public Start {
            items = List.copyOf(items);
        }

        @Override
        public boolean continues() {
            return true;
        }
    }
}

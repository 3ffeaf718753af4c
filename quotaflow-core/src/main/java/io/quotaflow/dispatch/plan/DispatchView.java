package io.quotaflow.dispatch.plan;

import io.quotaflow.dispatch.ledger.Backlog;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.ledger.PendingQueue;

import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.quota.Charge;
import io.quotaflow.quota.ContextWindow;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;

import java.util.List;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * What the {@link DispatchPlanner} sees of one quota scope at one moment: its queue, its limiter (and
 * what the provider will charge), and its circuit. Every method only reads; nothing the planner asks
 * changes what the next question would answer.
 *
 * @param queue   the tickets waiting and the calls out ({@link DispatchLedger})
 * @param limiter the provider's limits and prices ({@link ProviderModel})
 * @param circuit what the scope's health lets start now
 * @param nanos   the limiter's time of this view (epoch ns), read once when the view is built: the limiter
 *                reads no clock while the planner asks it
 */
public record DispatchView(Queue queue, Limiter limiter, Circuit circuit, long nanos) {

    /** The tickets of a scope: what waits, what would go next, how many calls are out. */
    public interface Queue {

        /** The next batch, as {@link PendingQueue#propose(int, ToIntFunction, long, long)} proposes it. */
        Optional<PendingQueue.Proposal> propose(int maxItems, ToIntFunction<Priority> maxTokens, long maxBytes, long now);

        /** The tickets of {@code proposal} as held (a ticket gone meanwhile is left out). */
        List<WorkItem> load(PendingQueue.Proposal proposal);

        /** Calls out now. */
        int callsInFlight();

        /** What waits below the interactive class, in memory and spilled. */
        Backlog backlog();

        /** Whether tickets wait beyond the in-memory queue (spilled to disk): a batch then never lingers for more. */
        default boolean backlogged() {
            return false;
        }
    }

    /** What the scope knows of its provider: how much may go, and what a batch costs. */
    interface Limiter {

        /** How many calls may be out at once at {@code nanos} (epoch ns). */
        int maxInFlight(long nanos);

        /** Whether {@link #maxInFlight(long)} is a configured number ({@code quota.max-in-flight}) rather than auto: then nothing goes beyond it. */
        boolean inFlightFixed();

        /** The prompt tokens one batch of {@code priority} may hold. */
        int promptTokenCap(Priority priority);

        /** A lower bound of what {@code proposal} would be charged, from its tickets' estimates (no prompt built). */
        Charge estimate(PendingQueue.Proposal proposal);

        /** What the provider will charge for the prompt of {@code items} (the executor builds the prompt of the call that starts). */
        Charge charge(List<WorkItem> items);

        /** The model's context window. */
        ContextWindow window();

        /** What the calls that would carry {@code backlog} would be charged in all, at least ({@link Charge#NONE} for none). */
        Charge estimate(Backlog backlog);

        /**
         * Nanoseconds after {@code nanos} (epoch ns) until a call charged {@code charge} at {@code priority},
         * with work charged {@code after} still waiting behind it, could be admitted; 0 if then.
         */
        long nanosUntilAdmissible(Priority priority, Charge charge, Charge after, long nanos);

        /**
         * What still waits in {@code backlog} once {@code proposal} is out, priced: what the limiter is
         * told sits behind the call ({@link Charge#NONE} behind an interactive one, whose floor is 0).
         */
        default Charge behind(PendingQueue.Proposal proposal, Backlog backlog) {
            return proposal.priority() == Priority.INTERACTIVE ? Charge.NONE : estimate(backlog.after(proposal));
        }
    }

    /**
     * The circuit, as {@link ScopeHealth#mode} says it now.
     *
     * @param mode     what may start: normal dispatch, one probe, or nothing
     * @param probeOut a probe is out: the next waits for its answer
     */
    public record Circuit(ScopeHealth.Mode mode, boolean probeOut) {
    }
}

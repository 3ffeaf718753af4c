package io.quotaflow.dispatch.plan;

import io.quotaflow.dispatch.ledger.Backlog;
import io.quotaflow.dispatch.queue.PendingQueue;

import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.quota.Charge;
import io.quotaflow.quota.ContextWindow;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;

import java.util.List;
import java.util.Optional;

/**
 * What the {@link DispatchPlanner} sees of one quota scope at one moment, as a value read before it
 * decides: the circuit, the calls out and how many may be, the next batch the queue proposes (at most
 * what one call may take, {@link DispatchPlanner#maxItems}) with the limiter's answers on it at the
 * view's time, and whether tickets wait spilled to disk. The executor reads it for every step, since
 * each call that starts changes the queue and the limiter; nothing in it is live.
 *
 * @param circuit       what the scope's health lets start now
 * @param callsInFlight calls out now
 * @param maxInFlight   how many calls may be out now ({@link Limiter#maxInFlight(long)} at the view's time)
 * @param inFlightFixed whether {@code maxInFlight} is a configured number ({@code quota.max-in-flight}) rather than auto:
 *                      then nothing goes beyond it
 * @param next          the next batch and what the limiter says of it; empty when nothing waits (or every waiting
 *                      tenant is held by its cap)
 * @param backlogged    tickets wait beyond the in-memory queue (spilled to disk): a batch then never lingers for more
 */
public record DispatchView(Circuit circuit, int callsInFlight, int maxInFlight, boolean inFlightFixed, Optional<Candidate> next,
                           boolean backlogged) {

    /**
     * The batch the queue proposes, with the limiter's answers on it at the view's time.
     *
     * @param proposal  the tickets, as {@link PendingQueue#propose} proposes them
     * @param tokenCap  the prompt tokens one batch of its class may hold ({@link Limiter#promptTokenCap})
     * @param estimate  a lower bound of its charge, from its tickets' estimates ({@link Limiter#estimate(PendingQueue.Proposal)})
     * @param after     what still waits behind it, priced ({@link Limiter#behind})
     * @param waitNanos how long until the limiter admits {@code estimate} with {@code after} behind it; 0 if now
     */
    public record Candidate(PendingQueue.Proposal proposal, int tokenCap, Charge estimate, Charge after, long waitNanos) {
    }

    /**
     * The tickets of a {@link DispatchStep.Load} as the executor loaded them from the store, priced, read
     * after the planner chose them and before it decides on the price.
     *
     * @param items         the tickets still held (a ticket gone meanwhile is left out)
     * @param charge        what the provider will charge for their prompt ({@link Limiter#charge}); {@link Charge#NONE} for none
     * @param windowTokens  the model's context window
     * @param windowLearned the window is the provider's (learned from a refusal), not the configured one
     * @param fits          the charge fits the window ({@link ContextWindow#fits})
     * @param waitNanos     how long until the limiter admits {@code charge} with the load's {@code after} behind it, at the
     *                      view's time; 0 if now
     */
    public record Priced(List<WorkItem> items, Charge charge, long windowTokens, boolean windowLearned, boolean fits, long waitNanos) {

        public Priced {
            items = List.copyOf(items);
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

    /**
     * What the scope knows of its provider, as the executor reads it into a view (and {@code /status}'s
     * wait): how much may go, and what a batch costs. Every method only reads.
     */
    public interface Limiter {

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
         * The view's {@link Candidate#after} and {@code /status}'s wait both ask it here.
         */
        default Charge behind(PendingQueue.Proposal proposal, Backlog backlog) {
            return proposal.priority() == Priority.INTERACTIVE ? Charge.NONE : estimate(backlog.after(proposal));
        }
    }
}

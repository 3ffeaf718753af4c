package io.quotaflow.dispatch.ledger;

import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.records.Priority;

/**
 * The work of one scope that waits below the interactive class: its tickets in memory and spilled
 * to disk, and their estimated prompt tokens. Tickets still on an input topic, or waiting out a retry
 * delay, are not in it. The limiter lets the calls behind which little of it waits spend what
 * lowerings added to the interactive reserve ({@code docs/design.md}, "Limiter").
 *
 * @param tickets      tickets waiting
 * @param promptTokens their estimated prompt tokens (our count, uncalibrated)
 */
public record Backlog(int tickets, long promptTokens) {

    public Backlog {
        if (tickets < 0 || promptTokens < 0) {
            throw new IllegalArgumentException("a backlog holds no negative counts: " + tickets + " tickets, " + promptTokens + " tokens");
        }
    }

    /** What still waits once {@code proposal} is out (an interactive proposal is not part of it). */
    public Backlog after(PendingQueue.Proposal proposal) {
        if (proposal.priority() == Priority.INTERACTIVE) {
            return this;
        }
        return new Backlog(Math.max(0, tickets - proposal.refs().size()), Math.max(0, promptTokens - proposal.tokens()));
    }

    /** What waits below the interactive class in {@code queue} and {@code spill}. */
    static Backlog of(PendingQueue queue, Spill spill) {
        int tickets = 0;
        long tokens = 0;
        for (Priority p : Priority.values()) {
            if (p != Priority.INTERACTIVE) {
                tickets += queue.size(p) + spill.spilled(p);
                tokens += queue.tokens(p) + spill.spilledTokens(p);
            }
        }
        return new Backlog(tickets, tokens);
    }
}

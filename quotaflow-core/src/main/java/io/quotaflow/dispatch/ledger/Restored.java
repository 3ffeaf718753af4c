package io.quotaflow.dispatch.ledger;

import io.quotaflow.ticket.WorkItem;

import java.util.List;

/**
 * What restore found: tickets pending, of which from interrupted calls, calls interrupted,
 * delayed, and what the interrupted calls were charged (they may still reach the provider).
 */
public record Restored(int pending, int fromCalls, int calls, int delayed, long callTokens, List<WorkItem> cancelled, int kept) {

    Restored(int pending, int fromCalls, int calls, int delayed, long callTokens, List<WorkItem> cancelled) {
        this(pending, fromCalls, calls, delayed, callTokens, cancelled, 0);
    }

    public boolean any() {
        return pending > 0 || calls > 0 || delayed > 0 || kept > 0;
    }
}

package io.quotaflow.topology;

import io.quotaflow.ticket.Priority;
import io.quotaflow.ticket.WorkItem;

import java.util.List;

/**
 * A call in flight, as the in-flight store keeps it: if the task dies before the answer, the next
 * owner puts these tickets back to pending.
 */
public record InFlightBatch(String batchId, Priority priority, List<WorkItem> items, long dispatchedAt,
                            int promptTokens, int maxTokens) {

    public long admissionCost() {
        return (long) promptTokens + maxTokens;
    }
}

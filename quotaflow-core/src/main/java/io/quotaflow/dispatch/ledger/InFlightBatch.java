package io.quotaflow.dispatch.ledger;

import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;

import java.util.List;

/**
 * A call in flight, as the in-flight store keeps it: which copies of which tickets it asked about.
 * The tickets themselves stay in the pending store while their call is out, so this record stays
 * small whatever the tickets weigh; if the task dies before the answer, the next owner finds them
 * there and asks again.
 *
 * @param members which copy of each ticket was sent: an update that arrives meanwhile supersedes it
 * @param promptTokens  the local estimate of the prompt
 * @param chargedTokens what the limiter reserved: the calibrated prompt + {@code max_tokens}
 */
public record InFlightBatch(String batchId, Priority priority, List<Member> members, long dispatchedAt,
                            int promptTokens, int maxTokens, long chargedTokens) {

    /** One ticket of the call: its id and the origin of the copy that was sent. */
    public record Member(String id, WorkItem.Origin origin, String sha256) {

        public static Member of(WorkItem item) {
            return new Member(item.key(), item.origin(), item.originalSha256());
        }

        boolean sent(WorkItem current) {
            return current.origin().equals(origin) && current.originalSha256().equals(sha256);
        }
    }

    public InFlightBatch {
        members = List.copyOf(members);
    }

    public static InFlightBatch of(String batchId, Priority priority, List<WorkItem> sent, long dispatchedAt, int promptTokens,
                            int maxTokens, long chargedTokens) {
        return new InFlightBatch(batchId, priority, sent.stream().map(Member::of).toList(), dispatchedAt, promptTokens,
                maxTokens, chargedTokens);
    }

    public long admissionCost() {
        return (long) promptTokens + maxTokens;
    }

    public int size() {
        return members.size();
    }
}

package io.quotaflow.dispatch;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
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
 * @param items   only in records written by versions before 0.2 (whole tickets); read, never written
 */
public record InFlightBatch(String batchId, Priority priority, List<Member> members, long dispatchedAt,
                            int promptTokens, int maxTokens, long chargedTokens, List<WorkItem> items) {

    /** One ticket of the call: its id and the origin of the copy that was sent. */
    public record Member(String id, WorkItem.Origin origin, String sha256) {

        static Member of(WorkItem item) {
            return new Member(item.id(), item.origin(), item.originalSha256());
        }

        boolean sent(WorkItem current) {
            return current.origin().equals(origin) && current.originalSha256().equals(sha256);
        }
    }

    @JsonCreator
    public InFlightBatch(@JsonProperty("batchId") String batchId, @JsonProperty("priority") Priority priority,
                         @JsonProperty("members") List<Member> members, @JsonProperty("dispatchedAt") long dispatchedAt,
                         @JsonProperty("promptTokens") int promptTokens, @JsonProperty("maxTokens") int maxTokens,
                         @JsonProperty("chargedTokens") long chargedTokens, @JsonProperty("items") List<WorkItem> items) {
        this.batchId = batchId;
        this.priority = priority;
        this.items = items == null || items.isEmpty() ? null : List.copyOf(items);
        this.members = members != null ? List.copyOf(members)
                : this.items == null ? List.of() : this.items.stream().map(Member::of).toList();
        this.dispatchedAt = dispatchedAt;
        this.promptTokens = promptTokens;
        this.maxTokens = maxTokens;
        this.chargedTokens = chargedTokens > 0 ? chargedTokens : (long) promptTokens + maxTokens;
    }

    static InFlightBatch of(String batchId, Priority priority, List<WorkItem> sent, long dispatchedAt, int promptTokens,
                            int maxTokens, long chargedTokens) {
        return new InFlightBatch(batchId, priority, sent.stream().map(Member::of).toList(), dispatchedAt, promptTokens,
                maxTokens, chargedTokens, null);
    }

    public long admissionCost() {
        return (long) promptTokens + maxTokens;
    }

    public int size() {
        return members.size();
    }
}

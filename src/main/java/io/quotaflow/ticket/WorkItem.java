package io.quotaflow.ticket;

import java.util.Objects;

/**
 * A validated ticket on its way through the dispatcher: what the internal repartition topic and
 * the dispatcher's stores hold.
 *
 * @param id          ticket id
 * @param priority    its priority class (for a retry: the class of its origin topic)
 * @param tenant      the customer, for fair sharing within a class
 * @param tokens      estimated prompt tokens the ticket adds to a call
 * @param original    the bytes as the producer wrote them (re-sent unchanged to retry and dead-letter topics)
 * @param origin      where the ticket first entered
 * @param enqueuedAt  epoch ms when quotaflow first accepted it (its age counts from here)
 * @param attempt     attempts consumed so far
 * @param notBefore   epoch ms before which it must not be dispatched (0: now)
 * @param failure     the last failure, if any
 * @param replayCount how many times operators replayed it from the dead-letter topic
 * @param replayOf    the dead-letter record it was replayed from ({@code partition:offset}), if any
 * @param batchCap    most tickets it may share a call with (0: no limit; halved on context-length errors)
 * @param maxTokensBoost multiplier for its completion budget after a {@code finish_reason=length} (1: none)
 */
public record WorkItem(String id, Priority priority, String tenant, int tokens, byte[] original, Origin origin,
                       long enqueuedAt, int attempt, long notBefore, FailureState failure, int replayCount,
                       String replayOf, int batchCap, int maxTokensBoost) {

    public WorkItem {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(priority, "priority");
        Objects.requireNonNull(original, "original");
        Objects.requireNonNull(origin, "origin");
        tenant = tenant == null || tenant.isBlank() ? Ticket.DEFAULT_TENANT : tenant;
        maxTokensBoost = Math.max(1, maxTokensBoost);
    }

    /** Where a ticket first entered quotaflow. */
    public record Origin(String topic, int partition, long offset) {
    }

    /**
     * The latest failure of a ticket.
     *
     * @param firstFailure epoch ms of its first failure
     * @param lastFailure  epoch ms of this failure
     * @param kind         error kind ({@code http-5xx}, {@code timeout}, {@code invalid-output}, ...)
     * @param status       HTTP status, 0 when there was none
     * @param message      truncated message, never a secret
     */
    public record FailureState(long firstFailure, long lastFailure, String kind, int status, String message) {
    }

    public WorkItem withAttemptFailed(FailureState newFailure, long newNotBefore) {
        return new WorkItem(id, priority, tenant, tokens, original, origin, enqueuedAt, attempt + 1, newNotBefore,
                newFailure, replayCount, replayOf, batchCap, maxTokensBoost);
    }

    public WorkItem withBatchCap(int cap) {
        return new WorkItem(id, priority, tenant, tokens, original, origin, enqueuedAt, attempt, notBefore,
                failure, replayCount, replayOf, cap, maxTokensBoost);
    }

    public WorkItem withMaxTokensBoost(int boost) {
        return new WorkItem(id, priority, tenant, tokens, original, origin, enqueuedAt, attempt, notBefore,
                failure, replayCount, replayOf, batchCap, boost);
    }
}

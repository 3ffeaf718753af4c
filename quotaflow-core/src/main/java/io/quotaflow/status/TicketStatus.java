package io.quotaflow.status;

import java.util.Objects;

/**
 * What the dispatcher last recorded of one ticket (the {@code qf-status} store's value).
 *
 * @param state      where it is
 * @param route      the route it is on (after a fallback: the new one)
 * @param priority   its priority class, wire name
 * @param tenant     its tenant
 * @param enqueuedAt epoch ms quotaflow first accepted it
 * @param updatedAt  epoch ms of this record (for {@code in-flight}: when its call went out)
 * @param dueAt      for {@code delayed}: epoch ms its retry is due; else 0
 * @param detail     what happened, in words (the dead-letter kind, the fallback), or null
 * @param publishedAt epoch ms of the publication this is the status of ({@code WorkItem#publishedAt}); 0 if not known
 */
public record TicketStatus(TicketState state, String route, String priority, String tenant, long enqueuedAt, long updatedAt,
                           long dueAt, String detail, long publishedAt) {

    public TicketStatus {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(priority, "priority");
        if (updatedAt < 0 || enqueuedAt < 0 || dueAt < 0) {
            throw new IllegalArgumentException("times must be epoch ms >= 0");
        }
    }

    /** The same ticket in {@code next} state at {@code at}, with {@code why}. */
    public TicketStatus to(TicketState next, long at, String why) {
        return new TicketStatus(next, route, priority, tenant, enqueuedAt, at, 0, why, publishedAt);
    }
}

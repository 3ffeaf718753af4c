package io.quotaflow.cache;

import io.quotaflow.ticket.WorkItem;

import java.util.List;
import java.util.Objects;

/**
 * A content was answered: the answer as cached, and the followers it answers too (each to be
 * written from its own {@link WorkItem}; they were never sent).
 */
public record Answered(CachedAnswer answer, List<WorkItem> followers) {

    public Answered {
        Objects.requireNonNull(answer, "answer");
        followers = List.copyOf(followers);
    }
}

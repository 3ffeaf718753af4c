package io.quotaflow.cache;

import io.quotaflow.records.Priority;

import java.util.Objects;

/**
 * A coalescing group: the ticket whose call answers one content, waiting or in flight. The value
 * of {@link CacheStores#GROUPS}, keyed by content key; its followers are entries of
 * {@link CacheStores#FOLLOWERS} (one record each, so no value grows with the group).
 *
 * @param leaderId       the leading ticket's id
 * @param leaderPriority its priority class: only tickets of that class or a lower one follow it
 * @param nextSeq        the place the next follower takes
 */
public record Group(String leaderId, Priority leaderPriority, long nextSeq) {

    public Group {
        Objects.requireNonNull(leaderId, "leaderId");
        Objects.requireNonNull(leaderPriority, "leaderPriority");
    }

    /** Whether a ticket of class {@code p} may wait for this leader: never for a less urgent one. */
    public boolean serves(Priority p) {
        return leaderPriority.compareTo(p) <= 0;
    }
}

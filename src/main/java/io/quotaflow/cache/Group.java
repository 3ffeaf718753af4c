package io.quotaflow.cache;

import java.util.Objects;

/**
 * A coalescing group: the ticket whose call answers one content, waiting or in flight. The value
 * of {@link CacheStores#GROUPS}, keyed by content key; its followers are entries of
 * {@link CacheStores#FOLLOWERS} (one record each, so no value grows with the group).
 *
 * @param leaderId the leading ticket's id
 * @param nextSeq  the place the next follower takes
 */
public record Group(String leaderId, long nextSeq) {

    public Group {
        Objects.requireNonNull(leaderId, "leaderId");
    }
}

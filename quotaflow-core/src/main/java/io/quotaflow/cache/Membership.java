package io.quotaflow.cache;

import java.util.Objects;

/**
 * Which coalescing group a ticket is in, and how: the value of {@link CacheStores#MEMBERS}, keyed by
 * ticket id. A ticket is in at most one group.
 *
 * @param key  the group's content key (hex)
 * @param role whether it leads the group (held by the dispatcher, its call answers the group) or follows it
 * @param seq  a follower's place in the group (arrival order); 0 for the leader
 */
public record Membership(String key, Role role, long seq) {

    /** A ticket's part in its group. */
    public enum Role {
        /** Held by the dispatcher like any ticket: its call answers the group. */
        LEADER,
        /** Held only by the group, answered (or dead-lettered) with its leader. */
        FOLLOWER
    }

    public Membership {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(role, "role");
    }

    static Membership leader(ContentKey key) {
        return new Membership(key.hex(), Role.LEADER, 0);
    }

    static Membership follower(ContentKey key, long seq) {
        return new Membership(key.hex(), Role.FOLLOWER, seq);
    }

    public boolean leads() {
        return role == Role.LEADER;
    }

    public ContentKey contentKey() {
        return new ContentKey(key);
    }
}

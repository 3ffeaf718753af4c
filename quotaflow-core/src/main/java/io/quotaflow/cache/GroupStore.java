package io.quotaflow.cache;

import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The coalescing groups in three stores: {@link CacheStores#GROUPS} (content key → {@link Group}),
 * {@link CacheStores#FOLLOWERS} ({@code <key>:<padded seq>} → the follower's {@link WorkItem}, in
 * arrival order) and {@link CacheStores#MEMBERS} (ticket id → {@link Membership}). Every change
 * keeps the three consistent; no state outside them.
 */
final class GroupStore {

    private static final int SEQ_DIGITS = 19;

    private final KeyValueStore<String, Group> groups;
    private final KeyValueStore<String, WorkItem> followers;
    private final KeyValueStore<String, Membership> members;

    GroupStore(KeyValueStore<String, Group> groups, KeyValueStore<String, WorkItem> followers,
               KeyValueStore<String, Membership> members) {
        this.groups = Objects.requireNonNull(groups, "groups");
        this.followers = Objects.requireNonNull(followers, "followers");
        this.members = Objects.requireNonNull(members, "members");
    }

    Optional<Membership> membership(String id) {
        return Optional.ofNullable(members.get(id));
    }

    Optional<Group> group(ContentKey key) {
        return Optional.ofNullable(groups.get(key.hex()));
    }

    /**
     * {@code item} leads {@code key}'s group: a new one, the one it was found leading, or one whose
     * less urgent leader it takes over (that one stays held, alone, and no longer leads).
     */
    void lead(ContentKey key, WorkItem item) {
        Group before = groups.get(key.hex());
        if (before != null && !before.leaderId().equals(item.key())) {
            forgetLeader(key, before.leaderId());
        }
        groups.put(key.hex(), new Group(item.key(), item.priority(), before == null ? 0 : before.nextSeq()));
        members.put(item.key(), Membership.leader(key));
    }

    /** {@code item} follows {@code key}'s group, after the followers it has. */
    void join(ContentKey key, Group group, WorkItem item) {
        long seq = group.nextSeq();
        followers.put(followerKey(key, seq), item);
        members.put(item.key(), Membership.follower(key, seq));
        groups.put(key.hex(), new Group(group.leaderId(), group.leaderPriority(), seq + 1));
    }

    /** A follower's copy. */
    Optional<WorkItem> follower(Membership m) {
        return Optional.ofNullable(followers.get(followerKey(m.contentKey(), m.seq())));
    }

    /** Removes one follower; its copy, if the store had it. */
    Optional<WorkItem> removeFollower(String id, Membership m) {
        String k = followerKey(m.contentKey(), m.seq());
        WorkItem item = followers.get(k);
        followers.delete(k);
        members.delete(id);
        return Optional.ofNullable(item);
    }

    /** The followers of {@code key}, in arrival order. */
    List<WorkItem> followers(ContentKey key) {
        return entries(key, Integer.MAX_VALUE).stream().map(kv -> kv.value).toList();
    }

    /** The followers of {@code key}, whose group is {@code group}, in arrival order ({@link #entries(ContentKey, Group)}). */
    List<WorkItem> followers(ContentKey key, Group group) {
        return entries(key, group).stream().map(kv -> kv.value).toList();
    }

    /** Removes every follower of {@code key}, whose group is {@code group}, and returns them, in arrival order. */
    List<WorkItem> drainFollowers(ContentKey key, Group group) {
        List<KeyValue<String, WorkItem>> all = entries(key, group);
        List<WorkItem> out = new ArrayList<>(all.size());
        for (KeyValue<String, WorkItem> kv : all) {
            followers.delete(kv.key);
            members.delete(kv.value.key());
            out.add(kv.value);
        }
        return out;
    }

    /**
     * The leader of {@code key} is gone: the first of its most urgent followers leads, the rest
     * follow it. Returns the new leader, or empty when there was no follower (the group is gone then).
     */
    Optional<WorkItem> handOver(ContentKey key, Group group) {
        forgetLeader(key, group.leaderId());
        KeyValue<String, WorkItem> next = null;
        for (KeyValue<String, WorkItem> kv : entries(key, group)) {
            if (next == null || kv.value.priority().compareTo(next.value.priority()) < 0) {
                next = kv;
            }
        }
        if (next == null) {
            groups.delete(key.hex());
            return Optional.empty();
        }
        followers.delete(next.key);
        members.put(next.value.key(), Membership.leader(key));
        groups.put(key.hex(), new Group(next.value.key(), next.value.priority(), group.nextSeq()));
        return Optional.of(next.value);
    }

    /** Removes {@code key}'s group and its leader's membership (its followers must be gone). */
    void dissolve(ContentKey key, Group group) {
        groups.delete(key.hex());
        forgetLeader(key, group.leaderId());
    }

    private void forgetLeader(ContentKey key, String id) {
        Membership m = members.get(id);
        if (m != null && m.leads() && m.key().equals(key.hex())) {
            members.delete(id);
        }
    }

    /** Forgets a membership that no group backs any more. */
    void forget(String id) {
        members.delete(id);
    }

    /**
     * The followers of {@code key} whose group is {@code group}: none without a range scan when no ticket ever joined it
     * ({@link Group#nextSeq} 0: a follower joins with the next sequence number, and a group whose followers are all gone
     * is dissolved). Most groups are a single ticket, and every answer asks, so this spares a store scan per answer.
     */
    private List<KeyValue<String, WorkItem>> entries(ContentKey key, Group group) {
        return group.nextSeq() == 0 ? List.of() : entries(key, Integer.MAX_VALUE);
    }

    private List<KeyValue<String, WorkItem>> entries(ContentKey key, int max) {
        List<KeyValue<String, WorkItem>> out = new ArrayList<>();
        // every follower key of this content is "<hex>:<digits>", between "<hex>:" and "<hex>;"
        try (KeyValueIterator<String, WorkItem> it = followers.range(key.hex() + ":", key.hex() + ";")) {
            while (out.size() < max && it.hasNext()) {
                out.add(it.next());
            }
        }
        return out;
    }

    static String followerKey(ContentKey key, long seq) {
        String digits = Long.toString(seq);
        return key.hex() + ":" + "0".repeat(SEQ_DIGITS - digits.length()) + digits;
    }
}

package io.quotaflow.cache;

import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The cache and coalescing of one quota scope, as the dispatcher sees them (docs/design.md,
 * "Cache"): every ticket reaching the dispatcher is first offered to {@link #onArrival}; every
 * final outcome of a ticket the dispatcher holds is reported back ({@link #onAnswered},
 * {@link #onLeaderFailed}, {@link #onLeaderGone}, {@link #leave}).
 *
 * <p>The rules, per content key: a live cached answer classifies a new ticket at once; else a
 * ticket identical to one already waiting or in flight (the group's leader) follows it and is kept
 * only here, never sent; else it leads a new group. A ticket never waits for a less urgent leader:
 * it takes the group over, and the old leader goes on alone (one call more, no inversion). The
 * leader's answer answers its followers and is cached; its dead letter dead-letters them with the
 * same kind (same content, same fate); if it is superseded, cancelled or moved, the first of its
 * most urgent followers leads and the rest follow it. A follower updated with other content leaves
 * the group; the leader's retry coming back (same id, same content) still leads. A ticket is in at
 * most one group, a follower is held nowhere else, so nothing is lost or answered twice.
 *
 * <p>All state is in the stores given (changelogged, exactly-once with the rest of the task): a new
 * instance over the same stores carries on where the last one stopped.
 */
public final class Coalescer {

    private final ResultCache cache;
    private final GroupStore store;

    public Coalescer(ResultCache cache, KeyValueStore<String, Group> groups, KeyValueStore<String, WorkItem> followers,
                     KeyValueStore<String, Membership> members) {
        this.cache = Objects.requireNonNull(cache, "cache");
        this.store = new GroupStore(groups, followers, members);
    }

    public ResultCache cache() {
        return cache;
    }

    /**
     * Decides for a ticket that reached the dispatcher.
     *
     * @param item the ticket, new, updated, re-published or back from the retry topic
     * @param key  its content key ({@link ContentKey#of(WorkItem, io.quotaflow.settings.ModelSettings)})
     * @param held whether the dispatcher already holds a copy of this id (waiting, delayed, in
     *             flight, or on its way back through the retry topic)
     * @param now  epoch ms
     */
    public Arrival onArrival(WorkItem item, ContentKey key, boolean held, long now) {
        Optional<Membership> current = store.membership(item.key());
        switch (CoalescingRules.onArrival(current, key, item.attempt() > 0)) {
            case CONTINUE_LEADING:
                return continueLeading(item, key);
            case STAY_FOLLOWER:
                Optional<Group> followed = store.group(key);
                boolean sameClass = store.follower(current.get()).map(f -> f.priority() == item.priority()).orElse(false);
                if (followed.isPresent() && sameClass) {
                    return new Arrival.Join(followed.get().leaderId(), true, Departure.NONE);
                }
                // in another class (it may not wait for this leader then), or a membership no group backs
                return place(item, key, held, now, leave(item.key()));
            case LEAVE_THEN_PLACE:
                Departure left = leave(item.key());
                // a leader's held copy is the one it leaves: it is known, not in the way
                return place(item, key, held && !current.get().leads(), now, left);
            case PLACE:
                return place(item, key, held, now, Departure.NONE);
            default:
                return new Arrival.Pass();
        }
    }

    /**
     * It leads this content already. A copy in another class (re-published on another topic) sets
     * the leader's class; if followers more urgent than that wait, the most urgent of them takes
     * the group over and this one goes on alone.
     */
    private Arrival continueLeading(WorkItem item, ContentKey key) {
        Optional<Group> group = store.group(key);
        if (group.isEmpty() || !group.get().leaderId().equals(item.key())) {
            store.lead(key, item);
        } else if (group.get().leaderPriority() != item.priority()) {
            boolean outranked = store.followers(key, group.get()).stream().anyMatch(f -> f.priority().compareTo(item.priority()) < 0);
            if (outranked) {
                return new Arrival.Lead(false, new Departure.HandedOver(key, store.handOver(key, group.get())));
            }
            store.lead(key, item);
        }
        return new Arrival.Lead(false, Departure.NONE);
    }

    private Arrival place(WorkItem item, ContentKey key, boolean heldUnknown, long now, Departure departure) {
        CacheLookup lookup = cache.lookup(key, now);
        Optional<Group> group = store.group(key);
        switch (CoalescingRules.place(lookup, group, item.key(), item.priority(), cache.enabled(), heldUnknown)) {
            case HIT:
                return new Arrival.Hit(((CacheLookup.Hit) lookup).answer(), departure);
            case JOIN:
                store.join(key, group.get(), item);
                return new Arrival.Join(group.get().leaderId(), false, departure);
            case LEAD:
                store.lead(key, item);
                return new Arrival.Lead(true, departure);
            default:
                return new Arrival.Lead(true, departure);
        }
    }

    /**
     * The call for {@code answeredId} (content {@code key}) answered it: the answer is cached and
     * answers every follower of the content, which leave the group. When {@code answeredId} led
     * it, the group is gone; a ticket holding the same content outside the group (state from
     * before the cache) answers the followers too, and the leader goes on to its own answer.
     */
    public Answered onAnswered(ContentKey key, String answeredId, Answer answer, long now) {
        CachedAnswer kept = cache.put(key, answer, now);
        Optional<Group> group = store.group(key);
        if (group.isEmpty()) {
            forgetLeadership(answeredId, key);
            return new Answered(kept, List.of());
        }
        List<WorkItem> followers = store.drainFollowers(key, group.get());
        if (group.get().leaderId().equals(answeredId)) {
            store.dissolve(key, group.get());
        }
        return new Answered(kept, followers);
    }

    /**
     * The leader {@code leaderId} of {@code key} was dead-lettered: its followers, which share its
     * fate, leave the group to be dead-lettered with its kind; the group is gone. Empty when
     * {@code leaderId} does not lead {@code key}.
     */
    public List<WorkItem> onLeaderFailed(ContentKey key, String leaderId) {
        Optional<Group> group = store.group(key);
        if (group.isEmpty() || !group.get().leaderId().equals(leaderId)) {
            forgetLeadership(leaderId, key);
            return List.of();
        }
        List<WorkItem> followers = store.drainFollowers(key, group.get());
        store.dissolve(key, group.get());
        return followers;
    }

    /**
     * The leader {@code leaderId} of {@code key} will not be answered here (superseded, cancelled,
     * moved to another route): the first of its most urgent followers leads now. {@link Departure#NONE} when
     * {@code leaderId} does not lead {@code key}.
     */
    public Departure onLeaderGone(ContentKey key, String leaderId) {
        Optional<Group> group = store.group(key);
        if (group.isEmpty() || !group.get().leaderId().equals(leaderId)) {
            forgetLeadership(leaderId, key);
            return Departure.NONE;
        }
        return new Departure.HandedOver(key, store.handOver(key, group.get()));
    }

    /** Ticket {@code id} leaves whatever group it is in (cancelled, moved, or changed content). */
    public Departure leave(String id) {
        Optional<Membership> current = store.membership(id);
        if (current.isEmpty()) {
            return Departure.NONE;
        }
        Membership m = current.get();
        ContentKey key = m.contentKey();
        if (!m.leads()) {
            Optional<WorkItem> item = store.removeFollower(id, m);
            return item.<Departure>map(i -> new Departure.Left(key, i)).orElse(Departure.NONE);
        }
        Departure handed = onLeaderGone(key, id);
        return handed instanceof Departure.HandedOver ? handed : new Departure.HandedOver(key, Optional.empty());
    }

    /** The group ticket {@code id} is in, if any: for status and cancellation. */
    public Optional<Membership> membership(String id) {
        return store.membership(id);
    }

    /** The followers waiting on {@code key}'s leader, in arrival order. */
    public List<WorkItem> followers(ContentKey key) {
        return store.followers(key);
    }

    /** The leader of {@code key}'s group, if a ticket is asking for that content. */
    public Optional<String> leaderOf(ContentKey key) {
        return store.group(key).map(Group::leaderId);
    }

    private void forgetLeadership(String id, ContentKey key) {
        store.membership(id).filter(m -> m.leads() && m.key().equals(key.hex())).ifPresent(m -> store.forget(id));
    }
}

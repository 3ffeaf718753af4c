package io.quotaflow.cache;

import io.quotaflow.records.Priority;

import java.util.Optional;

/**
 * The coalescing rules as pure functions of what is known (docs/design.md, "Cache"); the
 * {@link Coalescer} reads the stores, asks these, and writes the result.
 */
final class CoalescingRules {

    /** What a ticket's arrival means for the group it is in, if any. */
    enum Step {
        /** It leads this content already: its retry coming back or an identical re-publish. */
        CONTINUE_LEADING,
        /** It follows this content already: an identical re-publish in the same class changes nothing. */
        STAY_FOLLOWER,
        /** It was in another content's group: leave that one, then place it as new content. */
        LEAVE_THEN_PLACE,
        /** In no group: place it. */
        PLACE,
        /** A retry record that does not continue a group: the dispatcher's ledger decides. */
        PASS
    }

    /** Where new content goes. */
    enum Placement {
        /** Answered from the cache. */
        HIT,
        /** Follows the group that already asks for it. */
        JOIN,
        /** Leads a new group, or takes over the group of a less urgent leader (which goes on alone). */
        LEAD,
        /** Held and asked for without a group of its own (the cache is off, or another holds one). */
        LEAD_ALONE
    }

    private CoalescingRules() {
    }

    /**
     * @param current what the ticket's id is in now
     * @param key     the arriving copy's content
     * @param retry   whether it comes back from the retry topic (an attempt consumed)
     */
    static Step onArrival(Optional<Membership> current, ContentKey key, boolean retry) {
        if (current.isEmpty()) {
            // a retry of no group: from before the cache, or stale; only the ledger knows
            return retry ? Step.PASS : Step.PLACE;
        }
        Membership m = current.get();
        boolean same = m.key().equals(key.hex());
        if (m.leads()) {
            if (same) {
                return Step.CONTINUE_LEADING;
            }
            // a retry of content the leader no longer has is stale: the ledger drops it
            return retry ? Step.PASS : Step.LEAVE_THEN_PLACE;
        }
        if (retry) {
            // a follower was never sent: a retry record of its id predates its joining
            return Step.PASS;
        }
        return same ? Step.STAY_FOLLOWER : Step.LEAVE_THEN_PLACE;
    }

    /**
     * @param lookup      the cache for the content
     * @param group       the content's group, if a ticket is asking for it
     * @param id          the arriving ticket's id
     * @param priority    the arriving ticket's class: it never waits for a less urgent leader
     * @param enabled     whether the cache (and coalescing) is on
     * @param heldUnknown whether the dispatcher holds a copy of this id that no group knows (state
     *                    from before the cache, or a retry it passed): the ledger must then see the
     *                    arrival, or that copy would be classified as well
     */
    static Placement place(CacheLookup lookup, Optional<Group> group, String id, Priority priority, boolean enabled,
                           boolean heldUnknown) {
        boolean ledByOther = group.isPresent() && !group.get().leaderId().equals(id);
        if (!enabled) {
            return Placement.LEAD_ALONE;
        }
        if (heldUnknown) {
            return ledByOther ? Placement.LEAD_ALONE : Placement.LEAD;
        }
        if (lookup instanceof CacheLookup.Hit) {
            return Placement.HIT;
        }
        return ledByOther && group.get().serves(priority) ? Placement.JOIN : Placement.LEAD;
    }
}

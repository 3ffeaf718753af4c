package io.quotaflow.cache;

import io.quotaflow.ticket.WorkItem;

import java.util.Objects;
import java.util.Optional;

/**
 * What a ticket leaving its coalescing group changed, for the dispatcher to carry out. A ticket
 * leaves when an update gives it other content, when it is cancelled, or when it moves to another
 * route.
 */
public sealed interface Departure permits Departure.None, Departure.Left, Departure.HandedOver {

    /** It was in no group. */
    Departure NONE = new None();

    /** It was in no group: nothing to do. */
    record None() implements Departure {
    }

    /**
     * It followed {@code key}'s group: its copy there ({@code item}) is gone. The dispatcher held
     * nothing of it, so there is nothing else to undo.
     */
    record Left(ContentKey key, WorkItem item) implements Departure {

        public Left {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(item, "item");
        }
    }

    /**
     * It led {@code key}'s group. The copy the dispatcher holds of it no longer answers anyone
     * else: an update that leads again replaces it as usual, anything else must withdraw it
     * (pending, in flight or on its way back through the retry topic). When present,
     * {@code newLeader}, the first of the most urgent followers, now leads the group and must be held like a ticket
     * just arrived; the other followers follow it.
     */
    record HandedOver(ContentKey key, Optional<WorkItem> newLeader) implements Departure {

        public HandedOver {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(newLeader, "newLeader");
        }
    }
}

package io.quotaflow.cache;

import java.util.Objects;

/**
 * What {@link Coalescer#onArrival} decided for a ticket that reached its dispatcher. Each decision
 * carries the {@link Departure} from the group the ticket was in before (an update with other
 * content), to be carried out first.
 */
public sealed interface Arrival permits Arrival.Hit, Arrival.Join, Arrival.Lead, Arrival.Pass {

    /** What leaving its previous group changed. */
    Departure departure();

    /**
     * The cache answers it: write its classification now ({@code cached: true}, {@code attempts: 0},
     * zero tokens), hold nothing, call nothing. A cache hit.
     */
    record Hit(CachedAnswer answer, Departure departure) implements Arrival {

        public Hit {
            Objects.requireNonNull(answer, "answer");
            Objects.requireNonNull(departure, "departure");
        }
    }

    /**
     * Identical to a ticket waiting or in flight: it is kept with that one's group and answered by
     * its call; the dispatcher holds nothing of it. {@code repeated}: it already followed that group
     * (an identical re-publish), so nothing changed. Else a cache miss served without a call.
     */
    record Join(String leaderId, boolean repeated, Departure departure) implements Arrival {

        public Join {
            Objects.requireNonNull(leaderId, "leaderId");
            Objects.requireNonNull(departure, "departure");
        }
    }

    /**
     * Hold it and call for it as usual; identical tickets arriving meanwhile join it.
     * {@code newContent}: a content not asked before (a cache miss); false when it already led
     * (its retry coming back, or an identical re-publish), so nothing changed.
     */
    record Lead(boolean newContent, Departure departure) implements Arrival {

        public Lead {
            Objects.requireNonNull(departure, "departure");
        }
    }

    /**
     * Not the cache's to decide: a retry record of content the ticket no longer has (an update
     * overtook it) or that no group knows. Hand it to the dispatcher as before the cache; its
     * ledger drops what is stale. Not a cache lookup.
     */
    record Pass() implements Arrival {

        @Override
        public Departure departure() {
            return Departure.NONE;
        }
    }
}

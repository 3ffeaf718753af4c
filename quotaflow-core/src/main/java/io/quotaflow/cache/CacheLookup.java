package io.quotaflow.cache;

/** What the cache holds for a content key at a given time. */
public sealed interface CacheLookup permits CacheLookup.Hit, CacheLookup.Miss {

    /** A live answer: classify at once from it, no call. */
    record Hit(CachedAnswer answer) implements CacheLookup {
    }

    /**
     * No live answer.
     *
     * @param expired whether an answer was held but its time is up (the sweep deletes it)
     */
    record Miss(boolean expired) implements CacheLookup {
    }
}

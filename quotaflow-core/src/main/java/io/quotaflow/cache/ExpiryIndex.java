package io.quotaflow.cache;

import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A store of {@code <zero-padded time>:<key>} → key, so that what expires by a given time is one
 * range read from the start, bounded per sweep, without scanning the store it indexes. Used by the
 * cache's answers and the ticket statuses.
 */
public final class ExpiryIndex {

    private static final int TIME_DIGITS = 19;

    private final KeyValueStore<String, String> store;

    public ExpiryIndex(KeyValueStore<String, String> store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** {@code key} expires at {@code expiresAt} (epoch ms). */
    public void add(long expiresAt, String key) {
        store.put(indexKey(expiresAt, key), key);
    }

    /** Forgets that {@code key} expires at {@code expiresAt}. */
    public void remove(long expiresAt, String key) {
        store.delete(indexKey(expiresAt, key));
    }

    /**
     * Removes and returns up to {@code maxEntries} keys due at {@code now}, oldest first; the caller
     * checks each against what it indexes (it may have been renewed since).
     */
    public List<String> takeDue(long now, int maxEntries) {
        if (maxEntries <= 0) {
            throw new IllegalArgumentException("maxEntries must be > 0, got " + maxEntries);
        }
        List<KeyValue<String, String>> due = new ArrayList<>();
        // every index key of a time <= now sorts at or before "<now>;" (';' follows ':')
        try (KeyValueIterator<String, String> it = store.range(null, pad(now) + ";")) {
            while (due.size() < maxEntries && it.hasNext()) {
                due.add(it.next());
            }
        }
        List<String> keys = new ArrayList<>(due.size());
        for (KeyValue<String, String> entry : due) {
            store.delete(entry.key);
            keys.add(entry.value);
        }
        return keys;
    }

    /** The index key of {@code key} expiring at {@code expiresAt}. */
    public static String indexKey(long expiresAt, String key) {
        return pad(expiresAt) + ":" + key;
    }

    private static String pad(long time) {
        String digits = Long.toString(Math.max(0, time));
        return "0".repeat(TIME_DIGITS - digits.length()) + digits;
    }
}

package io.quotaflow.cache;

import org.apache.kafka.streams.state.KeyValueStore;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The classification cache of one quota scope (docs/design.md, "Cache"), over two of the
 * dispatcher's changelogged stores: {@link CacheStores#ANSWERS} (content key → {@link CachedAnswer})
 * and {@link CacheStores#EXPIRY}, an index keyed by the zero-padded expiry time and the content key,
 * so {@link #sweep} deletes the oldest expired entries without reading the rest of the store.
 *
 * <p>Holds no state of its own: a new adapter over the same stores (a restart, another instance
 * taking the task over) sees every answer. With a TTL of zero the cache is off: nothing is served
 * or stored, and the sweep still clears what an earlier run stored.
 *
 * <p>An answer past its TTL is kept {@code cache.stale-ttl} longer: {@link #lookup} no longer serves it,
 * but {@link #stale} does, for a ticket whose route cannot serve (the dispatcher decides when).
 */
public final class ResultCache {

    private final KeyValueStore<String, CachedAnswer> answers;
    private final ExpiryIndex expiry;
    private final Duration ttl;
    private final long staleMillis;

    /** A cache without stale answers. */
    public ResultCache(KeyValueStore<String, CachedAnswer> answers, KeyValueStore<String, String> expiry, Duration ttl) {
        this(answers, expiry, ttl, Duration.ZERO);
    }

    public ResultCache(KeyValueStore<String, CachedAnswer> answers, KeyValueStore<String, String> expiry, Duration ttl, Duration staleTtl) {
        this.answers = Objects.requireNonNull(answers, "answers");
        this.expiry = new ExpiryIndex(expiry);
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative()) {
            throw new IllegalArgumentException("cache.ttl must be >= 0 (0: no cache), got " + ttl);
        }
        if (staleTtl.isNegative()) {
            throw new IllegalArgumentException("cache.stale-ttl must be >= 0 (0: no stale answers), got " + staleTtl);
        }
        this.staleMillis = staleTtl.toMillis();
    }

    /**
     * The answer for {@code key} whose TTL is up but which is younger than its TTL plus {@code cache.stale-ttl}
     * at {@code now}; empty when there is none (or a live one: {@link #lookup} serves that). Never writes.
     */
    public java.util.Optional<CachedAnswer> stale(ContentKey key, long now) {
        if (!enabled() || staleMillis == 0) {
            return java.util.Optional.empty();
        }
        CachedAnswer answer = answers.get(key.hex());
        return answer != null && answer.expiredAt(now) && !goneAt(answer, now) ? java.util.Optional.of(answer) : java.util.Optional.empty();
    }

    /** Whether {@code answer} is past its stale time too at {@code now} (the sweep deletes it). */
    private boolean goneAt(CachedAnswer answer, long now) {
        return !enabled() || answer.expiresAt() > Long.MAX_VALUE - staleMillis || now >= answer.expiresAt() + staleMillis;
    }

    /** Whether answers are served and stored ({@code cache.ttl} above zero). */
    public boolean enabled() {
        return !ttl.isZero();
    }

    public Duration ttl() {
        return ttl;
    }

    /** The live answer for {@code key} at {@code now}; an answer whose time is up is a miss. Never writes. */
    public CacheLookup lookup(ContentKey key, long now) {
        if (!enabled()) {
            return new CacheLookup.Miss(false);
        }
        CachedAnswer answer = answers.get(key.hex());
        if (answer == null) {
            return new CacheLookup.Miss(false);
        }
        return answer.expiredAt(now) ? new CacheLookup.Miss(true) : new CacheLookup.Hit(answer);
    }

    /**
     * Keeps {@code answer} for {@code key} from {@code now} for the TTL, replacing any earlier one
     * (and its index entry). Returns what is kept; with the cache off, the same value, not stored.
     */
    public CachedAnswer put(ContentKey key, Answer answer, long now) {
        if (now < 0) {
            throw new IllegalArgumentException("now must be epoch ms, got " + now);
        }
        CachedAnswer kept = CachedAnswer.of(answer, now, ttl);
        if (!enabled()) {
            return kept;
        }
        CachedAnswer before = answers.get(key.hex());
        if (before != null) {
            expiry.remove(before.expiresAt(), key.hex());
        }
        answers.put(key.hex(), kept);
        expiry.add(kept.expiresAt(), key.hex());
        return kept;
    }

    /**
     * Deletes up to {@code maxEntries} answers whose time (and stale time) is up at {@code now}, oldest first, reading
     * only their index entries (a range that ends at {@code now}). Returns how many it deleted:
     * fewer than {@code maxEntries} means none is left expired.
     */
    public int sweep(long now, int maxEntries) {
        // kept for cache.stale-ttl past its expiry, while the cache is on
        List<String> due = expiry.takeDue(enabled() ? now - staleMillis : now, maxEntries);
        for (String hex : due) {
            CachedAnswer answer = answers.get(hex);
            if (answer != null && answer.expiredAt(now) && (goneAt(answer, now) || !enabled())) {
                answers.delete(hex);
            }
        }
        return due.size();
    }

    /** Answers held, live or expired (the store's estimate). */
    public long approximateEntries() {
        return answers.approximateNumEntries();
    }

    static String indexKey(long expiresAt, String hex) {
        return ExpiryIndex.indexKey(expiresAt, hex);
    }
}

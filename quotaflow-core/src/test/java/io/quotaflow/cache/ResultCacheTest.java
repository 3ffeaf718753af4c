package io.quotaflow.cache;

import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The classification cache over the dispatcher's stores: hit, miss, expiry, the bounded sweep. */
class ResultCacheTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final Duration TTL = Duration.ofMinutes(10);

    private final CacheFixture fixture = new CacheFixture();
    private final ResultCache cache = fixture.cache(TTL);

    private static ContentKey key(int n) {
        return ContentKey.of("subject " + n, "body", "gpt-4o-mini", java.util.List.of("a"), java.util.List.of("b"), "1");
    }

    @Test
    void shouldMissWhenNothingIsCached() {
        assertThat(cache.lookup(key(1), NOW)).isEqualTo(new CacheLookup.Miss(false));
    }

    @Test
    void shouldHitWithTheAnswerAsStored() {
        CachedAnswer kept = cache.put(key(1), new Answer("billing", "high", "gpt-4o-mini", 310, 42), NOW);

        assertThat(kept).isEqualTo(new CachedAnswer("billing", "high", "gpt-4o-mini", NOW, NOW + TTL.toMillis(), 310, 42));
        assertThat(cache.lookup(key(1), NOW + 5)).isEqualTo(new CacheLookup.Hit(kept));
        assertThat(cache.lookup(key(2), NOW + 5)).isEqualTo(new CacheLookup.Miss(false));
    }

    @Test
    void shouldMissOnceTheTtlIsUp() {
        cache.put(key(1), CacheFixture.answer("billing", "low"), NOW);

        assertThat(cache.lookup(key(1), NOW + TTL.toMillis() - 1)).isInstanceOf(CacheLookup.Hit.class);
        assertThat(cache.lookup(key(1), NOW + TTL.toMillis())).isEqualTo(new CacheLookup.Miss(true));
        assertThat(fixture.entries(CacheStores.ANSWERS)).as("a lookup never writes").isEqualTo(1);
    }

    @Test
    void shouldServeAnExpiredAnswerAsStaleUntilItsStaleTimeAndSweepItOnlyThen() {
        Duration staleTtl = Duration.ofHours(1);
        ResultCache withStale = fixture.cache(TTL, staleTtl);
        CachedAnswer kept = withStale.put(key(1), CacheFixture.answer("billing", "low"), NOW);
        long expired = NOW + TTL.toMillis();
        long gone = expired + staleTtl.toMillis();

        assertThat(withStale.stale(key(1), expired - 1)).as("live: the lookup serves it, not the stale path").isEmpty();
        assertThat(withStale.lookup(key(1), expired)).isEqualTo(new CacheLookup.Miss(true));
        assertThat(withStale.stale(key(1), expired)).contains(kept);
        assertThat(withStale.stale(key(1), gone - 1)).contains(kept);
        assertThat(withStale.sweep(gone - 1, 10)).as("kept through its stale time").isZero();
        assertThat(fixture.entries(CacheStores.ANSWERS)).isEqualTo(1);
        assertThat(withStale.stale(key(1), gone)).isEmpty();
        assertThat(withStale.sweep(gone, 10)).isEqualTo(1);
        assertThat(fixture.entries(CacheStores.ANSWERS)).isZero();
        assertThat(fixture.entries(CacheStores.EXPIRY)).isZero();
    }

    @Test
    void shouldServeNothingStaleWithAStaleTtlOfZeroOrTheCacheOff() {
        cache.put(key(1), CacheFixture.answer("billing", "low"), NOW);
        assertThat(cache.stale(key(1), NOW + TTL.toMillis())).isEmpty();
        assertThat(cache.sweep(NOW + TTL.toMillis(), 10)).isEqualTo(1);

        ResultCache off = fixture.cache(Duration.ZERO, Duration.ofDays(7));
        assertThat(off.stale(key(2), NOW)).isEmpty();
    }

    @Test
    void shouldReplaceAnEarlierAnswerAndItsIndexEntry() {
        cache.put(key(1), CacheFixture.answer("billing", "low"), NOW);
        cache.put(key(1), CacheFixture.answer("technical", "high"), NOW + 60_000);

        assertThat(fixture.entries(CacheStores.EXPIRY)).isEqualTo(1);
        assertThat(cache.sweep(NOW + TTL.toMillis(), 10)).as("the first expiry is no longer due").isZero();
        CacheLookup later = cache.lookup(key(1), NOW + TTL.toMillis());
        assertThat(later).isInstanceOf(CacheLookup.Hit.class);
        assertThat(((CacheLookup.Hit) later).answer().category()).isEqualTo("technical");
    }

    @Test
    void shouldSweepOnlyExpiredAnswersOldestFirstAndAtMostTheBound() {
        for (int i = 0; i < 10; i++) {
            cache.put(key(i), CacheFixture.answer("billing", "low"), NOW + i);
        }
        for (int i = 10; i < 15; i++) {
            cache.put(key(i), CacheFixture.answer("billing", "low"), NOW + TTL.toMillis());
        }
        long at = NOW + TTL.toMillis() + 9;

        assertThat(cache.sweep(at, 4)).isEqualTo(4);
        assertThat(cache.lookup(key(3), NOW)).as("oldest first: 0..3 gone").isEqualTo(new CacheLookup.Miss(false));
        assertThat(cache.lookup(key(4), NOW)).isInstanceOf(CacheLookup.Hit.class);
        assertThat(cache.sweep(at, 4)).isEqualTo(4);
        assertThat(cache.sweep(at, 4)).isEqualTo(2);
        assertThat(cache.sweep(at, 4)).isZero();
        assertThat(fixture.entries(CacheStores.ANSWERS)).isEqualTo(5);
        assertThat(fixture.entries(CacheStores.EXPIRY)).isEqualTo(5);
        for (int i = 10; i < 15; i++) {
            assertThat(cache.lookup(key(i), NOW)).isInstanceOf(CacheLookup.Hit.class);
        }
    }

    @Test
    void shouldReadOnlyTheDueIndexEntriesWhenSweeping() {
        AtomicInteger read = new AtomicInteger();
        ResultCache counted = new ResultCache(fixture.store(CacheStores.ANSWERS), counting(fixture.store(CacheStores.EXPIRY), read), TTL);
        for (int i = 0; i < 3; i++) {
            counted.put(key(i), CacheFixture.answer("billing", "low"), NOW);
        }
        for (int i = 3; i < 200; i++) {
            counted.put(key(i), CacheFixture.answer("billing", "low"), NOW + 60_000);
        }

        assertThat(counted.sweep(NOW + TTL.toMillis(), 100)).isEqualTo(3);
        assertThat(read.get()).as("index entries read by the sweep").isEqualTo(3);
        read.set(0);
        assertThat(counted.sweep(NOW + TTL.toMillis() + 60_000, 50)).isEqualTo(50);
        assertThat(read.get()).isEqualTo(50);
    }

    @Test
    void shouldServeAndStoreNothingWhenTheTtlIsZeroButStillSweepWhatWasStored() {
        cache.put(key(1), CacheFixture.answer("billing", "low"), NOW);
        ResultCache off = fixture.cache(Duration.ZERO);

        assertThat(off.enabled()).isFalse();
        assertThat(off.lookup(key(1), NOW)).isEqualTo(new CacheLookup.Miss(false));
        CachedAnswer notKept = off.put(key(2), CacheFixture.answer("technical", "low"), NOW);
        assertThat(notKept.expiresAt()).isEqualTo(NOW);
        assertThat(fixture.entries(CacheStores.ANSWERS)).isEqualTo(1);
        assertThat(off.sweep(NOW + TTL.toMillis(), 10)).isEqualTo(1);
        assertThat(fixture.entries(CacheStores.ANSWERS)).isZero();
    }

    @Test
    void shouldSeeAnswersThroughANewAdapterOverTheSameStores() {
        cache.put(key(1), CacheFixture.answer("shipping", "medium"), NOW);

        ResultCache restarted = fixture.cache(TTL);

        CacheLookup seen = restarted.lookup(key(1), NOW + 1);
        assertThat(seen).isInstanceOf(CacheLookup.Hit.class);
        assertThat(((CacheLookup.Hit) seen).answer().category()).isEqualTo("shipping");
        assertThat(restarted.sweep(NOW + TTL.toMillis(), 10)).isEqualTo(1);
    }

    /** {@code store}, counting every entry its iterators hand out. */
    @SuppressWarnings("unchecked")
    private static KeyValueStore<String, String> counting(KeyValueStore<String, String> store, AtomicInteger read) {
        return (KeyValueStore<String, String>) Proxy.newProxyInstance(ResultCacheTest.class.getClassLoader(),
                new Class<?>[] {KeyValueStore.class}, (proxy, method, args) -> {
                    Object result = invoke(store, method, args);
                    if (result instanceof KeyValueIterator<?, ?> it) {
                        return Proxy.newProxyInstance(ResultCacheTest.class.getClassLoader(), new Class<?>[] {KeyValueIterator.class},
                                (p, m, a) -> {
                                    if (m.getName().equals("next")) {
                                        read.incrementAndGet();
                                    }
                                    return invoke(it, m, a);
                                });
                    }
                    return result;
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}

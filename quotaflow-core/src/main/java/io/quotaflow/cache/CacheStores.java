package io.quotaflow.cache;

import io.quotaflow.ticket.BinarySerde;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.ProcessingContext;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The dispatcher's cache stores (docs/design.md, "Cache"): changelogged, and on RocksDB unless
 * {@code dsl.store.suppliers.class} says otherwise, so the cache is shared by every instance through
 * the task that owns the scope, survives restarts and commits exactly-once with the rest of the task.
 * Values are CBOR ({@link BinarySerde}).
 */
public final class CacheStores {

    /** Content key → {@link CachedAnswer}. */
    public static final String ANSWERS = "qf-cache-answers";
    /** {@code <zero-padded expiresAt>:<content key>} → content key: the sweep's index. */
    public static final String EXPIRY = "qf-cache-expiry";
    /** Content key → {@link Group}: which ticket asks for it. */
    public static final String GROUPS = "qf-coalesce-groups";
    /** {@code <content key>:<zero-padded seq>} → the follower's {@link WorkItem}. */
    public static final String FOLLOWERS = "qf-coalesce-followers";
    /** Ticket id → {@link Membership}. */
    public static final String MEMBERS = "qf-coalesce-members";

    /** Every store name, for a processor's {@code connectProcessorAndStateStores}. */
    public static final List<String> NAMES = List.of(ANSWERS, EXPIRY, GROUPS, FOLLOWERS, MEMBERS);

    private CacheStores() {
    }

    /**
     * The builders of every cache store, changelogged, over the byte stores {@code bytes} names: the
     * topology's {@code dsl.store.suppliers.class} (RocksDB by default; in memory in the topology tests).
     */
    public static List<StoreBuilder<?>> stores(Function<String, KeyValueBytesStoreSupplier> bytes) {
        return List.of(
                builder(bytes.apply(ANSWERS), new BinarySerde<>(CachedAnswer.class)),
                builder(bytes.apply(EXPIRY), Serdes.String()),
                builder(bytes.apply(GROUPS), new BinarySerde<>(Group.class)),
                builder(bytes.apply(FOLLOWERS), new BinarySerde<>(WorkItem.class)),
                builder(bytes.apply(MEMBERS), new BinarySerde<>(Membership.class)));
    }

    private static <V> StoreBuilder<KeyValueStore<String, V>> builder(KeyValueBytesStoreSupplier bytes, Serde<V> values) {
        return Stores.keyValueStoreBuilder(bytes, Serdes.String(), values);
    }

    /** The cache over a dispatcher's stores ({@code ttl}: {@code cache.ttl}, zero for off; {@code staleTtl}: {@code cache.stale-ttl}). */
    public static ResultCache resultCache(ProcessingContext context, Duration ttl, Duration staleTtl) {
        return new ResultCache(context.getStateStore(ANSWERS), context.getStateStore(EXPIRY), ttl, staleTtl);
    }

    /** The cache and coalescing over a dispatcher's stores. */
    public static Coalescer coalescer(ProcessingContext context, Duration ttl, Duration staleTtl) {
        return new Coalescer(resultCache(context, ttl, staleTtl), context.getStateStore(GROUPS), context.getStateStore(FOLLOWERS),
                context.getStateStore(MEMBERS));
    }
}

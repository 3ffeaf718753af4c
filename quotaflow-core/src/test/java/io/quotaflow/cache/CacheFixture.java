package io.quotaflow.cache;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The cache's stores as the dispatcher would have them (the real names and serdes of
 * {@link CacheStores}, CBOR round trips included), in memory, in one processor context; tickets
 * with chosen text. A new adapter over the same fixture is what a restart sees.
 */
final class CacheFixture {

    static final Duration TTL = Duration.ofHours(24);
    static final ModelSettings MODEL = Fixtures.model();

    private final MockProcessorContext<Object, Object> context = new MockProcessorContext<>();
    private long offset;

    /** Range scans of the followers store so far. */
    private final java.util.concurrent.atomic.AtomicInteger followerScans = new java.util.concurrent.atomic.AtomicInteger();

    CacheFixture() {
        for (StoreBuilder<?> builder : CacheStores.stores(this::supplier)) {
            StateStore store = builder.withLoggingDisabled().build();
            store.init(context.getStateStoreContext(), store);
            context.addStateStore(store);
        }
    }

    /** In memory; the followers store counts its range scans ({@link #followerScans}). */
    private org.apache.kafka.streams.state.KeyValueBytesStoreSupplier supplier(String name) {
        if (!name.equals(CacheStores.FOLLOWERS)) {
            return Stores.inMemoryKeyValueStore(name);
        }
        return new org.apache.kafka.streams.state.KeyValueBytesStoreSupplier() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]> get() {
                return new org.apache.kafka.streams.state.internals.InMemoryKeyValueStore(name) {
                    @Override
                    public org.apache.kafka.streams.state.KeyValueIterator<org.apache.kafka.common.utils.Bytes, byte[]> range(
                            org.apache.kafka.common.utils.Bytes from, org.apache.kafka.common.utils.Bytes to) {
                        followerScans.incrementAndGet();
                        return super.range(from, to);
                    }
                };
            }

            @Override
            public String metricsScope() {
                return "in-memory";
            }
        };
    }

    /** Range scans of the followers store so far. */
    int followerScans() {
        return followerScans.get();
    }

    Coalescer coalescer(Duration ttl) {
        return CacheStores.coalescer(context, ttl, java.time.Duration.ZERO);
    }

    Coalescer coalescer() {
        return coalescer(TTL);
    }

    ResultCache cache(Duration ttl, Duration staleTtl) {
        return CacheStores.resultCache(context, ttl, staleTtl);
    }

    ResultCache cache(Duration ttl) {
        return CacheStores.resultCache(context, ttl, java.time.Duration.ZERO);
    }

    <V> KeyValueStore<String, V> store(String name) {
        return context.getStateStore(name);
    }

    long entries(String name) {
        long n = 0;
        try (var it = store(name).all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    /** A fresh ticket (attempt 0) with this text, from the standard topic. */
    WorkItem ticket(String id, String subject, String body) {
        return ticket(id, subject, body, Priority.STANDARD);
    }

    /** A fresh ticket (attempt 0) with this text, from {@code priority}'s topic. */
    WorkItem ticket(String id, String subject, String body, Priority priority) {
        ObjectNode json = Json.MAPPER.createObjectNode().put("id", id).put("tenant", "default");
        if (subject != null) {
            json.put("subject", subject);
        }
        if (body != null) {
            json.put("body", body);
        }
        byte[] bytes;
        try {
            bytes = Json.MAPPER.writeValueAsString(json).getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        return WorkItem.accepted(new WorkItem.Identity(id, priority, "default"), bytes, new WorkItem.Origin(priority.topic(), 0, offset++), 1_000 + offset, 20);
    }

    /** The same copy back from the retry topic, one attempt spent. */
    static WorkItem retried(WorkItem item) {
        return item.withAttemptFailed(new WorkItem.FailureState(1, 1, "http-5xx", 503, "busy"), 0);
    }

    static ContentKey key(WorkItem item) {
        return ContentKey.of(item, MODEL);
    }

    static Answer answer(String category, String urgency) {
        return new Answer(category, urgency, MODEL.model(), 120, 30);
    }
}

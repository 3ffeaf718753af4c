package io.quotaflow.testing;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/** In-memory key-value stores for processor unit tests, opened on a {@link MockProcessorContext} (no changelog). */
public final class MemoryStores {

    private MemoryStores() {
    }

    /** A string-keyed store named {@code name} with values in {@code serde}, open on {@code context}. */
    public static <V> KeyValueStore<String, V> open(MockProcessorContext<?, ?> context, String name, Serde<V> serde) {
        KeyValueStore<String, V> store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(), serde)
                .withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        return store;
    }
}

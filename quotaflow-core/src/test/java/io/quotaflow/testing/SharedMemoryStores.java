package io.quotaflow.testing;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.InMemoryKeyValueStore;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * In-memory key-value stores ({@code dsl.store.suppliers.class}) whose content outlives the
 * {@link org.apache.kafka.streams.TopologyTestDriver} that wrote it: a store closed by one driver
 * leaves what it held, and the next driver to open a store of that name starts from it, as a task's
 * next owner restores its changelog. {@link #forget()} between tests.
 */
public final class SharedMemoryStores extends BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers {

    private static final Map<String, List<KeyValue<Bytes, byte[]>>> LEFT = new ConcurrentHashMap<>();

    /** Drops what every store left. */
    public static void forget() {
        LEFT.clear();
    }

    @Override
    public KeyValueBytesStoreSupplier keyValueStore(DslKeyValueParams params) {
        String name = params.name();
        return new KeyValueBytesStoreSupplier() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public KeyValueStore<Bytes, byte[]> get() {
                return new Kept(name);
            }

            @Override
            public String metricsScope() {
                return "in-memory";
            }
        };
    }

    /** An in-memory store that starts from what the last one of its name left, and leaves what it holds at close. */
    private static final class Kept extends InMemoryKeyValueStore {

        Kept(String name) {
            super(name);
        }

        @Override
        public void init(StateStoreContext context, StateStore root) {
            super.init(context, root);
            List<KeyValue<Bytes, byte[]>> left = LEFT.get(name());
            if (left != null) {
                putAll(left);
            }
        }

        @Override
        public void close() {
            List<KeyValue<Bytes, byte[]>> held = new ArrayList<>();
            try (KeyValueIterator<Bytes, byte[]> it = all()) {
                it.forEachRemaining(held::add);
            }
            LEFT.put(name(), held);
            super.close();
        }
    }
}

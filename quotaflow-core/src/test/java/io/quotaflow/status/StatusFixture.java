package io.quotaflow.status;

import io.quotaflow.ticket.BinarySerde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.time.Duration;
import java.util.List;

/** The status stores under their real names and serdes (CBOR round trips included), in memory; statuses to put in them. */
public final class StatusFixture {

    static final long NOW = 1_700_000_000_000L;

    private final MockProcessorContext<Object, Object> context = new MockProcessorContext<>();

    public StatusFixture() {
        List<StoreBuilder<?>> builders = List.of(
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(StatusStore.STATUS), Serdes.String(),
                        new BinarySerde<>(TicketStatus.class)),
                Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(StatusStore.EXPIRY), Serdes.String(), Serdes.String()));
        for (StoreBuilder<?> builder : builders) {
            StateStore store = builder.withLoggingDisabled().build();
            store.init(context.getStateStoreContext(), store);
            context.addStateStore(store);
        }
    }

    public StatusStore store(Duration retention) {
        return new StatusStore(context.getStateStore(StatusStore.STATUS), context.getStateStore(StatusStore.EXPIRY), retention);
    }

    long entries(String name) {
        KeyValueStore<String, Object> store = context.getStateStore(name);
        long n = 0;
        try (var it = store.all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    static TicketStatus status(TicketState state, long at) {
        return new TicketStatus(state, "default", "bulk", "acme", NOW - 1_000, at, 0, null, NOW - 1_000);
    }
}

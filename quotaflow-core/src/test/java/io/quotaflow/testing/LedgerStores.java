package io.quotaflow.testing;

import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.ledger.InFlightBatch;
import io.quotaflow.dispatch.ledger.RetryMarker;
import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.ticket.BinarySerde;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * A dispatcher task's ledger stores, in memory on a {@link MockProcessorContext}, for the ledger's and the executor's
 * unit tests: the waiting and delayed tickets, the calls out, the retries on their way back, the cancels of calls
 * out and the spill's index.
 */
public record LedgerStores(KeyValueStore<String, WorkItem> pending, KeyValueStore<String, WorkItem> delayed,
                           KeyValueStore<String, InFlightBatch> inFlight, KeyValueStore<String, RetryMarker> retrying,
                           KeyValueStore<String, Long> cancels, KeyValueStore<String, String> overflow) {

    /** The stores, open and empty on {@code context}. */
    public static LedgerStores open(MockProcessorContext<?, ?> context) {
        return new LedgerStores(MemoryStores.open(context, "p", new BinarySerde<>(WorkItem.class)),
                MemoryStores.open(context, "d", new BinarySerde<>(WorkItem.class)),
                MemoryStores.open(context, "f", new BinarySerde<>(InFlightBatch.class)),
                MemoryStores.open(context, "r", new BinarySerde<>(RetryMarker.class)),
                MemoryStores.open(context, "c", Serdes.Long()),
                MemoryStores.open(context, "o", Serdes.String()));
    }

    /** A ledger on these stores that never spills, its queue of tenants of weight 1, none capped. */
    public DispatchLedger ledger() {
        return new DispatchLedger(pending, delayed, inFlight, retrying, cancels, new PendingQueue(TenantSettings.NONE, 0));
    }

    /** A ledger of scope {@code scope} on these stores, {@code maxPending} tickets indexed in memory, no tenant weights. */
    public DispatchLedger ledger(String scope, int maxPending) {
        return new DispatchLedger(pending, delayed, inFlight, retrying, cancels, new PendingQueue(TenantSettings.NONE, 0), overflow, scope,
                maxPending);
    }
}

package io.quotaflow.bench;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.ledger.InFlightBatch;
import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.report.QueueViews;
import io.quotaflow.dispatch.ledger.RetryMarker;
import io.quotaflow.dispatch.outcome.Outbound;
import io.quotaflow.dispatch.report.SnapshotTaker;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.status.Pace;
import io.quotaflow.ticket.BinarySerde;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Properties;
import java.util.function.Consumer;

/**
 * The bounds benchmark's run (docs/benchmark.md, "Bounds"): one scope's {@link DispatchLedger} and
 * {@link PendingQueue}, the code the topology runs, over RocksDB stores on disk (as in a task, without
 * their changelogs), through an outage (the provider down: nothing is sent) with {@code tickets}
 * waiting, then the provider back until everything is answered. Each tick does what a dispatcher tick
 * does with the queue: due retries, refill, a proposal, and every tenth tick (500 ms) the status view
 * and the tenants' snapshot.
 */
public final class BoundsRun {

    /** Ticks (one per {@link #TICKETS_PER_TICK} tickets accepted) during the outage. */
    static final int TICKETS_PER_TICK = 1_000;

    /** What the run measured; times in ns, heap in bytes. */
    public record Figures(List<long[]> heap, long baseline, List<Long> snapshotNs, List<Long> proposalNs, List<Long> drainTickNs,
                          long maxSpilled, long spilledEver, long refilledEver, long answered, long duplicates, long lost,
                          long pendingLeft, long overflowLeft, double publishSeconds, double drainSeconds) {
    }

    private BoundsRun() {
    }

    private static <V> KeyValueStore<String, V> store(MockProcessorContext<?, ?> context, String name, Serde<V> serde) {
        KeyValueStore<String, V> store = Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), Serdes.String(), serde)
                .withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        return store;
    }

    /** Runs {@code tickets} of {@code tenants} through an outage and back, under {@code settings.maxPending()}. */
    public static Figures run(DispatcherSettings settings, int tickets, int tenants, Path dir, Consumer<String> progress) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "quotaflow-bench-bounds");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "dummy:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
        MockProcessorContext<String, Outbound> context = new MockProcessorContext<>(props, new org.apache.kafka.streams.processor.TaskId(0, 0),
                dir.toFile());
        List<KeyValueStore<?, ?>> stores = new ArrayList<>();
        KeyValueStore<String, WorkItem> pending = store(context, "qf-pending", new BinarySerde<>(WorkItem.class));
        KeyValueStore<String, WorkItem> delayed = store(context, "qf-delayed", new BinarySerde<>(WorkItem.class));
        KeyValueStore<String, InFlightBatch> inFlight = store(context, "qf-in-flight", new BinarySerde<>(InFlightBatch.class));
        KeyValueStore<String, RetryMarker> retrying = store(context, "qf-retrying", new BinarySerde<>(RetryMarker.class));
        KeyValueStore<String, Long> cancels = store(context, "qf-cancels", Serdes.Long());
        KeyValueStore<String, String> overflow = store(context, "qf-overflow", Serdes.String());
        stores.addAll(List.of(pending, delayed, inFlight, retrying, cancels, overflow));
        try {
            PendingQueue queue = new PendingQueue(TenantSettings.NONE, settings.batch().completionTokensPerItem());
            DispatchLedger ledger = new DispatchLedger(pending, delayed, inFlight, retrying, cancels, queue, overflow, "scope-bench",
                    settings.maxPending());
            return drive(settings, tickets, tenants, ledger, pending, overflow, progress);
        } finally {
            stores.forEach(KeyValueStore::close);
        }
    }

    private static Figures drive(DispatcherSettings settings, int tickets, int tenants, DispatchLedger ledger,
                                 KeyValueStore<String, WorkItem> pending, KeyValueStore<String, String> overflow, Consumer<String> progress) {
        PendingQueue queue = ledger.queue();
        Pace pace = new Pace();
        long baseline = heapAfterGc();
        List<long[]> heap = new ArrayList<>();
        List<Long> snapshots = new ArrayList<>();
        List<Long> proposals = new ArrayList<>();
        long maxSpilled = 0;
        long now = 1_767_225_600_000L;
        int step = Math.max(1, tickets / 20);
        long started = System.nanoTime();
        int ticks = 0;
        for (int i = 0; i < tickets; i++) {
            ledger.accept(item(i, tenants, now), now);
            if ((i + 1) % TICKETS_PER_TICK == 0) {
                now += 50;
                ledger.promoteDue(now);
                ledger.refill();
                long t0 = System.nanoTime();
                ledger.propose(settings.batch().maxItems(), p -> 100_000, Long.MAX_VALUE, now);
                proposals.add(System.nanoTime() - t0);
                if (++ticks % 10 == 0) {
                    long t1 = System.nanoTime();
                    QueueViews.take(settings, ledger, pace, now);
                    SnapshotTaker.tenants(queue, now);
                    for (Priority p : Priority.values()) {
                        ledger.oldestSpilled(p);
                    }
                    snapshots.add(System.nanoTime() - t1);
                }
                maxSpilled = Math.max(maxSpilled, ledger.spilledTotal());
            }
            if ((i + 1) % step == 0) {
                long used = heapAfterGc();
                heap.add(new long[]{i + 1, used, ledger.spilledTotal(), queue.size()});
                progress.accept(String.format(java.util.Locale.ROOT, "provider down: %,d waiting, %,d in memory, %,d spilled, "
                        + "heap after GC %,d MiB, %.0f s", i + 1, queue.size(), ledger.spilledTotal(), used >> 20,
                        (System.nanoTime() - started) / 1e9));
            }
        }
        double publishSeconds = (System.nanoTime() - started) / 1e9;
        long drainStart = System.nanoTime();
        Drained d = drain(settings, ledger, tickets, now, progress);
        double drainSeconds = (System.nanoTime() - drainStart) / 1e9;
        return new Figures(heap, baseline, snapshots, proposals, d.ticks(), maxSpilled, ledger.spilledEver(), ledger.refilledEver(),
                d.answered(), d.duplicates(), tickets - d.answered(), entries(pending), entries(overflow), publishSeconds, drainSeconds);
    }

    private record Drained(List<Long> ticks, long answered, long duplicates) {
    }

    /** The provider is back: every tick refills and sends what the queue proposes, each call answered at once. */
    private static Drained drain(DispatcherSettings settings, DispatchLedger ledger, int tickets, long from, Consumer<String> progress) {
        PendingQueue queue = ledger.queue();
        long now = from;
        long started = System.nanoTime();
        BitSet answered = new BitSet(tickets);
        long duplicates = 0;
        long count = 0;
        List<Long> ticks = new ArrayList<>();
        int call = 0;
        while (queue.size() > 0 || ledger.spilledTotal() > 0) {
            now += 50;
            long t0 = System.nanoTime();
            ledger.refill();
            for (int c = 0; c < 20; c++) {
                var proposal = ledger.propose(settings.batch().maxItems(), p -> 100_000, Long.MAX_VALUE, now);
                if (proposal.isEmpty()) {
                    break;
                }
                List<WorkItem> items = ledger.load(proposal.get());
                String batch = "b" + call++;
                ledger.dispatched(proposal.get(), InFlightBatch.of(batch, proposal.get().priority(), items, now, 1_000, 100, 1_100));
                for (WorkItem done : ledger.complete(batch).orElseThrow().items()) {
                    int n = Integer.parseInt(done.id().substring(1));
                    if (answered.get(n)) {
                        duplicates++;
                    } else {
                        answered.set(n);
                        count++;
                    }
                    ledger.finish(done);
                }
            }
            ticks.add(System.nanoTime() - t0);
            if (ticks.size() % 500 == 0) {
                progress.accept(String.format(java.util.Locale.ROOT, "provider back: %,d answered, %,d spilled, %.0f s", count,
                        ledger.spilledTotal(), (System.nanoTime() - started) / 1e9));
            }
        }
        return new Drained(ticks, count, duplicates);
    }

    private static long entries(KeyValueStore<String, ?> store) {
        long n = 0;
        try (var it = store.all()) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    private static WorkItem item(int i, int tenants, long now) {
        String tenant = "tenant-" + (i % tenants);
        byte[] body = ("{\"id\":\"n" + i + "\",\"subject\":\"Invoice " + i + "\",\"body\":\"I was charged twice for order " + i
                + " and would like a refund of the second payment, please.\"}").getBytes(StandardCharsets.UTF_8);
        return WorkItem.accepted(new WorkItem.Identity("n" + i, Priority.BULK, tenant), body, new WorkItem.Origin("tickets.bulk", 0, i), now, 40 + i % 60);
    }

    /** Heap used after two full collections. */
    public static long heapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 2; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}

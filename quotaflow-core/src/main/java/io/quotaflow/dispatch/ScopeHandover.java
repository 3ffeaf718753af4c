package io.quotaflow.dispatch;

import io.quotaflow.dispatch.ledger.InFlightBatch;

import io.quotaflow.batch.BatchJob;
import io.quotaflow.quota.ScopeUsage;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Hands what a task holds of quota scopes it does not own to their owners (docs/design.md, "Scope
 * ownership"). A task restores every ticket its stores hold; those of a scope whose dispatch partition is
 * another one (written before an upgrade moved the scope, or by a writer that partitioned otherwise) are
 * written once to the dispatch topic, keyed by their scope, in the task's transaction, and deleted here:
 * the owner dispatches them with the scope's only limiter. Their calls in flight are forgotten (the owner
 * asks again: tokens, never a duplicate), a ticket cancelled while its call was out ends as cancelled, and
 * the scope's usage record and batch jobs here are dropped (the owner starts with an empty bucket, as
 * without a record; a job's answers are lost with it).
 */
final class ScopeHandover {

    /** What was handed over or dropped. */
    record Result(int tickets, int cancelled, int calls, int jobs, boolean usage) {
        boolean any() {
            return tickets + cancelled + calls + jobs > 0 || usage;
        }
    }

    /** Where a handed-over ticket goes and what ends one cancelled while its call was out. */
    interface Sink {
        void handOver(WorkItem item, String scope);

        void cancelled(WorkItem item);
    }

    private final Function<WorkItem, String> scopeOf;
    private final Predicate<String> foreign;
    private final Sink sink;

    /**
     * @param scopeOf the configured scope of a held ticket (null: a route this configuration lacks; not handed over here)
     * @param foreign whether a configured scope is owned by another dispatch partition
     */
    ScopeHandover(Function<WorkItem, String> scopeOf, Predicate<String> foreign, Sink sink) {
        this.scopeOf = scopeOf;
        this.foreign = foreign;
        this.sink = sink;
    }

    private boolean leaves(WorkItem item) {
        String scope = item == null ? null : scopeOf.apply(item);
        return scope != null && foreign.test(scope);
    }

    /** Hands over the foreign tickets of the stores, and drops what else they hold of foreign scopes. */
    Result apply(Stores stores, Set<String> foreignScopes) {
        int calls = dropCalls(stores.inFlight(), stores.pending());
        int cancelled = 0;
        int tickets = 0;
        for (KeyValueStore<String, WorkItem> store : List.of(stores.pending(), stores.delayed())) {
            for (String key : collect(store)) {
                WorkItem item = store.get(key);
                store.delete(key);
                if (store == stores.pending() && stores.cancels().get(key) != null) {
                    stores.cancels().delete(key);
                    sink.cancelled(item);
                    cancelled++;
                } else {
                    sink.handOver(item, scopeOf.apply(item));
                    tickets++;
                }
            }
        }
        int jobs = dropJobs(stores.jobs(), foreignScopes);
        boolean usage = false;
        for (String scope : foreignScopes) {
            if (stores.usage().get(scope) != null) {
                stores.usage().delete(scope);
                usage = true;
            }
        }
        return new Result(tickets, cancelled, calls, jobs, usage);
    }

    /** The keys of the foreign tickets of {@code store}: keys only, so a large backlog is not held in memory twice. */
    private List<String> collect(KeyValueStore<String, WorkItem> store) {
        List<String> out = new ArrayList<>();
        try (KeyValueIterator<String, WorkItem> it = store.all()) {
            it.forEachRemaining(kv -> {
                if (leaves(kv.value)) {
                    out.add(kv.key);
                }
            });
        }
        return out;
    }

    /** Calls out for foreign tickets are forgotten: their tickets are still pending and go to the owner. */
    private int dropCalls(KeyValueStore<String, InFlightBatch> inFlight, KeyValueStore<String, WorkItem> pending) {
        List<String> gone = new ArrayList<>();
        try (KeyValueIterator<String, InFlightBatch> it = inFlight.all()) {
            it.forEachRemaining(kv -> {
                for (InFlightBatch.Member m : kv.value.members()) {
                    WorkItem item = pending.get(m.id());
                    if (item != null) {
                        if (leaves(item)) {
                            gone.add(kv.key);
                        }
                        return;
                    }
                }
            });
        }
        gone.forEach(inFlight::delete);
        return gone.size();
    }

    private static int dropJobs(KeyValueStore<String, BatchJob> jobs, Set<String> foreignScopes) {
        if (jobs == null || foreignScopes.isEmpty()) {
            return 0;
        }
        List<String> gone = new ArrayList<>();
        try (KeyValueIterator<String, BatchJob> it = jobs.all()) {
            it.forEachRemaining((KeyValue<String, BatchJob> kv) -> {
                if (foreignScopes.contains(kv.value.scope())) {
                    gone.add(kv.key);
                }
            });
        }
        gone.forEach(jobs::delete);
        return gone.size();
    }

    /** The stores a task's scopes share. */
    record Stores(KeyValueStore<String, WorkItem> pending, KeyValueStore<String, WorkItem> delayed,
                  KeyValueStore<String, InFlightBatch> inFlight, KeyValueStore<String, Long> cancels,
                  KeyValueStore<String, ScopeUsage> usage, KeyValueStore<String, BatchJob> jobs) {
    }

    /** The scopes of {@code configured} that {@code owned} does not accept. */
    static Set<String> foreign(List<String> configured, Predicate<String> owned) {
        Set<String> out = new HashSet<>();
        configured.stream().filter(owned.negate()).forEach(out::add);
        return out;
    }
}

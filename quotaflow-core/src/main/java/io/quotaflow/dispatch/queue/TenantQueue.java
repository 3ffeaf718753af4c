package io.quotaflow.dispatch.queue;

import io.quotaflow.records.Priority;

import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.NoSuchElementException;

/**
 * One tenant's tickets of one class, in serving order, and its keys in the class's orderings. The tickets that wait again
 * after a call that did not answer them ({@link PendingQueue.Ref#capPaid}) come first, in the order they came back: they
 * were sent before any ticket still waiting, and keep that place (a ticket cut at {@code max_tokens} does not go to the
 * back of its tenant's queue, nor wait behind tickets its tenant's cap holds).
 */
final class TenantQueue {
    final String tenant;
    final Priority priority;
    final long uid;
    /** Tickets back from a call, in the order they came back. */
    private final LinkedHashMap<String, PendingQueue.Ref> returned = new LinkedHashMap<>();
    /** Tickets not sent yet, in arrival order. */
    private final LinkedHashMap<String, PendingQueue.Ref> waiting = new LinkedHashMap<>();
    /** Tie-breaker of equal finish tags: a tenant never served first (in join order), then the one served least recently. */
    long seq;
    /** Key in {@link ClassQueue#ready}: normalized service once its head is served. */
    double finish;
    /** Key in {@link ClassQueue#byAge}: its head's arrival. */
    long headAt;
    /** What its waiting tickets cost in all ({@link #cost}). */
    long cost;
    /** The latest arrival among its tickets added (an update or a removal leaves it). */
    long lastAt;

    TenantQueue(String tenant, Priority priority, long uid) {
        this.tenant = tenant;
        this.priority = priority;
        this.uid = uid;
        this.seq = Long.MIN_VALUE + uid;
    }

    PendingQueue.Ref head() {
        return (returned.isEmpty() ? waiting : returned).values().iterator().next();
    }

    /** Whether tickets back from a call wait here (they come first). */
    boolean anyReturned() {
        return !returned.isEmpty();
    }

    boolean isEmpty() {
        return returned.isEmpty() && waiting.isEmpty();
    }

    int size() {
        return returned.size() + waiting.size();
    }

    PendingQueue.Ref get(String id) {
        PendingQueue.Ref r = returned.get(id);
        return r != null ? r : waiting.get(id);
    }

    /** Adds {@code ref} (not held here yet) at the end of its part: back from a call, or not sent yet. */
    void add(PendingQueue.Ref ref) {
        (ref.capPaid() ? returned : waiting).put(ref.id(), ref);
    }

    /** Puts {@code ref} in the place of the ticket of its id held here; returns that ticket's entry. */
    PendingQueue.Ref replace(PendingQueue.Ref ref) {
        return (returned.containsKey(ref.id()) ? returned : waiting).put(ref.id(), ref);
    }

    PendingQueue.Ref remove(String id) {
        PendingQueue.Ref r = returned.remove(id);
        return r != null ? r : waiting.remove(id);
    }

    /**
     * Every ticket, in serving order. A plain iterator over the two parts rather than a stream: it is made for each tenant a
     * proposal looks at, on the stream thread, every tick.
     */
    Iterator<PendingQueue.Ref> iterator() {
        Iterator<PendingQueue.Ref> first = returned.values().iterator();
        Iterator<PendingQueue.Ref> second = waiting.values().iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return first.hasNext() || second.hasNext();
            }

            @Override
            public PendingQueue.Ref next() {
                if (first.hasNext()) {
                    return first.next();
                }
                if (second.hasNext()) {
                    return second.next();
                }
                throw new NoSuchElementException();
            }
        };
    }

    /** Adds every ticket to {@code out}, in serving order. */
    void addTo(Collection<PendingQueue.Ref> out) {
        out.addAll(returned.values());
        out.addAll(waiting.values());
    }
}

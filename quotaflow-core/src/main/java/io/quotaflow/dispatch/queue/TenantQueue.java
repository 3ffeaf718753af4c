package io.quotaflow.dispatch.queue;

import io.quotaflow.records.Priority;

import java.util.LinkedHashMap;

/** One tenant's tickets of one class, in serving order, and its keys in the class's orderings. */
final class TenantQueue {
    final String tenant;
    final Priority priority;
    final long uid;
    final LinkedHashMap<String, PendingQueue.Ref> refs = new LinkedHashMap<>();
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
        return refs.values().iterator().next();
    }
}

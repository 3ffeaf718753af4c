package io.quotaflow.dispatch.queue;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/** One class's waiting tickets: its tenants' queues, ordered by finish tag ({@link #ready}) and by head age ({@link #byAge}). */
final class ClassQueue {
    static final Comparator<TenantQueue> BY_FINISH =
            Comparator.<TenantQueue>comparingDouble(t -> t.finish).thenComparingLong(t -> t.seq).thenComparingLong(t -> t.uid);
    static final Comparator<TenantQueue> BY_HEAD_AGE =
            Comparator.<TenantQueue>comparingLong(t -> t.headAt).thenComparingLong(t -> t.uid);

    final Map<String, TenantQueue> byTenant = new HashMap<>();
    final TreeSet<TenantQueue> ready = new TreeSet<>(BY_FINISH);
    final TreeSet<TenantQueue> byAge = new TreeSet<>(BY_HEAD_AGE);
    final TokenShares shares;
    int size;
    long tokens;

    ClassQueue(TokenShares shares) {
        this.shares = shares;
    }
}

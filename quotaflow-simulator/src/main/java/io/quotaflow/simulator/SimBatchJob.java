package io.quotaflow.simulator;

import java.util.Map;

/** One batch job of the simulator ({@link SimBatches}): what it was made of and, once done, its status and files. */
final class SimBatchJob {
    final String id;
    final String inputFileId;
    final String authorization;
    final long createdAt;
    final int expireAfter;
    final long delay;
    final Map<String, String> metadata;
    final long counted;
    final boolean fails;
    final boolean vanishes;
    final int malformedEvery;
    volatile boolean refused;
    volatile String status = "validating";
    volatile String outputFileId;
    volatile String errorFileId;
    volatile int total;
    volatile int completed;
    volatile int failed;
    volatile boolean read;

    SimBatchJob(String id, String inputFileId, String authorization, long createdAt, BatchBehaviour b, long n, Map<String, String> metadata,
        long counted) {
        this.id = id;
        this.inputFileId = inputFileId;
        this.authorization = authorization;
        this.createdAt = createdAt;
        this.delay = b.delayMs();
        this.expireAfter = b.expireAfter() >= 0 && BatchBehaviour.picked(n, b.expireEvery()) ? b.expireAfter() : -1;
        this.fails = BatchBehaviour.picked(n, b.failEvery());
        this.vanishes = BatchBehaviour.picked(n, b.vanishEvery());
        this.malformedEvery = b.malformedEvery();
        this.metadata = Map.copyOf(metadata);
        this.counted = counted;
    }

    /** Whether it holds enqueued tokens at {@code now}: accepted and not yet ended. */
    boolean enqueued(long now) {
        return !refused && (status.equals("validating") || status.equals("in_progress")) && now - createdAt < delay;
    }
}

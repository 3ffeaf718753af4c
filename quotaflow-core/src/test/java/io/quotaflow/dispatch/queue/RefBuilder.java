package io.quotaflow.dispatch.queue;

/**
 * Builds {@link PendingQueue.Ref}s for tests: a ticket of tenant {@code t}, 10 tokens, 100 bytes,
 * queued at 0, no batch cap, first attempt, on its own route, unless told otherwise.
 */
public final class RefBuilder {

    private final String id;
    private String tenant = "t";
    private int tokens = 10;
    private long at;
    private int batchCap;
    private int attempt;
    private int bytes = 100;

    private RefBuilder(String id) {
        this.id = id;
    }

    public static RefBuilder ref(String id) {
        return new RefBuilder(id);
    }

    public RefBuilder tenant(String value) {
        tenant = value;
        return this;
    }

    public RefBuilder tokens(int value) {
        tokens = value;
        return this;
    }

    /** When it was queued (epoch ms). */
    public RefBuilder at(long value) {
        at = value;
        return this;
    }

    RefBuilder batchCap(int value) {
        batchCap = value;
        return this;
    }

    RefBuilder attempt(int value) {
        attempt = value;
        return this;
    }

    public RefBuilder bytes(int value) {
        bytes = value;
        return this;
    }

    public PendingQueue.Ref build() {
        return new PendingQueue.Ref(id, tenant, tokens, at, batchCap, attempt, bytes, false);
    }
}

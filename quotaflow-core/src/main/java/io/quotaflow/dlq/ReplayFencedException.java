package io.quotaflow.dlq;

/**
 * A replay stopped because a newer replay of the same group (same {@code transactional.id})
 * started and fenced it. What it committed before stays committed, the batch in hand was rolled
 * back, and the newer replay goes on from the group's committed offsets: nothing is written twice.
 */
public final class ReplayFencedException extends DeadLetterException {

    private static final long serialVersionUID = 1L;

    private final long replayed;

    ReplayFencedException(String message, long replayed, Throwable cause) {
        super(message, cause);
        this.replayed = replayed;
    }

    /** Dead letters this replay wrote back and committed before it was fenced. */
    public long replayed() {
        return replayed;
    }
}

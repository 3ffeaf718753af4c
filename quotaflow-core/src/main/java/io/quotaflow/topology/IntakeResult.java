package io.quotaflow.topology;

import io.quotaflow.ticket.WorkItem;

/** What intake made of one input record. */
public sealed interface IntakeResult permits IntakeResult.Accepted, IntakeResult.Rejected, IntakeResult.Cancel,
        IntakeResult.Notice {

    /** A valid ticket, keyed by its quota scope from here on. */
    record Accepted(WorkItem item) implements IntakeResult {
    }

    /** Input that goes straight to the dead-letter topic (the headers say why). */
    record Rejected(byte[] original) implements IntakeResult {
    }

    /**
     * A tombstone on an input topic: cancel ticket {@code id} if it has not been sent. Sent to every
     * quota scope (the intake cannot know which holds it; the others ignore it).
     */
    record Cancel(String id) implements IntakeResult {
    }

    /**
     * The notice of a fresh publication, sent to every quota scope but the one the ticket goes to
     * ({@link io.quotaflow.ticket.Publication}): an older copy held there is withdrawn.
     */
    record Notice(io.quotaflow.ticket.Publication publication) implements IntakeResult {
    }
}

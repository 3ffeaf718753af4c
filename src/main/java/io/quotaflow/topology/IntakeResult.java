package io.quotaflow.topology;

import io.quotaflow.ticket.WorkItem;

/** What intake made of one input record. */
public sealed interface IntakeResult permits IntakeResult.Accepted, IntakeResult.Rejected {

    /** A valid ticket, keyed by its quota scope from here on. */
    record Accepted(WorkItem item) implements IntakeResult {
    }

    /** Input that goes straight to the dead-letter topic (the headers say why). */
    record Rejected(byte[] original) implements IntakeResult {
    }
}

package io.quotaflow.publish;

import java.util.Objects;

/**
 * Something worth telling the user about one input line: it was invalid (skipped or sent anyway),
 * it was sent with a warning, or its send failed.
 *
 * @param lineNumber 1-based line number in the input
 * @param kind       what sort of issue
 * @param reason     what is wrong ({@code not JSON}, {@code unknown priority "urgent"}, ...)
 * @param outcome    what was done about it ({@code skipped}, {@code sent to tickets.standard}, ...)
 */
public record LineIssue(long lineNumber, Kind kind, String reason, String outcome) {

    public enum Kind {
        /** Not a ticket that can be keyed (not JSON, not an object, no id). */
        INVALID,
        /** Sent, but something about it is off (unknown priority, no subject or body). */
        WARNING,
        /** The broker did not acknowledge the record. */
        SEND_FAILED
    }

    public LineIssue {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(outcome, "outcome");
    }

    /** {@code line 17: not JSON (skipped)}. */
    public String describe() {
        return "line " + lineNumber + ": " + reason + " (" + outcome + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}

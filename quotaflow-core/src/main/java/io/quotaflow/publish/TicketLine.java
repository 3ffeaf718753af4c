package io.quotaflow.publish;

import io.quotaflow.records.Priority;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * One non-blank input line, parsed just enough to route it: where it goes, under which key, and
 * what is wrong with it. The value is the line's bytes exactly as read (without the line
 * terminator); the publisher never re-serialises a ticket.
 *
 * @param lineNumber 1-based physical line number in the input (blank lines count)
 * @param value      the original bytes of the line
 * @param key        the record key: the ticket {@code id} for a valid line, {@code line-N} otherwise
 * @param priority   the priority class whose topic the line goes to (or would go to, if invalid)
 * @param problem    why the line is not a usable ticket ({@code not JSON}, {@code missing id}, ...);
 *                   {@code null} for a valid line
 * @param warnings   remarks on a line that is still sent (unknown priority, no text, ...)
 */
public record TicketLine(long lineNumber, byte[] value, String key, Priority priority, String problem,
                         List<String> warnings) {

    public TicketLine {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(priority, "priority");
        warnings = List.copyOf(warnings);
    }

    /** True when the line is a JSON object with a usable {@code id}: it can be keyed and sent. */
    public boolean valid() {
        return problem == null;
    }

    /** The topic this line is (or would be) sent to. */
    public String topic() {
        return priority.topic();
    }

    /** The value decoded as UTF-8 (for messages and tests). */
    public String text() {
        return new String(value, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "TicketLine[line=" + lineNumber + ", key=" + key + ", topic=" + topic()
                + (problem == null ? "" : ", problem=" + problem)
                + (warnings.isEmpty() ? "" : ", warnings=" + warnings)
                + ", bytes=" + value.length + "]";
    }
}

package io.quotaflow.deadline;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.records.Priority;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * A ticket's deadline at intake: its own {@code deadline} field (an ISO-8601 instant with an offset,
 * {@code 2026-12-02T16:00:00Z}), else its class's {@code deadline.<priority>} after it was first
 * accepted, else none. A retry computes the same deadline again from the same ticket and intake time.
 */
public final class Deadlines {

    /** The ticket field. */
    public static final String FIELD = "deadline";

    private Deadlines() {
    }

    /**
     * The deadline (epoch ms, 0: none) of a ticket of {@code priority} whose document is {@code ticket},
     * first accepted at {@code enqueuedAt}.
     *
     * @throws IllegalArgumentException when the ticket's {@code deadline} is not an ISO-8601 instant (the
     *                                  message says what was expected, and is safe to put on a dead letter)
     */
    public static long of(JsonNode ticket, Priority priority, long enqueuedAt, DeadlineSettings settings) {
        JsonNode own = ticket == null ? null : ticket.get(FIELD);
        if (own != null && !own.isNull()) {
            return parse(own);
        }
        Duration relative = settings.defaults().get(priority);
        return relative == null ? 0 : enqueuedAt + relative.toMillis();
    }

    private static long parse(JsonNode value) {
        String text = value.isTextual() ? value.asText() : value.toString();
        if (value.isTextual()) {
            try {
                return Math.max(1, OffsetDateTime.parse(text.strip()).toInstant().toEpochMilli());
            } catch (DateTimeParseException e) {
                try {
                    return Math.max(1, Instant.parse(text.strip()).toEpochMilli());
                } catch (DateTimeParseException ignored) {
                    // the message below says what is expected
                }
            }
        }
        String shown = text.length() > 40 ? text.substring(0, 40) + "…" : text;
        throw new IllegalArgumentException("deadline must be an ISO-8601 instant with an offset, such as "
                + "\"2026-12-02T16:00:00Z\"; got " + shown);
    }
}

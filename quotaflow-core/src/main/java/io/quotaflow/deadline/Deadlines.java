package io.quotaflow.deadline;

import io.quotaflow.settings.DeadlineSettings;
import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.records.Priority;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * A ticket's deadline at intake: its own {@code deadline} field (an ISO-8601 instant with an offset,
 * {@code 2026-12-02T16:00:00Z}, from {@link #EARLIEST} to {@link #LATEST}), else its class's
 * {@code deadline.<priority>} after it was first accepted (at most {@link #LATEST}), else none. A retry
 * computes the same deadline again from the same ticket and intake time. Every deadline is at most
 * {@link #LATEST}, so the arithmetic on it (an ETA plus a margin, a header's instant) cannot overflow.
 */
public final class Deadlines {

    /** The ticket field. */
    public static final String FIELD = "deadline";

    /** The earliest deadline a ticket may carry: 1970-01-01T00:00:00Z (epoch 0). */
    public static final Instant EARLIEST = Instant.EPOCH;

    /** The latest deadline a ticket may carry or a class default may reach: 9999-12-31T23:59:59.999Z. */
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

    private Deadlines() {
    }

    /**
     * The deadline (epoch ms, 0: none) of a ticket of {@code priority} whose document is {@code ticket},
     * first accepted at {@code enqueuedAt}.
     *
     * @throws IllegalArgumentException when the ticket's {@code deadline} is not an ISO-8601 instant, or is
     *                                  one outside [{@link #EARLIEST}, {@link #LATEST}] (the message says what
     *                                  was expected, and is safe to put on a dead letter)
     */
    public static long of(JsonNode ticket, Priority priority, long enqueuedAt, DeadlineSettings settings) {
        JsonNode own = ticket == null ? null : ticket.get(FIELD);
        if (own != null && !own.isNull()) {
            return parse(own);
        }
        Duration relative = settings.defaults().get(priority);
        return relative == null ? 0 : Math.min(LATEST.toEpochMilli(), saturatedAdd(Math.max(0, enqueuedAt), relative));
    }

    /** {@code at} plus {@code d} in epoch ms, {@link Long#MAX_VALUE} where it would overflow. */
    private static long saturatedAdd(long at, Duration d) {
        try {
            return plus(at, d.toMillis());
        } catch (ArithmeticException e) {
            // a duration of more than 292 million years
            return Long.MAX_VALUE;
        }
    }

    /**
     * {@code a + b}, or {@link Long#MAX_VALUE} ({@link Long#MIN_VALUE}) where it would overflow: a time far
     * ahead stays far ahead. The JDK has only the throwing {@link Math#addExact}, so it is caught here.
     */
    static long plus(long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            return b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
    }

    private static long parse(JsonNode value) {
        String text = value.isTextual() ? value.asText() : value.toString();
        Instant at = value.isTextual() ? instant(text.strip()) : null;
        if (at == null) {
            throw new IllegalArgumentException("deadline must be an ISO-8601 instant with an offset, such as "
                    + "\"2026-12-02T16:00:00Z\"; got " + shown(text));
        }
        if (at.isBefore(EARLIEST) || at.isAfter(LATEST)) {
            throw new IllegalArgumentException("deadline must lie between " + EARLIEST + " and " + LATEST + "; got " + shown(text));
        }
        return Math.max(1, at.toEpochMilli());
    }

    /** {@code text} as an instant (with an offset, or in UTC with {@code Z}), null when it is neither. */
    private static Instant instant(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return Instant.parse(text);
            } catch (DateTimeParseException ignored) {
                return null;
            }
        }
    }

    /** At most 40 characters of what the ticket gave, for the dead letter's message. */
    private static String shown(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "…" : text;
    }
}

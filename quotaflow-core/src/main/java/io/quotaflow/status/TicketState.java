package io.quotaflow.status;

import java.util.Locale;
import java.util.Optional;

/** Where a ticket is, as {@code GET /tickets/{id}} names it. */
public enum TicketState {
    PENDING, DELAYED, IN_FLIGHT, CLASSIFIED, DEAD_LETTERED, CANCELLED, HANDED_OFF, UNKNOWN;

    /** Lower-case, dashed: {@code pending}, {@code in-flight}, {@code dead-lettered}, ... */
    public String wire() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether the ticket is done (its status is then kept for {@code status.retention} only). */
    public boolean finished() {
        return this == CLASSIFIED || this == DEAD_LETTERED || this == CANCELLED || this == HANDED_OFF;
    }

    /** Parses {@link #wire()}; empty for anything else. */
    public static Optional<TicketState> parse(String wire) {
        for (TicketState s : values()) {
            if (s.wire().equals(wire)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}

package io.quotaflow.settings;

import java.util.Locale;

/** What happens to a ticket that will miss its deadline and that no fallback route can take ({@code deadline.action}). */
public enum DeadlineAction {
    /** Written to {@code tickets.handoff}, the human queue, with why and when it would have been done. */
    HANDOFF,
    /** Dead-lettered as {@code shed} (replayable). */
    SHED,
    /** It waits: it is answered late. */
    KEEP;

    /** {@code handoff}, {@code shed}, {@code keep}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@link #wire()}; a clear error for anything else. */
    public static DeadlineAction parse(String value) {
        for (DeadlineAction a : values()) {
            if (a.wire().equals(value == null ? "" : value.strip().toLowerCase(Locale.ROOT))) {
                return a;
            }
        }
        throw new IllegalArgumentException("deadline.action must be handoff, shed or keep, got '" + value + "'");
    }
}

package io.quotaflow.publish;

import io.quotaflow.records.Priority;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What a publish did. Counts refer to records the broker acknowledged unless said otherwise.
 *
 * @param lines         physical lines read (blank ones included)
 * @param tickets       valid tickets acknowledged
 * @param invalid       invalid lines seen (not JSON, not an object, no usable id)
 * @param skipped       invalid lines not sent (all of them unless invalid lines are sent anyway)
 * @param invalidSent   invalid lines sent anyway and acknowledged
 * @param warnings      warnings reported on lines that were sent
 * @param failed        records whose send failed (not acknowledged)
 * @param perPriority   acknowledged records per priority topic (every priority present, maybe 0)
 * @param elapsed       wall time from start to the end of the final flush
 * @param inputComplete false when publishing stopped before the end of the input (a send failed,
 *                      or a stop was requested)
 * @param firstError    the first send error, or {@code null}
 * @param issues        the first {@value #MAX_ISSUES} issues, in order
 */
public record PublishSummary(long lines, long tickets, long invalid, long skipped, long invalidSent, long warnings,
                             long failed, Map<Priority, Long> perPriority, Duration elapsed, boolean inputComplete,
                             String firstError, List<LineIssue> issues) {

    /** At most this many issues are kept in {@link #issues()}; all are counted and streamed. */
    public static final int MAX_ISSUES = 1000;

    public PublishSummary {
        EnumMap<Priority, Long> copy = new EnumMap<>(Priority.class);
        for (Priority p : Priority.values()) {
            copy.put(p, perPriority.getOrDefault(p, 0L));
        }
        perPriority = Collections.unmodifiableMap(copy);
        issues = List.copyOf(issues);
    }

    /** True when the whole input was read and every record that was sent was acknowledged. */
    public boolean succeeded() {
        return failed == 0 && inputComplete;
    }

    /** All acknowledged records: tickets plus invalid lines sent anyway. */
    public long acknowledged() {
        return tickets + invalidSent;
    }

    /**
     * One human line: {@code published 497 tickets in 1.2 s (interactive 74, standard 224, bulk 199);
     * 3 lines invalid (skipped)}, plus warnings and failures when there are any.
     */
    public String describe() {
        StringBuilder sb = new StringBuilder("published ").append(tickets).append(tickets == 1 ? " ticket" : " tickets");
        if (invalidSent > 0) {
            sb.append(" and ").append(invalidSent).append(invalidSent == 1 ? " invalid line" : " invalid lines");
        }
        sb.append(" in ").append(seconds(elapsed));
        StringJoiner topics = new StringJoiner(", ", " (", ")");
        perPriority.forEach((p, n) -> topics.add(p.wireName() + " " + n));
        sb.append(topics);
        if (skipped > 0) {
            sb.append("; ").append(skipped).append(skipped == 1 ? " line" : " lines").append(" invalid (skipped)");
        }
        if (warnings > 0) {
            sb.append("; ").append(warnings).append(warnings == 1 ? " warning" : " warnings");
        }
        if (failed > 0) {
            sb.append("; FAILED: ").append(failed).append(failed == 1 ? " record" : " records")
                    .append(" not acknowledged");
            if (firstError != null) {
                sb.append(" (first error: ").append(firstError).append(')');
            }
        }
        if (!inputComplete) {
            sb.append("; stopped after line ").append(lines).append(", rest of the input not published");
        }
        return sb.toString();
    }

    static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}

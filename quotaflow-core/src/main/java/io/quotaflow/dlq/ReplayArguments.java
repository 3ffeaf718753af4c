package io.quotaflow.dlq;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command line's words for a replay's filters, parsed: a point in time ({@link #parseTime}) and
 * repeatable, comma-separated lists ({@link #splitList}). {@link ReplayOptions} holds the result.
 */
public final class ReplayArguments {

    /** {@code 90s}, {@code 15m}, {@code 2h}, {@code 1d}, {@code 1w}, {@code 500ms}, combined as {@code 1h30m}. */
    private static final Pattern SHORT_DURATION = Pattern.compile("(?:\\d+(?:ms|s|m|h|d|w))+");
    private static final Pattern SHORT_PART = Pattern.compile("(\\d+)(ms|s|m|h|d|w)");

    private ReplayArguments() {
    }

    /**
     * Parses a point in time: an ISO-8601 instant ({@code 2026-11-30T06:00:00Z}), a date-time with
     * an offset ({@code 2026-11-30T07:00:00+01:00}), a date ({@code 2026-11-30}, midnight UTC), or
     * a duration ago: {@code 90s}, {@code 15m}, {@code 2h}, {@code 1d}, {@code 1w}, {@code 1h30m}
     * or ISO-8601 ({@code PT30M}, {@code P1D}).
     *
     * @param now what "ago" is measured from
     * @throws IllegalArgumentException when the text is none of these
     */
    public static Instant parseTime(String text, Instant now) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(now, "now");
        String t = text.strip();
        if (t.isEmpty()) {
            throw new IllegalArgumentException("empty time");
        }
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException notInstant) {
            // next form
        }
        try {
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException notOffsetDateTime) {
            // next form
        }
        try {
            return LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException notDate) {
            // next form
        }
        Duration ago = parseDuration(t);
        if (ago == null) {
            throw new IllegalArgumentException("not a time: '" + text + "'; use an ISO-8601 instant such as "
                    + "2026-11-30T06:00:00Z, or a duration ago such as 15m, 2h, 1d or PT30M");
        }
        return now.minus(ago);
    }

    /** {@code 15m}, {@code 1h30m}, {@code PT30M}, ...; null when the text is not a duration; never negative. */
    static Duration parseDuration(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (SHORT_DURATION.matcher(t).matches()) {
            Duration total = Duration.ZERO;
            Matcher m = SHORT_PART.matcher(t);
            try {
                while (m.find()) {
                    long n = Long.parseLong(m.group(1));
                    Duration part = switch (m.group(2)) {
                        case "ms" -> Duration.ofMillis(n);
                        case "s" -> Duration.ofSeconds(n);
                        case "m" -> Duration.ofMinutes(n);
                        case "h" -> Duration.ofHours(n);
                        case "d" -> Duration.ofDays(n);
                        case "w" -> Duration.ofDays(Math.multiplyExact(n, 7));
                        default -> throw new IllegalStateException(m.group(2));
                    };
                    total = total.plus(part);
                }
            } catch (ArithmeticException | NumberFormatException e) {
                return null;
            }
            return total;
        }
        if (t.startsWith("p") || t.startsWith("-p")) {
            try {
                Duration d = Duration.parse(t.toUpperCase(Locale.ROOT));
                return d.isNegative() ? null : d;
            } catch (DateTimeParseException e) {
                return null;
            }
        }
        return null;
    }

    /**
     * Flattens repeatable, comma-separated option values: {@code ["a,b", " c "]} → {@code [a, b, c]};
     * blanks are dropped, order kept, duplicates removed.
     */
    public static Set<String> splitList(Collection<String> values) {
        Set<String> out = new LinkedHashSet<>();
        if (values != null) {
            for (String value : values) {
                if (value == null) {
                    continue;
                }
                for (String part : value.split(",")) {
                    if (!part.isBlank()) {
                        out.add(part.strip());
                    }
                }
            }
        }
        return out;
    }
}

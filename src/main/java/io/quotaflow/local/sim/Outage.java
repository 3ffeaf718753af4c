package io.quotaflow.local.sim;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;

/** A window {@code [start, end)} measured from the simulator's start. */
public record Outage(Duration start, Duration end) {
    public Outage {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        if (start.isNegative() || end.compareTo(start) <= 0) {
            throw new IllegalArgumentException("outage needs 0 <= start < end: " + start + ".." + end);
        }
    }

    /**
     * Parses {@code START:END}, seconds after the simulator's start, e.g. {@code 30:90} or
     * {@code 2.5:4}.
     *
     * @throws IllegalArgumentException when the text is not two non-negative numbers with start &lt; end
     */
    public static Outage parse(String text) {
        Objects.requireNonNull(text, "text");
        String[] parts = text.strip().split(":", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("outage must be START:END in seconds, e.g. 30:90: " + text);
        }
        return new Outage(seconds(parts[0], text), seconds(parts[1], text));
    }

    private static Duration seconds(String value, String text) {
        BigDecimal seconds;
        try {
            seconds = new BigDecimal(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("outage must be START:END in seconds, e.g. 30:90: " + text);
        }
        if (seconds.signum() < 0 || seconds.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 1_000_000_000L)) > 0) {
            throw new IllegalArgumentException("outage times must be between 0 and a few centuries: " + text);
        }
        return Duration.ofNanos(seconds.movePointRight(9).longValue());
    }

    /** Whether {@code sinceStart} is in {@code [start, end)}. */
    public boolean contains(Duration sinceStart) {
        return sinceStart.compareTo(start) >= 0 && sinceStart.compareTo(end) < 0;
    }

    /** {@code START:END} in seconds, the form {@link #parse} reads. */
    @Override
    public String toString() {
        return seconds(start) + ":" + seconds(end);
    }

    private static String seconds(Duration d) {
        return BigDecimal.valueOf(d.toNanos(), 9).stripTrailingZeros().toPlainString();
    }
}

package io.quotaflow.cli;

import java.io.PrintWriter;
import java.time.Duration;

/**
 * A status line on stderr. On a terminal it is rewritten in place with {@code \r} (at most ten
 * times a second); otherwise (a log file, CI) a plain line is printed every few seconds. Messages
 * printed through {@link #println} appear above the status line and never mix with it.
 */
public final class ProgressLine {

    private final PrintWriter err;
    private final boolean terminal;
    private final long intervalNanos;
    private long lastShown;
    private int shownLength;
    private final int width;

    public ProgressLine(PrintWriter err, boolean terminal) {
        this(err, terminal, terminal ? Duration.ofMillis(100) : Duration.ofSeconds(5));
    }

    public ProgressLine(PrintWriter err, boolean terminal, Duration interval) {
        this(err, terminal, interval, width());
    }

    /** As above, on a terminal {@code width} columns wide. */
    ProgressLine(PrintWriter err, boolean terminal, Duration interval, int width) {
        this.err = err;
        this.terminal = terminal;
        this.intervalNanos = interval.toNanos();
        this.width = width;
        this.lastShown = System.nanoTime();
    }

    /** The width a status line keeps within when the terminal's is not known. */
    public static final int DEFAULT_WIDTH = 80;

    /**
     * The terminal's width: {@code COLUMNS} when the shell exports it (a number from 20 to 1000),
     * else {@value #DEFAULT_WIDTH}.
     */
    public static int width() {
        return width(System.getenv("COLUMNS"));
    }

    static int width(String columns) {
        try {
            int w = columns == null ? DEFAULT_WIDTH : Integer.parseInt(columns.strip());
            return w >= 20 && w <= 1000 ? w : DEFAULT_WIDTH;
        } catch (NumberFormatException e) {
            return DEFAULT_WIDTH;
        }
    }

    /**
     * {@code text} within {@code width} columns, less one (a terminal wraps a line that fills its last
     * column): cut with {@code …} when longer.
     */
    public static String fit(String text, int width) {
        int max = Math.max(1, width - 1);
        return text.length() <= max ? text : text.substring(0, max - 1) + "\u2026";
    }

    /** True when stdin and stdout are a terminal (the JDK 17 meaning of a console). */
    public static boolean isTerminal() {
        return System.console() != null;
    }

    /** Shows {@code text} as the current status, unless the last one is still fresh. */
    public void update(String text) {
        long now = System.nanoTime();
        if (now - lastShown < intervalNanos) {
            return;
        }
        lastShown = now;
        if (terminal) {
            text = fit(text, width);
            StringBuilder sb = new StringBuilder("\r").append(text);
            for (int i = text.length(); i < shownLength; i++) {
                sb.append(' ');
            }
            err.print(sb);
            shownLength = text.length();
        } else {
            err.println(text);
        }
        err.flush();
    }

    /** Prints a message line, moving the status line out of its way. */
    public void println(String message) {
        clear();
        err.println(message);
        err.flush();
    }

    /** Removes the status line (terminal only). */
    public void clear() {
        if (terminal && shownLength > 0) {
            err.print("\r" + " ".repeat(shownLength) + "\r");
            shownLength = 0;
            err.flush();
        }
    }
}

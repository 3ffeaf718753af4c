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

    public ProgressLine(PrintWriter err, boolean terminal) {
        this(err, terminal, terminal ? Duration.ofMillis(100) : Duration.ofSeconds(5));
    }

    public ProgressLine(PrintWriter err, boolean terminal, Duration interval) {
        this.err = err;
        this.terminal = terminal;
        this.intervalNanos = interval.toNanos();
        this.lastShown = System.nanoTime();
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

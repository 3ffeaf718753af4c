package io.quotaflow.routing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * Logs fallbacks at INFO, at most once a minute per pair of routes and reason, with the count
 * since the last line (docs/design.md, "Routes"): a route down for an hour writes sixty lines, not
 * one per ticket.
 */
public final class FallbackLog {

    static final long INTERVAL_MS = 60_000;
    private static final Logger LOG = LoggerFactory.getLogger(FallbackLog.class);

    private record Key(String from, String to, FallbackReason reason) {
    }

    private static final class Tally {
        long lastLine = Long.MIN_VALUE;
        long unreported;
    }

    private final Map<Key, Tally> tallies = new HashMap<>();

    /**
     * Counts {@code n} tickets moved from {@code from} to {@code to} for {@code reason} at
     * {@code nowMs}; returns the line written, if one is due (for tests), else null.
     */
    public String moved(String from, String to, FallbackReason reason, long n, long nowMs) {
        Tally t = tallies.computeIfAbsent(new Key(from, to, reason), k -> new Tally());
        t.unreported += n;
        if (t.lastLine != Long.MIN_VALUE && nowMs - t.lastLine < INTERVAL_MS) {
            return null;
        }
        String line = String.format("fallback: %d ticket(s) moved from route %s to %s (%s)%s", t.unreported, from, to,
                reason.wire(), t.lastLine == Long.MIN_VALUE ? "" : " in the last " + (nowMs - t.lastLine) / 1000 + " s");
        LOG.info(line);
        t.lastLine = nowMs;
        t.unreported = 0;
        return line;
    }
}

package io.quotaflow.bench;

import java.util.Map;
import java.util.Optional;

/**
 * The slowest of a feed of tickets, from publish to result: its place in the feed (1 for the first
 * published), its time in all, and how much of that was its call. Where that time went tells what
 * to look at: a wait before the call (intake, the lanes, the limiter) or the call itself; and a
 * first ticket that is always the slowest points at a pipeline still warming up.
 *
 * @param position 1-based place in the feed's publish order
 * @param of       how many tickets the feed published
 * @param totalMs  publish to {@code classifiedAt}
 * @param callMs   the call's own time ({@code latencyMs} of the result)
 */
record SlowestTicket(int position, int of, long totalMs, long callMs) {

    /** Its place in words: 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st, ... */
    String place() {
        int tens = position % 100;
        String suffix = tens >= 11 && tens <= 13 ? "th" : switch (position % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return position + suffix;
    }

    /** Time before the call went out. */
    long beforeCallMs() {
        return Math.max(0, totalMs - callMs);
    }

    /**
     * The slowest of {@code publishedAt} (ticket id to publish time, in publish order) that has a
     * result in {@code times}; the first published of equals; empty when none has a result.
     */
    static Optional<SlowestTicket> of(Map<String, Long> publishedAt, Map<String, ResultTimes> times) {
        SlowestTicket slowest = null;
        int position = 0;
        for (Map.Entry<String, Long> p : publishedAt.entrySet()) {
            position++;
            ResultTimes t = times.get(p.getKey());
            if (t == null) {
                continue;
            }
            long ms = t.sinceMs(p.getValue());
            if (slowest == null || ms > slowest.totalMs()) {
                slowest = new SlowestTicket(position, publishedAt.size(), ms, t.latencyMs());
            }
        }
        return Optional.ofNullable(slowest);
    }
}

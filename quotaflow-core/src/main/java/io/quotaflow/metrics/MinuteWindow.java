package io.quotaflow.metrics;

/**
 * A sum over the last minute, in one-second slots: what {@code quotaflow_quota_utilization_ratio}
 * divides by the limit. Thread-safe (the stream thread adds, the scrape reads).
 */
final class MinuteWindow {

    private static final int SLOTS = 60;
    private static final long SLOT_MS = 1_000;

    private final long[] sums = new long[SLOTS];
    private final long[] seconds = new long[SLOTS];

    MinuteWindow() {
        java.util.Arrays.fill(seconds, Long.MIN_VALUE);
    }

    synchronized void add(long nowMs, long amount) {
        long second = Math.floorDiv(nowMs, SLOT_MS);
        int slot = (int) Math.floorMod(second, SLOTS);
        if (seconds[slot] != second) {
            seconds[slot] = second;
            sums[slot] = 0;
        }
        sums[slot] += amount;
    }

    /** The sum of what was added in the 60 s up to {@code nowMs} (the current second included). */
    synchronized long sum(long nowMs) {
        long second = Math.floorDiv(nowMs, SLOT_MS);
        long total = 0;
        for (int i = 0; i < SLOTS; i++) {
            if (seconds[i] != Long.MIN_VALUE && second - seconds[i] < SLOTS && seconds[i] <= second) {
                total += sums[i];
            }
        }
        return total;
    }
}

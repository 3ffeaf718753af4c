package io.quotaflow.quota;

import java.time.Duration;

/**
 * How much later than a call sent before it another call may reach the provider (requests overtake
 * each other on the way): the quickest round trip among the last {@value #WINDOW} answers, never more
 * than {@link #MAX_NANOS}. A call's trip to the provider is part of its round trip, and the quickest
 * round trip on a route is the network's share of it at most (the provider's work takes the rest),
 * so a call sent earlier than that before another one reached the provider first. Until an answer is
 * in, the bound is {@link #MAX_NANOS}: a new connection's handshake, a few hundred milliseconds.
 *
 * <p>On a provider answering in 0.3 s (the in-process simulator, or a provider next door) the bound
 * follows its latency down; on a real provider (calls of a second or more) it stays at the maximum.
 * Owned by one stream task; not thread-safe; a pure function of the round trips it was shown.
 */
final class TransitBound {

    static final long MAX_NANOS = Duration.ofMillis(500).toNanos();
    static final int WINDOW = 32;

    private final long[] roundTrips = new long[WINDOW];
    private int count;
    private int next;
    private long bound = MAX_NANOS;

    /** A call answered {@code roundTripNanos} after it was sent (negative or zero: ignored). */
    void observe(long roundTripNanos) {
        if (roundTripNanos <= 0) {
            return;
        }
        roundTrips[next] = roundTripNanos;
        next = (next + 1) % WINDOW;
        count = Math.min(WINDOW, count + 1);
        long quickest = Long.MAX_VALUE;
        for (int i = 0; i < count; i++) {
            quickest = Math.min(quickest, roundTrips[i]);
        }
        bound = Math.min(MAX_NANOS, quickest);
    }

    /** The bound now, in nanoseconds. */
    long nanos() {
        return bound;
    }
}

package io.quotaflow.bench;

/**
 * Bench (l)'s measurement: samples of two tenants' admitted tokens and classified tickets, read
 * while both publish into one backlog. The window "both have work" ends when the first tenant's
 * tokens stop growing for good, that is at the last sample where its tokens changed before all its
 * tickets were classified; the ratios are taken there.
 */
final class ShareWindow {

    /** One reading: admitted tokens and classified tickets of the heavy ({@code a}) and light ({@code b}) tenant. */
    record Sample(long elapsedMs, double tokensA, double tokensB, long ticketsA, long ticketsB) {
    }

    private final int ticketsA;
    private final int ticketsB;
    private Sample lastChangeA;
    private Sample lastChangeB;
    private Sample previous;
    private Sample closed;

    ShareWindow(int ticketsEach) {
        this(ticketsEach, ticketsEach);
    }

    ShareWindow(int ticketsA, int ticketsB) {
        this.ticketsA = ticketsA;
        this.ticketsB = ticketsB;
    }

    /** Takes a reading; returns whether the window is closed (one tenant is done). */
    boolean add(Sample s) {
        if (closed != null) {
            return true;
        }
        if (previous == null || s.tokensA() != previous.tokensA()) {
            lastChangeA = s;
        }
        if (previous == null || s.tokensB() != previous.tokensB()) {
            lastChangeB = s;
        }
        previous = s;
        if (s.ticketsA() >= ticketsA) {
            closed = lastChangeA;
        } else if (s.ticketsB() >= ticketsB) {
            closed = lastChangeB;
        }
        return closed != null;
    }

    boolean closed() {
        return closed != null;
    }

    /** The reading at which the window closed; while open, the latest (null before the first). */
    Sample end() {
        return closed != null ? closed : previous;
    }

    /** Admitted tokens a : b within the window. */
    double tokenRatio() {
        return closed == null || closed.tokensB() == 0 ? Double.NaN : closed.tokensA() / closed.tokensB();
    }

    /** Classified tickets a : b within the window. */
    double ticketRatio() {
        return closed == null || closed.ticketsB() == 0 ? Double.NaN : (double) closed.ticketsA() / closed.ticketsB();
    }
}

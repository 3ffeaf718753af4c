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

    private final int ticketsEach;
    private Sample lastChangeA;
    private Sample lastChangeB;
    private Sample previous;
    private Sample closed;

    ShareWindow(int ticketsEach) {
        this.ticketsEach = ticketsEach;
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
        if (s.ticketsA() >= ticketsEach) {
            closed = lastChangeA;
        } else if (s.ticketsB() >= ticketsEach) {
            closed = lastChangeB;
        }
        return closed != null;
    }

    boolean closed() {
        return closed != null;
    }

    /** The reading at which the window closed (null while open). */
    Sample end() {
        return closed;
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

package io.quotaflow.bench;

/**
 * The measurement of {@link TenantShareRunner}: samples of two tenants' admitted tokens, classified
 * tickets and waiting tickets, read while both publish into one backlog. The window "both have
 * work" ends at the first reading where a tenant that had tickets waiting has none left (its last
 * tickets admitted: what comes after, a late retry say, is not a share); failing that, at the last
 * change of its tokens before all its tickets were classified. The ratios are taken there.
 */
final class ShareWindow {

    /** One reading: admitted tokens, classified and waiting tickets of tenant {@code a} and tenant {@code b}. */
    record Sample(long elapsedMs, double tokensA, double tokensB, long ticketsA, long ticketsB, int waitingA, int waitingB) {

        /** A reading without the queue depths. */
        Sample(long elapsedMs, double tokensA, double tokensB, long ticketsA, long ticketsB) {
            this(elapsedMs, tokensA, tokensB, ticketsA, ticketsB, -1, -1);
        }
    }

    private final int ticketsA;
    private final int ticketsB;
    private boolean waitedA;
    private boolean waitedB;
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
        waitedA |= s.waitingA() > 0;
        waitedB |= s.waitingB() > 0;
        if (waitedA && s.waitingA() == 0 || waitedB && s.waitingB() == 0) {
            closed = s;
        } else if (s.ticketsA() >= ticketsA) {
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

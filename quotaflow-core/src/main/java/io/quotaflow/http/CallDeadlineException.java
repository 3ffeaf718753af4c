package io.quotaflow.http;

import java.net.http.HttpTimeoutException;

/**
 * A call passed its whole-call deadline (connect, headers and body): it was aborted and its connection closed.
 * An {@link HttpTimeoutException}, so callers that name causes see a timeout.
 */
public final class CallDeadlineException extends HttpTimeoutException {

    private static final long serialVersionUID = 1L;

    private final long deadlineMs;

    CallDeadlineException(long deadlineMs) {
        super("no whole answer within the call's deadline of " + deadlineMs + " ms");
        this.deadlineMs = deadlineMs;
    }

    /** The deadline passed, in milliseconds. */
    public long deadlineMs() {
        return deadlineMs;
    }
}

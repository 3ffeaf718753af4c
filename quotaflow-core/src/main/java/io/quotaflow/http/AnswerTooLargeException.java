package io.quotaflow.http;

import java.io.IOException;

/**
 * An answer (or one line of a streamed answer) held more bytes than its cap: reading stopped there and the
 * exchange was aborted. The message names the cap only, never any of the answer's bytes.
 */
public final class AnswerTooLargeException extends IOException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final long limit;
    private final boolean line;

    AnswerTooLargeException(int status, long limit, boolean line) {
        super((line ? "a line of the answer is longer than " : "the answer is larger than ") + limit + " bytes");
        this.status = status;
        this.limit = limit;
        this.line = line;
    }

    /** The HTTP status the answer came with. */
    public int status() {
        return status;
    }

    /** The cap it passed, in bytes. */
    public long limit() {
        return limit;
    }

    /** Whether the cap passed is the per-line one (a streamed answer), not the whole answer's. */
    public boolean line() {
        return line;
    }
}

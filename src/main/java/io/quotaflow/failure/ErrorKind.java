package io.quotaflow.failure;

/** Values of {@code qf.error.kind}. */
public final class ErrorKind {

    /** Not JSON, not an object, missing id, or neither subject nor body. */
    public static final String BAD_INPUT = "bad-input";
    /** The ticket alone exceeds the model's context budget. */
    public static final String TOO_LARGE = "too-large";
    /** The model kept answering outside the schema, the ids or the closed sets. */
    public static final String INVALID_OUTPUT = "invalid-output";
    /** Attempts or age exhausted on transient failures. */
    public static final String RETRIES_EXHAUSTED = "retries-exhausted";
    /** The provider refused the request itself (a 4xx other than auth, quota and context length). */
    public static final String NON_RETRYABLE = "non-retryable";
    /** Transient failure kinds recorded on the retry topic. */
    public static final String TRANSIENT = "transient";
    public static final String TIMEOUT = "timeout";
    public static final String TRUNCATED = "truncated";

    private ErrorKind() {
    }
}

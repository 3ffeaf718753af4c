package io.quotaflow.failure;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Values of {@code qf.error.kind}: each kind with its wire value (docs/design.md, Failures). */
public enum ErrorKind {

    /** Not strict ticket JSON: not one object, invalid Unicode, duplicate keys, no id, no text... */
    BAD_INPUT("bad-input", true),
    /** The ticket's tenant is not in {@code tenants.allowed} (and {@code tenants.unknown=dead-letter}). */
    UNKNOWN_TENANT("unknown-tenant", true),
    /** The ticket alone exceeds the model's context budget (configured or learned). */
    TOO_LARGE("too-large", true),
    /** The model kept answering outside the schema, the ids or the closed sets. */
    INVALID_OUTPUT("invalid-output", true),
    /** Attempts or age exhausted on transient failures. */
    RETRIES_EXHAUSTED("retries-exhausted", true),
    /** The provider refused the request itself (a 4xx other than auth, quota and context length). */
    NON_RETRYABLE("non-retryable", true),
    /** Shed on arrival: its class's queue was at {@code queue.max-depth.<priority>} (replayable as it is). */
    SHED("shed", true),
    /** Kafka Streams could not read, process or write the record (dead-lettered by the error handlers). */
    INTERNAL_ERROR("internal-error", true),
    /** A transient failure, on the retry topic. */
    TRANSIENT("transient", false),
    /** No answer within the client's timeout, on the retry topic. */
    TIMEOUT("timeout", false);

    private final String wire;
    private final boolean deadLetter;

    ErrorKind(String wire, boolean deadLetter) {
        this.wire = wire;
        this.deadLetter = deadLetter;
    }

    /** The header value. */
    public String wire() {
        return wire;
    }

    /** Whether a dead letter can carry this kind (else it only appears on retries). */
    public boolean deadLetter() {
        return deadLetter;
    }

    /** The kind a header value names, if it is one of ours. */
    public static Optional<ErrorKind> ofWire(String value) {
        return Arrays.stream(values()).filter(k -> k.wire.equals(value)).findFirst();
    }

    /** Wire values of every kind a dead letter can carry. */
    public static List<String> deadLetterKinds() {
        return Arrays.stream(values()).filter(ErrorKind::deadLetter).map(ErrorKind::wire).toList();
    }

    @Override
    public String toString() {
        return wire;
    }
}

package io.quotaflow.dlq;

/** A dead-letter tool cannot do its job: the topic is missing, the cluster does not answer, a write failed. */
public class DeadLetterException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DeadLetterException(String message) {
        super(message);
    }

    public DeadLetterException(String message, Throwable cause) {
        super(message, cause);
    }
}

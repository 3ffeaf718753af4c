package io.quotaflow.ticket;

/**
 * The product: one ticket's classification, as written to {@code tickets.classified}.
 *
 * @param promptTokens     prompt tokens of the call, shared across its batch
 * @param completionTokens completion tokens of the call, shared across its batch
 * @param latencyMs        the model call's latency
 * @param queuedMs         time from intake to dispatch
 * @param classifiedAt     ISO-8601 instant
 */
public record Classification(
        String id,
        String category,
        String urgency,
        String model,
        String route,
        int attempts,
        long promptTokens,
        long completionTokens,
        long latencyMs,
        long queuedMs,
        String classifiedAt) {
}

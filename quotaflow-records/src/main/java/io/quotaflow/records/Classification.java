package io.quotaflow.records;

/**
 * The product: one ticket's classification, as written to {@code tickets.classified}.
 *
 * @param id               the ticket id (within its tenant)
 * @param tenant           the ticket's tenant ({@value Ticket#DEFAULT_TENANT} when it named none)
 * @param promptTokens     prompt tokens of the call, shared across its batch
 * @param completionTokens completion tokens of the call, shared across its batch
 * @param latencyMs        time in model calls: the answering call's latency plus every failed attempt's call
 * @param queuedMs         time waiting for capacity: from intake to the result, less {@code retryWaitMs} and {@code latencyMs}
 * @param classifiedAt     ISO-8601 instant
 * @param fallbackFrom     the route the ticket fell back from, absent when it did not
 * @param fallbackReason   why it fell back, absent when it did not
 * @param cached           true when answered from the cache or by an identical ticket's call (no call of its own)
 * @param retryWaitMs      backoff between attempts, summed (0 when the first attempt answered)
 * @param firstTry         true when no attempt failed before this answer
 * @param stale            true when answered from a cached answer past its TTL while the route could not serve; absent otherwise
 */
public record Classification(
        String id,
        String tenant,
        String category,
        String urgency,
        String model,
        String route,
        int attempts,
        long promptTokens,
        long completionTokens,
        long latencyMs,
        long queuedMs,
        String classifiedAt,
        String fallbackFrom,
        String fallbackReason,
        Boolean cached,
        Long retryWaitMs,
        Boolean firstTry,
        Boolean stale) {

    public Classification {
        tenant = tenant == null || tenant.isBlank() ? Ticket.DEFAULT_TENANT : tenant;
    }

    /** Without the timing split (the readers of older records see these absent). */
    public Classification(String id, String tenant, String category, String urgency, String model, String route, int attempts,
                          long promptTokens, long completionTokens, long latencyMs, long queuedMs, String classifiedAt,
                          String fallbackFrom, String fallbackReason, Boolean cached) {
        this(id, tenant, category, urgency, model, route, attempts, promptTokens, completionTokens, latencyMs, queuedMs,
                classifiedAt, fallbackFrom, fallbackReason, cached, null, null, null);
    }

    /** A classification of the ticket's own call on its first route. */
    public Classification(String id, String tenant, String category, String urgency, String model, String route, int attempts,
                          long promptTokens, long completionTokens, long latencyMs, long queuedMs, String classifiedAt) {
        this(id, tenant, category, urgency, model, route, attempts, promptTokens, completionTokens, latencyMs, queuedMs,
                classifiedAt, null, null, null);
    }

    /** The record key this classification is written under ({@link TicketKey}). */
    public String key() {
        return TicketKey.key(tenant, id);
    }
}

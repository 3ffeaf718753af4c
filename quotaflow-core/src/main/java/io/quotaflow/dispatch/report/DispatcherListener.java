package io.quotaflow.dispatch.report;

import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.records.Priority;

/**
 * Observes the dispatcher (metrics, status, the demo's progress line). Called on the stream
 * thread; implementations must be quick and must not throw.
 */
public interface DispatcherListener {

    DispatcherListener NONE = new DispatcherListener() {
    };

    default void dispatched(String scope, Priority priority, int items, long admissionCost) {
    }

    /** A call went out: {@code estimatedPromptTokens} is the local estimate, {@code admissionCost} what the limiter charged. */
    default void dispatched(String scope, Priority priority, int items, long estimatedPromptTokens, long admissionCost) {
        dispatched(scope, priority, items, admissionCost);
    }

    /** A call went out carrying {@code tokens} estimated tokens (prompt and completion share) of {@code tenant}'s tickets. */
    default void tenantAdmitted(String scope, String tenant, long tokens) {
    }

    default void completed(String scope, ModelOutcome outcome, int items) {
    }

    default void classified(String scope, Priority priority, long queuedMs) {
    }

    /** A result was written: {@code queuedMs} from intake to its call, {@code latencyMs} from intake to the result. */
    default void classified(String scope, Priority priority, long queuedMs, long latencyMs) {
        classified(scope, priority, queuedMs);
    }

    default void retried(String scope, String kind) {
    }

    /**
     * A result was written (beside {@link #classified}): {@code firstTry} when no attempt failed before it,
     * {@code retryWaitMs} the backoff its retries were given.
     */
    default void answered(String scope, Priority priority, boolean firstTry, long retryWaitMs) {
    }

    default void deadLettered(String scope, String kind) {
    }

    /** A ticket of {@code priority} on {@code route} was handed off to people, for {@code reason} (docs/design.md, "Deadlines and hand-off"). */
    default void handedOff(String scope, String route, Priority priority, String reason) {
    }

    /**
     * A ticket arrived while a copy of it was held: {@code replaced} (an update: the newer content
     * is classified), {@code identical} (nothing changed) or {@code superseded} (a stale retry, dropped).
     */
    default void republished(String scope, String outcome) {
    }

    /** The scope's circuit breaker changed state. */
    default void circuitTransition(String scope, String from, String to) {
    }

    /** A snapshot taken after each punctuation. */
    default void state(DispatcherSnapshot snapshot) {
    }

    /** This instance no longer owns the scope (its task closed): its last snapshot is stale. */
    /** A tombstone reached the intake: a producer asks to cancel a ticket. */
    default void cancelRequested() {
    }

    /** Ticket {@code id} was cancelled before it was sent: nothing of it will be written. */
    default void cancelled(String scope, String id) {
    }

    /** A ticket answered without a call of its own (the cache, or an identical ticket's call). */
    default void cacheHit(String scope) {
    }

    /** A ticket answered from an answer past its {@code cache.ttl} (marked stale) while its route could not serve. */
    default void staleCacheHit(String scope) {
    }

    /** A ticket whose content was not cached and is asked of the model. */
    default void cacheMiss(String scope) {
    }

    /** A ticket moved from route {@code from} to {@code to} for {@code reason} (a fallback). */
    default void fellBack(String from, String to, String reason) {
    }

    default void released(String scope) {
    }

    /** The scope's live queue and pace, published with each snapshot (for {@code GET /tickets/{id}}). */
    default void queue(io.quotaflow.status.QueueView view) {
    }
}

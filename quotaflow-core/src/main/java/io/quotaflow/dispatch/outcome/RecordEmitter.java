package io.quotaflow.dispatch.outcome;

import io.quotaflow.dispatch.ledger.InFlightBatch;

import io.quotaflow.failure.Backoff;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.records.Classification;
import io.quotaflow.records.Json;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.Record;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Builds what the dispatcher writes: the classification JSON, and the retry and dead-letter
 * records with their {@code qf.*} headers (the ticket's original bytes as the value).
 */
public final class RecordEmitter {

    /** A record to forward, with the ticket as it now stands. */
    record Emitted(WorkItem item, Record<String, Outbound> record) {
    }

    private final String scope;
    private final String model;
    private final Backoff backoff;
    private final String defaultRoute;
    private final io.quotaflow.tracing.Tracing tracing;

    /** For {@code scope}, whose first route is {@code defaultRoute} (the route of a ticket that names none). */
    public RecordEmitter(String scope, String model, Backoff backoff, String defaultRoute) {
        this(scope, model, backoff, defaultRoute, io.quotaflow.tracing.Tracing.NOOP);
    }

    /** As above, telling {@code tracing} of each retry, hand-off and dead letter. */
    public RecordEmitter(String scope, String model, Backoff backoff, String defaultRoute, io.quotaflow.tracing.Tracing tracing) {
        this.tracing = tracing;
        this.scope = scope;
        this.model = model;
        this.backoff = backoff;
        this.defaultRoute = defaultRoute;
    }

    Classification classification(WorkItem item, ModelOutcome.Label label, InFlightBatch batch, ModelOutcome.Answered answered,
                                  long now) {
        WorkItem.Routed routed = item.routed();
        long latency = item.failedCallMs() + Math.max(0, answered.latencyMs());
        return new Classification(item.id(), item.tenant(), label.category(), label.urgency(), model,
                routed.route() != null ? routed.route() : defaultRoute, item.attempt() + 1,
                answered.promptTokens(), answered.completionTokens(), latency, queued(item, latency, now),
                Instant.ofEpochMilli(now).toString(), routed.from(), routed.reason(), Boolean.FALSE, item.retryWaitMs(),
                item.attempt() == 0, null);
    }

    /**
     * Time waiting for capacity: from intake to the result, less the backoff between attempts and the time in
     * calls, so that {@code queuedMs + retryWaitMs + latencyMs} is the ticket's time in quotaflow.
     */
    private static long queued(WorkItem item, long latency, long now) {
        return Math.max(0, now - item.enqueuedAt() - item.retryWaitMs() - latency);
    }

    /** The classification of {@code item} answered without a call of its own: from the cache, or an identical ticket's call. */
    Classification cached(WorkItem item, io.quotaflow.cache.CachedAnswer answer, boolean stale, long now) {
        WorkItem.Routed routed = item.routed();
        long latency = item.failedCallMs();
        return new Classification(item.id(), item.tenant(), answer.category(), answer.urgency(), answer.model(),
                routed.route() != null ? routed.route() : defaultRoute, 0, 0, 0, latency, queued(item, latency, now),
                Instant.ofEpochMilli(now).toString(), routed.from(), routed.reason(), Boolean.TRUE, item.retryWaitMs(),
                item.attempt() == 0, stale ? Boolean.TRUE : null);
    }

    /** The result record of {@code item}, with its ticket's {@code traceparent} (the consumer continues the trace). */
    Record<String, Outbound> classified(WorkItem item, Classification result, long now) {
        try {
            byte[] json = Json.MAPPER.writeValueAsBytes(result);
            RecordHeaders headers = new RecordHeaders();
            tracing.inject(item, headers);
            return new Record<>(result.key(), new Outbound(Outbound.Target.CLASSIFIED, json), now, headers);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The retry record of {@code item}'s failed attempt, due after the backoff for its attempt number;
     * {@code callMs} is how long the failed call took.
     */
    Emitted retry(WorkItem item, String kind, int status, String message, Optional<Duration> hint, long callMs, long now) {
        int attempts = item.attempt() + 1;
        Duration delay = backoff.delay(attempts - 1, hint);
        WorkItem.FailureState failure = new WorkItem.FailureState(item.failure() == null ? now : item.failure().firstFailure(), now,
                kind, status, message, item.failedCallMs() + Math.max(0, callMs), item.retryWaitMs() + delay.toMillis());
        WorkItem next = item.withAttemptFailed(failure, now + delay.toMillis());
        tracing.event(item, "retry", kind, false, now);
        return new Emitted(next, new Record<>(item.key(), new Outbound(Outbound.Target.RETRY, item.original()), now,
                FailureHeaders.forItem(next, kind, status, message)));
    }

    /**
     * The hand-off record of {@code item}: its original bytes, its producer's headers, where it came from, and
     * why it is handed off ({@link io.quotaflow.records.HandoffHeaders}); {@code etaAt} 0 when not known.
     */
    Record<String, Outbound> handoff(WorkItem item, String reason, long etaAt, String route, long now) {
        org.apache.kafka.common.header.Headers headers = FailureHeaders.forHandoff(item);
        headers.add(io.quotaflow.records.HandoffHeaders.REASON, bytes(reason));
        headers.add(io.quotaflow.records.HandoffHeaders.ETA, bytes(etaAt > 0 ? Instant.ofEpochMilli(etaAt).toString()
                : io.quotaflow.records.HandoffHeaders.UNKNOWN));
        headers.add(io.quotaflow.records.HandoffHeaders.DEADLINE, bytes(Instant.ofEpochMilli(item.deadline()).toString()));
        headers.add(io.quotaflow.records.HandoffHeaders.ROUTE, bytes(route));
        tracing.event(item, "hand-off", reason, false, now);
        return new Record<>(item.key(), new Outbound(Outbound.Target.HANDOFF, item.original()), now, headers);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    Record<String, Outbound> deadLetter(WorkItem item, String kind, int status, String message, long now) {
        WorkItem.FailureState failure = item.failure() != null && item.failure().lastFailure() == now ? item.failure()
                : new WorkItem.FailureState(item.failure() == null ? now : item.failure().firstFailure(), now, kind, status, message,
                item.failedCallMs(), item.retryWaitMs());
        // a shed ticket is its own event on the trace: dead-lettered on arrival for its class's depth
        tracing.event(item, io.quotaflow.failure.ErrorKind.SHED.wire().equals(kind) ? "shed" : "dead-letter", kind, true, now);
        return new Record<>(item.key(), new Outbound(Outbound.Target.DEAD_LETTER, item.original()), now,
                FailureHeaders.forItem(item.withFailure(failure), kind, status, message));
    }
}

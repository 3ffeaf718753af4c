package io.quotaflow.dispatch.call;

import io.quotaflow.llm.ModelClient;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.quota.RateLimitInfo;

import io.quotaflow.ticket.WorkItem;
import io.quotaflow.tracing.Tracing;

import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BiConsumer;

/**
 * Sends model calls without blocking and holds their answers until the stream thread drains them
 * (only the stream thread may touch stores or forward). A client that throws or completes without
 * an outcome yields a transient failure, so every call sent is answered exactly once; answers that
 * arrive after {@link #close} are dropped (the next owner asks again).
 */
public final class CallSender {

    private final ModelClient client;
    private final Tracing.Calls traces;
    private final Queue<Completion> completions = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    /** One call's answer. */
    record Completion(String batchId, ModelOutcome outcome) {
    }

    public CallSender(ModelClient client) {
        this(client, Tracing.Calls.NONE);
    }

    /** A sender whose calls are traced by {@code traces} (docs/operations.md, "Traces"). */
    public CallSender(ModelClient client, Tracing.Calls traces) {
        this.client = client;
        this.traces = traces;
    }

    /** Sends a call of no ticket (a probe). */
    public void send(ModelRequest request) {
        send(request, List.of());
    }

    /** Sends {@code request} for {@code tickets}: its span starts here and ends where its answer arrives. */
    public void send(ModelRequest request, List<WorkItem> tickets) {
        Tracing.Call span = traces.start(request, tickets);
        try {
            client.classify(request).whenComplete((outcome, error) -> {
                ModelOutcome answer = outcome != null ? outcome
                        : clientError(error == null ? "no outcome" : error.getClass().getSimpleName());
                span.end(answer);
                if (!closed) {
                    completions.add(new Completion(request.batchId(), answer));
                }
            });
        } catch (RuntimeException e) {
            ModelOutcome answer = clientError(e.getClass().getSimpleName());
            span.end(answer);
            completions.add(new Completion(request.batchId(), answer));
        }
    }

    /** Hands every answer that has arrived to {@code handler}, in arrival order. */
    public void drain(BiConsumer<String, ModelOutcome> handler) {
        Completion c;
        while ((c = completions.poll()) != null) {
            handler.accept(c.batchId(), c.outcome());
        }
    }

    public void close() {
        closed = true;
        completions.clear();
    }

    private static ModelOutcome clientError(String what) {
        return new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, 0, "client error: " + what, Optional.empty(),
                RateLimitInfo.EMPTY, 0);
    }
}

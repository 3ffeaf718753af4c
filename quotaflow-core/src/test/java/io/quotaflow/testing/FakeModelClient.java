package io.quotaflow.testing;

import io.quotaflow.llm.ModelClient;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.quota.RateLimitInfo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * A model client for tests: records every request and answers with a scripted responder, either at
 * once or when the test says so ({@link #hold()} then {@link #completeNext()}).
 */
public final class FakeModelClient implements ModelClient {

    private final List<ModelRequest> requests = Collections.synchronizedList(new ArrayList<>());
    private final List<Held> held = new ArrayList<>();
    private Function<ModelRequest, ModelOutcome> responder;
    private boolean holding;

    private record Held(ModelRequest request, CompletableFuture<ModelOutcome> future) {
    }

    public FakeModelClient(Function<ModelRequest, ModelOutcome> responder) {
        this.responder = responder;
    }

    /** Answers every ticket with the given label. */
    public static FakeModelClient labellingAll(String category, String urgency) {
        return new FakeModelClient(request -> answer(request, category, urgency));
    }

    public static ModelOutcome answer(ModelRequest request, String category, String urgency) {
        Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
        for (ModelItem item : request.items()) {
            labels.put(item.id(), new ModelOutcome.Label(category, urgency));
        }
        return new ModelOutcome.Answered(labels, Map.of(), "stop", request.prompt().promptTokens(), 12L * labels.size(),
                RateLimitInfo.EMPTY, 42);
    }

    public static ModelOutcome failed(ModelOutcome.FailureKind kind, int status, String message) {
        return new ModelOutcome.Failed(kind, status, message, Optional.empty(), RateLimitInfo.EMPTY, 5);
    }

    public FakeModelClient respondWith(Function<ModelRequest, ModelOutcome> responder) {
        this.responder = responder;
        return this;
    }

    /** From now on, requests wait for {@link #completeNext()} / {@link #completeAll()}. */
    public FakeModelClient hold() {
        holding = true;
        return this;
    }

    @Override
    public synchronized CompletionStage<ModelOutcome> classify(ModelRequest request) {
        requests.add(request);
        CompletableFuture<ModelOutcome> future = new CompletableFuture<>();
        if (holding) {
            held.add(new Held(request, future));
        } else {
            future.complete(responder.apply(request));
        }
        return future;
    }

    public synchronized boolean completeNext() {
        if (held.isEmpty()) {
            return false;
        }
        Held h = held.remove(0);
        h.future().complete(responder.apply(h.request()));
        return true;
    }

    public synchronized void completeAll() {
        while (completeNext()) {
            // drain
        }
    }

    public List<ModelRequest> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    public List<String> requestedIds() {
        return requests().stream().flatMap(r -> r.items().stream()).map(ModelItem::id).toList();
    }
}

package io.quotaflow.provider;

import io.quotaflow.llm.ModelClient;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;

import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * A scope's model client whose every answer also tells the {@link RouteStateBoard} what it says of
 * the scope's routes ({@link RouteState#ofCall}): a connection error makes them unreachable until a
 * call is answered. The board hears it on the thread that completes the call (the HTTP client's),
 * never by waiting on the caller's.
 */
public final class ObservedClient implements ModelClient {

    private final ModelClient inner;
    private final List<String> routes;
    private final URI baseUrl;
    private final RouteStateBoard board;

    /** {@code routes}: the routes of the scope {@code inner} serves, at {@code baseUrl}. */
    public ObservedClient(ModelClient inner, List<String> routes, URI baseUrl, RouteStateBoard board) {
        this.inner = inner;
        this.routes = List.copyOf(routes);
        this.baseUrl = baseUrl;
        this.board = board;
    }

    @Override
    public CompletionStage<ModelOutcome> classify(ModelRequest request) {
        return inner.classify(request).thenApply(outcome -> {
            board.heard(routes, RouteState.ofCall(outcome, baseUrl), describe(outcome));
            return outcome;
        });
    }

    /** The call's answer in words for the log (its message was redacted by the client). */
    static String describe(ModelOutcome outcome) {
        if (outcome instanceof ModelOutcome.Failed f) {
            return "a call: " + (f.status() > 0 ? "HTTP " + f.status() + ": " : "") + f.message();
        }
        return outcome instanceof ModelOutcome.RateLimited ? "a call was answered 429 (rate limited)" : "a call was answered";
    }

    @Override
    public void close() {
        inner.close();
    }
}

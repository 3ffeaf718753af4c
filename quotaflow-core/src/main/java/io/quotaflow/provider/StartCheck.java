package io.quotaflow.provider;

import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Redactor;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The provider check {@code run} makes at start: {@code GET {base}/models} of every route (free: no
 * call, no token), in the background, each route's {@link RouteState} set on the board as its answer
 * comes (and logged there, naming the route and the cause). Nothing waits for it: the streams start at
 * once, and real calls' answers keep the board current afterwards.
 */
public final class StartCheck implements AutoCloseable {

    private final ProviderProbe probe;
    private final CompletableFuture<Void> done;

    private StartCheck(ProviderProbe probe, CompletableFuture<Void> done) {
        this.probe = probe;
        this.done = done;
    }

    /** Starts checking {@code routes}; returns at once. */
    public static StartCheck start(Collection<RouteSettings> routes, RouteStateBoard board) {
        ProviderProbe probe = new ProviderProbe();
        List<CompletableFuture<?>> checks = new ArrayList<>();
        for (RouteSettings route : routes) {
            checks.add(probe.check(route, false).thenAccept(report -> board.set(route.name(), report.state(),
                    "provider check at start of " + Redactor.url(route.model().baseUrl()) + ": " + report.summary())));
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(checks.toArray(CompletableFuture[]::new));
        all.whenComplete((v, e) -> probe.close());
        return new StartCheck(probe, all);
    }

    /** Completes when every route's check has answered (tests). */
    public CompletableFuture<Void> done() {
        return done;
    }

    @Override
    public void close() {
        probe.close();
    }
}

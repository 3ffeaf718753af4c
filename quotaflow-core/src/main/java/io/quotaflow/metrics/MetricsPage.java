package io.quotaflow.metrics;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The {@code /metrics} page, rendered one at a time on the executor given (one thread): a scrape
 * that arrives while a render is under way waits for that render and gets its page, so any number
 * of concurrent scrapes costs about one render, and rendering never takes more than that one
 * thread. A scrape that arrives after a render finished gets a fresh one.
 */
final class MetricsPage {

    private final Supplier<String> render;
    private final Executor renderer;
    private CompletableFuture<byte[]> rendering;

    MetricsPage(Supplier<String> render, Executor renderer) {
        this.render = Objects.requireNonNull(render, "render");
        this.renderer = Objects.requireNonNull(renderer, "renderer");
    }

    /** The page of the render under way, or of a new one; the caller's own copy (time it out, cancel it freely). */
    synchronized CompletableFuture<byte[]> next() {
        if (rendering == null || rendering.isDone()) {
            rendering = CompletableFuture.supplyAsync(() -> render.get().getBytes(StandardCharsets.UTF_8), renderer);
        }
        return rendering.copy();
    }
}

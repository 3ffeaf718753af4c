package io.quotaflow.metrics;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Concurrent scrapes share the render under way; a scrape after it gets a fresh one; a caller's copy is its own. */
class MetricsPageTest {

    private final ExecutorService renderer = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        renderer.shutdownNow();
    }

    @Test
    void shouldShareTheRenderUnderWayAndRenderAgainAfterIt() throws Exception {
        AtomicInteger renders = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        MetricsPage page = new MetricsPage(() -> {
            int n = renders.incrementAndGet();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "page " + n;
        }, renderer);

        List<CompletableFuture<byte[]>> waiting = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            waiting.add(page.next());
        }
        waiting.get(0).cancel(true);
        release.countDown();

        for (CompletableFuture<byte[]> f : waiting.subList(1, waiting.size())) {
            assertThat(new String(f.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8)).isEqualTo("page 1");
        }
        assertThat(renders).as("a hundred scrapes during one render, one cancelled").hasValue(1);
        assertThat(new String(page.next().get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8)).isEqualTo("page 2");
    }
}

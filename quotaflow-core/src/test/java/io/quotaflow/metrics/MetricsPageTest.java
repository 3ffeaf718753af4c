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
            return ("page " + n).getBytes(StandardCharsets.UTF_8);
        }, renderer);

        List<CompletableFuture<MetricsPage.Page>> waiting = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            waiting.add(page.next());
        }
        waiting.get(0).cancel(true);
        release.countDown();

        for (CompletableFuture<MetricsPage.Page> f : waiting.subList(1, waiting.size())) {
            MetricsPage.Page p = f.get(10, TimeUnit.SECONDS);
            assertThat(new String(p.plain(), StandardCharsets.UTF_8)).isEqualTo("page 1");
            assertThat(gunzip(p.gzipped())).as("the gzipped page of the same render").isEqualTo("page 1");
        }
        assertThat(renders).as("a hundred scrapes during one render, one cancelled").hasValue(1);
        assertThat(new String(page.next().get(10, TimeUnit.SECONDS).plain(), StandardCharsets.UTF_8)).isEqualTo("page 2");
    }

    @Test
    void shouldGzipOnlyForAClientThatAcceptsIt() {
        assertThat(MetricsPage.acceptsGzip("gzip")).isTrue();
        assertThat(MetricsPage.acceptsGzip("identity, gzip;q=0.5")).isTrue();
        assertThat(MetricsPage.acceptsGzip("GZIP")).isTrue();
        assertThat(MetricsPage.acceptsGzip("*")).isTrue();
        assertThat(MetricsPage.acceptsGzip(null)).isFalse();
        assertThat(MetricsPage.acceptsGzip("")).isFalse();
        assertThat(MetricsPage.acceptsGzip("identity")).isFalse();
        assertThat(MetricsPage.acceptsGzip("br, deflate")).isFalse();
        assertThat(MetricsPage.acceptsGzip("gzip;q=0")).isFalse();
        assertThat(MetricsPage.acceptsGzip("gzip; q=0.0, identity")).isFalse();
    }

    private static String gunzip(byte[] body) throws java.io.IOException {
        try (java.util.zip.GZIPInputStream in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(body))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

package io.quotaflow.http.server;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.metrics.MeteredRoute;
import io.quotaflow.metrics.PipelineMetrics;
import io.quotaflow.metrics.StreamsProbe;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stalled client and a crowd of scrapers cannot delay a probe: the findings (a connection
 * that sent one byte froze /health/live for 30 s; 100 concurrent scrapes of 1.6 MB delayed it 6 s).
 */
class StatusServerStallTest {

    private static final int SCRAPERS = 100;
    private static final int PROBE_TIMEOUT_MS = 5_000;

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PipelineMetrics metrics = new PipelineMetrics(registry, new MeteredRoute("default", "scope-51a1", 500, 200_000));
    private final List<Socket> held = Collections.synchronizedList(new ArrayList<>());
    private StatusServer server;

    @AfterEach
    void stop() throws IOException {
        for (Socket s : held) {
            s.close();
        }
        if (server != null) {
            server.close();
        }
        registry.close();
    }

    @Test
    void shouldAnswerProbesWithinASecondWhileAConnectionStallsAndAHundredScrapesRun() throws Exception {
        int pageBytes = padRegistryTo(1_600_000);
        server = new StatusServer("127.0.0.1", 0, registry, metrics, new RunningProbe());
        int port = server.port();
        // class loading and JIT outside the measurement: on a busy machine a JVM's very first request alone can take a second
        get(port, "/health/live", PROBE_TIMEOUT_MS);
        get(port, "/metrics", 30_000);
        // one connection that sent one byte and then nothing
        Socket stalled = new Socket("127.0.0.1", port);
        held.add(stalled);
        stalled.getOutputStream().write('G');
        stalled.getOutputStream().flush();
        // and a few scrapers that ask for the page but never read it
        for (int i = 0; i < 4; i++) {
            Socket lazy = new Socket("127.0.0.1", port);
            held.add(lazy);
            lazy.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        }

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger served = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        ExecutorService crowd = Executors.newFixedThreadPool(SCRAPERS);
        for (int i = 0; i < SCRAPERS; i++) {
            crowd.execute(() -> {
                while (running.get()) {
                    Answer a = get(port, "/metrics", 30_000);
                    (a.status() == 200 ? served : a.status() == 503 ? refused : failed).incrementAndGet();
                }
            });
        }
        List<Long> latencies = new ArrayList<>();
        List<Integer> statuses = new ArrayList<>();
        try {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
            while (System.nanoTime() < end || latencies.size() < 20) {
                Answer probe = get(port, "/health/live", PROBE_TIMEOUT_MS);
                latencies.add(probe.millis());
                statuses.add(probe.status());
                Thread.sleep(100);
            }
        } finally {
            running.set(false);
            crowd.shutdown();
            assertThat(crowd.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }

        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        System.out.printf("/metrics page %,d bytes; %d probes under load: median %d ms, max %d ms; scrapes: %d served, %d refused (503), "
                + "%d failed%n", pageBytes, sorted.size(), sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1),
                served.get(), refused.get(), failed.get());
        assertThat(statuses).as("every probe answered 200 (-1: no answer within %d ms)", PROBE_TIMEOUT_MS).containsOnly(200);
        assertThat(latencies).as("each probe's latency, ms").allSatisfy(ms -> assertThat(ms).isLessThan(1_000L));
        assertThat(served.get()).as("scrapes answered with the page").isGreaterThanOrEqualTo(SCRAPERS);
        assertThat(failed.get()).as("scrapes that got neither the page nor a 503").isZero();
    }

    /** Registers gauges until the page is at least {@code bytes} long; returns its length. */
    private int padRegistryTo(int bytes) {
        String padding = "x".repeat(64);
        int series = 0;
        int length = registry.scrape().length();
        while (length < bytes) {
            for (int i = 0; i < 2_000; i++, series++) {
                int value = series;
                Gauge.builder("quotaflow_test_padding", () -> value).description("padding to make the page large")
                        .tag("series", padding + series).register(registry);
            }
            length = registry.scrape().getBytes(StandardCharsets.UTF_8).length;
        }
        return length;
    }

    record Answer(int status, long millis) {
    }

    /** A GET on a fresh connection, read to its end: the status (-1: none within {@code timeoutMs}) and how long it took. */
    static Answer get(int port, String path, int timeoutMs) {
        long start = System.nanoTime();
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(timeoutMs);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] head = new byte[12];
            int n = in.readNBytes(head, 0, head.length);
            byte[] sink = new byte[65_536];
            while (in.read(sink) >= 0) {
                // read to the end
            }
            int status = n == head.length ? Integer.parseInt(new String(head, 9, 3, StandardCharsets.US_ASCII)) : -1;
            return new Answer(status, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        } catch (SocketTimeoutException e) {
            return new Answer(-1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        } catch (IOException e) {
            return new Answer(-2, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
    }

    /** Streams that run, with one live thread. */
    static final class RunningProbe implements StreamsProbe {
        @Override
        public KafkaStreams.State state() {
            return KafkaStreams.State.RUNNING;
        }

        @Override
        public int aliveThreads() {
            return 1;
        }

        @Override
        public boolean wasRunning() {
            return true;
        }
    }
}

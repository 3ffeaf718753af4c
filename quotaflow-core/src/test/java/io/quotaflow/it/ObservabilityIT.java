package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.Pipeline;
import io.quotaflow.settings.MetricsSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.simulator.Faults;
import io.quotaflow.testkit.ObservabilityContract;
import io.quotaflow.testkit.PrometheusText;
import io.quotaflow.testkit.Promtool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A running pipeline's {@code /metrics} before any ticket and after some (every contract family, the
 * curated Kafka families of {@code metrics.kafka=curated}, promtool clean on the whole page when
 * installed), and its health probes through a halt: live and ready stay 200, ready's body names the halted route,
 * unknown paths 404, other methods 405.
 */
class ObservabilityIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-observability", 2_000, 1_000_000, 20);

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldServeTheMetricsContractBeforeAndAfterTicketsAndStayLiveThroughAHalt() throws Exception {
        RetrySettings retry = RetrySettings.ofDefaults().withHaltProbeInterval(Duration.ofSeconds(1));
        // with the curated Kafka families on: they are read from the real clients' metrics, and linted with the rest
        try (Pipeline pipeline = Pipeline.start(it.config("quotaflow-observability",
                QuotaSettings.ofDefaults().withRpm(2_000).withTpm(1_000_000), retry).withHttp("127.0.0.1", 0)
                .withMetrics(new MetricsSettings(MetricsSettings.KafkaMetrics.CURATED)));
             OutcomeCounter counter = it.counter()) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            int port = pipeline.httpPort();

            PrometheusText before = scrape(port);
            for (ObservabilityContract.Family f : ObservabilityContract.FAMILIES) {
                assertThat(before.type(f.name())).as(f.name()).contains(f.type());
                assertThat(before.samples(f.sampleName())).as(f.sampleName()).isNotEmpty();
            }
            assertThat(before.sum("quotaflow_calls_total", Map.of())).isZero();
            assertThat(before.families()).contains("jvm_memory_used_bytes", "process_uptime_seconds");
            lint("before the first ticket", port);

            await().atMost(Duration.ofSeconds(30)).until(() -> get(port, "/health/ready").statusCode() == 200);
            assertThat(get(port, "/health/live").statusCode()).isEqualTo(200);
            assertThat(get(port, "/healthz").statusCode()).isEqualTo(404);
            assertThat(get(port, "/health/ready/").statusCode()).isEqualTo(404);
            HttpResponse<String> post = http.send(HttpRequest.newBuilder(uri(port, "/health/ready"))
                    .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(405);
            assertThat(post.headers().firstValue("Allow")).contains("GET, HEAD");

            Set<String> ids = it.publish("OBS", 30);
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(ids);
            });
            // Kafka's client metrics are read at most once a second (ClientMetrics.REFRESH_MS): a scrape within a
            // second of the last one shows that read, from before the tickets, so wait for a newer one
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(250))
                    .until(() -> scrape(port).value("kafka_stream_processed_records_total", Map.of()).orElse(0.0) > 0);
            PrometheusText after = scrape(port);
            assertThat(after.sum("quotaflow_ticket_latency_seconds_count", Map.of("route", "default"))).isEqualTo(30.0);
            assertThat(after.sum("quotaflow_ticket_wait_seconds_count", Map.of("route", "default"))).isEqualTo(30.0);
            assertThat(after.sum("quotaflow_tickets_classified_total", Map.of("route", "default"))).isEqualTo(30.0);
            double answered = after.value("quotaflow_calls_total", Map.of("route", "default", "outcome", "answered")).orElseThrow();
            assertThat(answered).isPositive().isEqualTo(after.sum("quotaflow_calls_started_total", Map.of()));
            assertThat(after.value("quotaflow_tokens_total", Map.of("route", "default", "kind", "prompt")).orElseThrow()).isPositive();
            assertThat(after.value("quotaflow_tokens_total", Map.of("route", "default", "kind", "admitted")).orElseThrow())
                    .isGreaterThan(after.value("quotaflow_tokens_total", Map.of("route", "default", "kind", "estimated")).orElseThrow());
            assertThat(after.value("quotaflow_quota_utilization_ratio", Map.of("route", "default", "dimension", "requests"))
                    .orElseThrow()).isEqualTo(answered / 2_000.0);
            assertThat(after.sum("quotaflow_rate_limited_total", Map.of())).isZero();
            assertThat(after.value("kafka_stream_processed_records_total", Map.of()).orElseThrow()).isPositive();
            assertThat(after.value("kafka_consumer_records_consumed_total", Map.of()).orElseThrow()).isPositive();
            assertThat(after.value("kafka_producer_records_sent_total", Map.of()).orElseThrow()).isPositive();
            assertThat(after.value("kafka_stream_commits_total", Map.of()).orElseThrow()).isPositive();
            assertThat(after.value("kafka_stream_alive_threads", Map.of())).contains(1.0);
            assertThat(after.families().stream().filter(f -> f.startsWith("kafka_")).count())
                    .as("the curated few, not Kafka's thousand").isBetween(9L, 14L);
            System.out.printf("ObservabilityIT: /metrics with metrics.kafka=curated after %d tickets: %d bytes, %d families%n", ids.size(),
                    get(port, "/metrics").body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length, after.families().size());
            assertThat(get(port, "/metrics").body()).as("no process UUID on the page")
                    .doesNotContainPattern("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
            lint("after " + ids.size() + " tickets", port);

            it.sim.setFaults(Faults.builder().failAuth(true).build());
            Set<String> held = it.publish("OBS-HALT", 3);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> scrape(port).value("quotaflow_route_halted", Map.of("route", "default")).orElseThrow() == 1.0);
            HttpResponse<String> ready = get(port, "/health/ready");
            assertThat(ready.statusCode()).as("a halt is route health, not the instance's").isEqualTo(200);
            assertThat(ready.body()).contains("\"status\":\"UP\"", "\"haltedRoutes\":{\"default\":", "401");
            HttpResponse<String> live = get(port, "/health/live");
            assertThat(live.statusCode()).as("a revoked key is no reason to restart the process").isEqualTo(200);
            assertThat(live.body()).contains("\"status\":\"UP\"");
            assertThat(scrape(port).value("quotaflow_calls_total", Map.of("route", "default", "outcome", "halt")).orElseThrow())
                    .isPositive();

            it.sim.setFaults(Faults.none());
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(held);
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> get(port, "/health/ready").statusCode() == 200);
            // the gauge follows the next snapshot after the probe's answer: wait for it rather than read it once
            await("quotaflow_route_halted back to 0").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                    .until(() -> scrape(port).value("quotaflow_route_halted", Map.of("route", "default")).equals(java.util.Optional.of(0.0)));
        }
    }

    private void lint(String when, int port) throws Exception {
        if (!Promtool.installed()) {
            System.out.println("ObservabilityIT: promtool is not on the PATH; /metrics not linted " + when);
            return;
        }
        String text = get(port, "/metrics").body();
        Promtool.Result result = Promtool.checkMetrics(text);
        assertThat(result.output().strip()).as("promtool check metrics on the whole page " + when).isEmpty();
        assertThat(result.exitCode()).isZero();
        System.out.printf("ObservabilityIT: promtool check metrics %s: clean on the whole page%n", when);
    }

    private PrometheusText scrape(int port) throws IOException, InterruptedException {
        HttpResponse<String> r = get(port, "/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        return PrometheusText.parse(r.body());
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(port, path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(int port, String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}

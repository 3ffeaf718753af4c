package io.quotaflow.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.http.server.StatusServer;
import io.quotaflow.quota.QuotaLevel;
import io.quotaflow.testkit.PrometheusText;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.dispatch.report.DispatcherSnapshot;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The daily and input/output dimensions of {@code quotaflow_quota_limit} / {@code _available}, and out-for-day in /status. */
class QuotaLimitGaugesTest {

    private static final String SCOPE = "scope-77aa";
    private static final String[] OPTIONAL = {"input-tokens", "output-tokens", "requests-per-day", "tokens-per-day"};

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PipelineMetrics metrics = new PipelineMetrics(registry, new MeteredRoute("default", SCOPE, 500, 200_000));

    @AfterEach
    void close() {
        registry.close();
    }

    private double gauge(String family, String dimension) {
        return PrometheusText.parse(registry.scrape()).value(family, Map.of("route", "default", "dimension", dimension)).orElseThrow();
    }

    @Test
    void shouldRegisterTheOptionalDimensionsAtZeroBeforeTheFirstSnapshot() {
        for (String dimension : OPTIONAL) {
            assertThat(gauge("quotaflow_quota_limit", dimension)).as(dimension).isZero();
            assertThat(gauge("quotaflow_quota_available", dimension)).as(dimension).isZero();
        }
        assertThat(PrometheusText.parse(registry.scrape()).help("quotaflow_quota_limit")).hasValueSatisfying(h ->
                assertThat(h).contains("requests-per-day", "input-tokens"));
    }

    @Test
    void shouldExportEachConfiguredLimitAndWhatIsLeftOfIt() {
        Map<String, QuotaLevel> limits = new LinkedHashMap<>();
        limits.put("requests", new QuotaLevel(500, 5));
        limits.put("input-tokens", new QuotaLevel(40_000, 1_234.5));
        limits.put("requests-per-day", new QuotaLevel(10_000, 9_990));
        limits.put("tokens-per-day", new QuotaLevel(2_000_000, 0));
        metrics.state(snapshot(limits, "2026-12-02T07:00:00Z"));
        assertThat(gauge("quotaflow_quota_limit", "input-tokens")).isEqualTo(40_000);
        assertThat(gauge("quotaflow_quota_available", "input-tokens")).isEqualTo(1_234.5);
        assertThat(gauge("quotaflow_quota_limit", "requests-per-day")).isEqualTo(10_000);
        assertThat(gauge("quotaflow_quota_available", "requests-per-day")).isEqualTo(9_990);
        assertThat(gauge("quotaflow_quota_limit", "tokens-per-day")).isEqualTo(2_000_000);
        assertThat(gauge("quotaflow_quota_available", "tokens-per-day")).isZero();
        assertThat(gauge("quotaflow_quota_limit", "output-tokens")).as("not configured").isZero();
        assertThat(gauge("quotaflow_quota_limit", "requests")).as("from the route, unchanged").isEqualTo(500);
    }

    @Test
    void shouldReportTheLimitInForceAndTheUtilizationAgainstIt() {
        // configured 200 000 TPM (the route); the limiter keeps to 20 000 (a ceiling, or the provider's lower one)
        Map<String, QuotaLevel> limits = new LinkedHashMap<>();
        limits.put("requests", new QuotaLevel(500, 5));
        limits.put("tokens", new QuotaLevel(20_000, 300));
        metrics.state(snapshot(limits, null));
        metrics.dispatched(SCOPE, Priority.STANDARD, 3, 900, 10_000);

        assertThat(gauge("quotaflow_quota_limit", "tokens")).isEqualTo(20_000);
        assertThat(gauge("quotaflow_quota_utilization_ratio", "tokens")).isEqualTo(0.5);
        assertThat(gauge("quotaflow_quota_utilization_ratio", "requests")).isEqualTo(1 / 500.0);
    }

    @Test
    void shouldSayInStatusUntilWhenTheRouteIsOutForTheDay() throws Exception {
        StreamsProbe probe = new StreamsProbe() {
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
        };
        metrics.state(snapshot(Map.of("requests-per-day", new QuotaLevel(3, 0)), "2026-12-02T00:00:00Z"));
        try (StatusServer server = new StatusServer("127.0.0.1", 0, registry, metrics, probe)) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/status")).GET().build(), HttpResponse.BodyHandlers.ofString());
            JsonNode scope = Json.MAPPER.readTree(response.body()).get("scopes").get(0);
            assertThat(scope.get("outForDayUntil").asText()).isEqualTo("2026-12-02T00:00:00Z");
            assertThat(scope.get("limits").get("requests-per-day").get("limit").asLong()).isEqualTo(3);
            assertThat(scope.get("limits").get("requests-per-day").get("available").asDouble()).isZero();
        }
    }

    private static DispatcherSnapshot snapshot(Map<String, QuotaLevel> limits, String outForDayUntil) {
        Map<Priority, Integer> sizes = new EnumMap<>(Priority.class);
        for (Priority p : Priority.values()) {
            sizes.put(p, 0);
        }
        return new DispatcherSnapshot(SCOPE, System.currentTimeMillis(), sizes, Map.of(), 0, 0, 100, 5, 0, 0, "RUNNING", 1.0,
                128_000, 4, 1_000, limits, outForDayUntil);
    }
}

package io.quotaflow.metrics;

import io.quotaflow.testkit.ManualTime;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.settings.MetricsSettings;
import io.quotaflow.testkit.PrometheusText;
import io.quotaflow.testkit.Promtool;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The registry behind /metrics: build info, no Kafka families by default, no NaN, promtool clean on the whole page. */
class MetricsRegistryTest {

    private static PrometheusMeterRegistry fresh(MetricsSettings settings) {
        PrometheusMeterRegistry registry = MetricsRegistry.create(settings);
        new PipelineMetrics(registry, new MeteredRoute("default", "scope-0", 500, 200_000));
        ProcessMetrics.bindTo(registry);
        ConsumerLag.register(registry, List.of("tickets.interactive", "app-dispatch-repartition"), new ClientMetrics(new ManualTime(0)));
        return registry;
    }

    private static String page(PrometheusMeterRegistry registry) {
        return new String(MetricsText.render(registry), StandardCharsets.UTF_8);
    }

    @Test
    void shouldServeTheBuildInfoWithTheVersion() {
        PrometheusMeterRegistry registry = fresh(MetricsSettings.DEFAULT);
        PrometheusText text = PrometheusText.parse(page(registry));
        assertThat(text.type("quotaflow_build_info")).contains("gauge");
        assertThat(text.samples("quotaflow_build_info")).singleElement().satisfies(s -> {
            assertThat(s.value()).isEqualTo(1.0);
            assertThat(s.labels().get("version")).as("filtered from the project's version").isNotBlank().doesNotContain("${")
                    .isNotEqualTo(BuildInfo.UNKNOWN);
            assertThat(s.labels().get("kafka_version")).matches("\\d+\\.\\d+.*");
            assertThat(s.labels()).containsKey("java_version");
        });
        registry.close();
    }

    @Test
    void shouldRegisterTheConsumerLagPerTopicAtZero() {
        PrometheusMeterRegistry registry = fresh(MetricsSettings.DEFAULT);
        PrometheusText text = PrometheusText.parse(page(registry));
        assertThat(text.value("quotaflow_consumer_lag_records", Map.of("topic", "tickets.interactive"))).contains(0.0);
        assertThat(text.value("quotaflow_consumer_lag_records", Map.of("topic", "app-dispatch-repartition"))).contains(0.0);
        registry.close();
    }

    @Test
    void shouldKeepEveryKafkaBinderOffThePageUnlessCurated() throws Exception {
        PrometheusMeterRegistry off = fresh(MetricsSettings.DEFAULT);
        PrometheusMeterRegistry curated = fresh(new MetricsSettings(MetricsSettings.KafkaMetrics.CURATED));
        {
            for (PrometheusMeterRegistry registry : List.of(off, curated)) {
                // what Micrometer's Kafka binders register: never on the page, whatever the setting
                Gauge.builder("kafka.stream.state.block.cache.capacity", () -> 1).tag("thread.id", "app-6f1c4a52-StreamThread-1")
                        .register(registry);
                Gauge.builder("kafka.consumer.records.lag.max.other", () -> 1).register(registry);
            }
            // the curated counters hold their source weakly, as Micrometer's function counters do: keep it
            ClientMetrics clients = new ClientMetrics(new ManualTime(0));
            KafkaCuratedMetrics.register(curated, clients);
            assertThat(PrometheusText.parse(page(off)).families()).noneMatch(f -> f.startsWith("kafka_"));
            PrometheusText text = PrometheusText.parse(page(curated));
            assertThat(text.families().stream().filter(f -> f.startsWith("kafka_")).toList())
                    .as("the curated counters, at zero; the gauges have no value yet, so they are left off")
                    .containsExactlyInAnyOrder("kafka_consumer_records_consumed_total", "kafka_consumer_rebalances_total",
                            "kafka_consumer_failed_rebalances_total", "kafka_producer_records_sent_total",
                            "kafka_producer_record_errors_total", "kafka_producer_record_retries_total",
                            "kafka_stream_failed_threads_total", "kafka_stream_processed_records_total", "kafka_stream_commits_total");
            java.lang.ref.Reference.reachabilityFence(clients);
        }
        off.close();
        curated.close();
    }

    @Test
    void shouldLeaveNaNSamplesAndTheirEmptyFamiliesOffThePage() {
        PrometheusMeterRegistry registry = fresh(MetricsSettings.DEFAULT);
        Gauge.builder("quotaflow.test.unknown", () -> Double.NaN).description("never known").register(registry);
        Gauge.builder("quotaflow.test.partly", () -> Double.NaN).description("one known").tag("k", "a").register(registry);
        Gauge.builder("quotaflow.test.partly", () -> 2.0).description("one known").tag("k", "b").register(registry);
        String page = page(registry);
        assertThat(registry.scrape()).contains("quotaflow_test_unknown NaN");
        assertThat(page).doesNotContain("NaN").doesNotContain("quotaflow_test_unknown");
        assertThat(page).contains("# TYPE quotaflow_test_partly gauge\nquotaflow_test_partly{k=\"b\"} 2.0\n");
        registry.close();
    }

    @Test
    void shouldPassPromtoolOnTheWholePageJvmAndProcessIncluded() throws Exception {
        Promtool.assumeInstalled();
        PrometheusMeterRegistry registry = fresh(new MetricsSettings(MetricsSettings.KafkaMetrics.CURATED));
        ClientMetrics clients = new ClientMetrics(new ManualTime(0));
        KafkaCuratedMetrics.register(registry, clients);
        {
            String page = page(registry);
            assertThat(page).contains("jvm_memory_used_bytes", "process_cpu_seconds_total", "system_cpu_processors")
                    .doesNotContain("process_cpu_time_ns_total", "system_cpu_count");
            Promtool.Result result = Promtool.checkMetrics(page);
            assertThat(result.output().strip()).as("promtool check metrics").isEmpty();
            assertThat(result.exitCode()).isZero();
        }
        java.lang.ref.Reference.reachabilityFence(clients);
        registry.close();
    }
}

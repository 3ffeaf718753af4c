package io.quotaflow.metrics;

import io.quotaflow.testkit.ManualTime;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.quota.RateLimitHeaders;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.testkit.ObservabilityContract;
import io.quotaflow.testkit.PrometheusText;
import io.quotaflow.testkit.Promtool;
import io.quotaflow.records.Priority;
import io.quotaflow.dispatch.report.DispatcherSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class PipelineMetricsTest {

    private static final String SCOPE = "scope-1a2b3c";
    private static final long T0 = Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();
    private static final Map<String, String> ROUTE = Map.of("route", "default");

    private final ManualTime clock = new ManualTime(T0);
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ProcessMetrics process = ProcessMetrics.bindTo(registry);
    private final PipelineMetrics metrics = new PipelineMetrics(registry, List.of(new MeteredRoute("default", SCOPE, 500, 200_000)),
            clock);

    @AfterEach
    void close() {
        process.close();
        registry.close();
    }

    private PrometheusText scrape() {
        return PrometheusText.parse(registry.scrape());
    }

    @Test
    void shouldRegisterEveryContractFamilyWithHelpAndItsLabelsBeforeTheFirstTicket() {
        PrometheusText text = scrape();
        for (ObservabilityContract.Family f : ObservabilityContract.FAMILIES) {
            assertThat(text.type(f.name())).as("TYPE of " + f.name()).contains(f.type());
            assertThat(text.help(f.name())).as("HELP of " + f.name()).hasValueSatisfying(h -> assertThat(h).isNotBlank());
            List<PrometheusText.Sample> samples = text.samples(f.sampleName());
            assertThat(samples).as("series of " + f.sampleName()).isNotEmpty();
            assertThat(samples).allSatisfy(s -> assertThat(s.labels().keySet()).as(f.name()).isEqualTo(f.labels()));
        }
        assertThat(text.value("quotaflow_calls_total", Map.of("route", "default", "outcome", "answered"))).contains(0.0);
        assertThat(text.value("quotaflow_queue_depth", Map.of("route", "default", "priority", "interactive"))).contains(0.0);
        assertThat(text.value("quotaflow_ticket_wait_seconds_count", Map.of("route", "default", "priority", "bulk"))).contains(0.0);
        assertThat(text.value("quotaflow_quota_limit", Map.of("route", "default", "dimension", "tokens"))).contains(200_000.0);
        assertThat(text.value("quotaflow_quota_limit", Map.of("route", "default", "dimension", "requests"))).contains(500.0);
        for (String cause : ObservabilityContract.RATE_LIMIT_CAUSES) {
            assertThat(text.value("quotaflow_rate_limited_total", Map.of("route", "default", "cause", cause))).as(cause).contains(0.0);
        }
        for (String kind : ObservabilityContract.TOKEN_KINDS) {
            assertThat(text.value("quotaflow_tokens_total", Map.of("route", "default", "kind", kind))).as(kind).contains(0.0);
        }
    }

    @Test
    void shouldGiveHelpToEveryFamilyAndUseBaseUnits() {
        PrometheusText text = scrape();
        assertThat(text.families()).contains("jvm_memory_used_bytes", "jvm_gc_memory_allocated_bytes_total", "jvm_threads_live_threads",
                "jvm_classes_loaded_classes", "process_cpu_usage", "process_uptime_seconds", "process_files_open_files");
        for (String family : text.families()) {
            assertThat(text.help(family)).as("HELP of " + family).hasValueSatisfying(h -> assertThat(h).isNotBlank());
        }
        assertThat(text.families().stream().filter(f -> f.startsWith("quotaflow_")))
                .noneMatch(f -> f.matches(".*_(ms|millis|milliseconds|minutes|kb|mb)(_.*)?$"));
    }

    @Test
    void shouldPassPromtoolBeforeAndAfterTraffic() throws Exception {
        Promtool.assumeInstalled();
        Promtool.Result before = Promtool.checkMetrics(registry.scrape());
        assertThat(before.problems("quotaflow_")).as(before.output()).isEmpty();
        metrics.dispatched(SCOPE, Priority.STANDARD, 3, 900, 1_200);
        metrics.completed(SCOPE, answered(850, 60), 3);
        metrics.classified(SCOPE, Priority.STANDARD, 120, 900);
        metrics.state(snapshot("RUNNING", Map.of(Priority.BULK, 4), Map.of(Priority.BULK, 2_500L)));
        Promtool.Result after = Promtool.checkMetrics(registry.scrape());
        assertThat(after.problems("quotaflow_")).as(after.output()).isEmpty();
    }

    @Test
    void shouldSplitRateLimitsByCause() {
        metrics.completed(SCOPE, limited("Rate limit reached for gpt-4o-mini on tokens per min (TPM): Limit 200000, Used 199500, "
                + "Requested 900.", RateLimitInfo.EMPTY), 3);
        metrics.completed(SCOPE, limited("Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 500, Used 500, "
                + "Requested 1.", RateLimitInfo.EMPTY), 3);
        metrics.completed(SCOPE, limited("Too many concurrent requests", RateLimitInfo.EMPTY), 1);
        metrics.completed(SCOPE, limited("slow down", RateLimitHeaders.parse(Map.of("x-ratelimit-remaining-tokens", List.of("0")),
                Instant.ofEpochMilli(T0))), 1);
        metrics.completed(SCOPE, limited("slow down", RateLimitInfo.EMPTY), 1);
        metrics.completed(SCOPE, new ModelOutcome.Failed(ModelOutcome.FailureKind.HALT, 429, "You exceeded your current quota",
                Optional.empty(), RateLimitInfo.EMPTY, 30), 2);
        metrics.completed(SCOPE, new ModelOutcome.Failed(ModelOutcome.FailureKind.HALT, 401, "Incorrect API key provided",
                Optional.empty(), RateLimitInfo.EMPTY, 30), 2);
        PrometheusText text = scrape();
        assertThat(cause(text, "tpm")).isEqualTo(2.0);
        assertThat(cause(text, "rpm")).isEqualTo(1.0);
        assertThat(cause(text, "concurrency")).isEqualTo(1.0);
        assertThat(cause(text, "unknown")).isEqualTo(1.0);
        assertThat(cause(text, "quota-exhausted")).as("a spent quota is a 429 too, but a halt").isEqualTo(1.0);
        assertThat(text.value("quotaflow_calls_total", Map.of("route", "default", "outcome", "rate-limited"))).contains(5.0);
        assertThat(text.value("quotaflow_calls_total", Map.of("route", "default", "outcome", "halt"))).contains(2.0);
        assertThat(text.value("quotaflow_call_latency_seconds_count", ROUTE)).contains(7.0);
        assertThat(metrics.http429()).isEqualTo(5);
    }

    @Test
    void shouldCountTokensByKind() {
        metrics.dispatched(SCOPE, Priority.INTERACTIVE, 2, 700, 1_000);
        metrics.dispatched(SCOPE, Priority.BULK, 5, 1_500, 2_100);
        metrics.completed(SCOPE, answered(680, 40), 2);
        PrometheusText text = scrape();
        assertThat(tokens(text, "estimated")).isEqualTo(2_200.0);
        assertThat(tokens(text, "admitted")).isEqualTo(3_100.0);
        assertThat(tokens(text, "prompt")).isEqualTo(680.0);
        assertThat(tokens(text, "completion")).isEqualTo(40.0);
        assertThat(text.value("quotaflow_calls_started_total", Map.of("route", "default", "priority", "bulk"))).contains(1.0);
        assertThat(text.value("quotaflow_call_tickets_total", Map.of("route", "default", "priority", "bulk"))).contains(5.0);
        assertThat(metrics.calls()).isEqualTo(2);
    }

    @Test
    void shouldRecordWaitAndLatencyInSecondsBuckets() {
        metrics.classified(SCOPE, Priority.INTERACTIVE, 40, 300);
        metrics.classified(SCOPE, Priority.INTERACTIVE, 3_000, 4_000);
        PrometheusText text = scrape();
        Map<String, String> interactive = Map.of("route", "default", "priority", "interactive");
        assertThat(text.value("quotaflow_ticket_wait_seconds_count", interactive)).contains(2.0);
        assertThat(text.value("quotaflow_ticket_wait_seconds_sum", interactive)).contains(3.04);
        assertThat(text.value("quotaflow_ticket_wait_seconds_bucket", with(interactive, "le", "0.05"))).contains(1.0);
        assertThat(text.value("quotaflow_ticket_wait_seconds_bucket", with(interactive, "le", "5.0"))).contains(2.0);
        assertThat(text.value("quotaflow_ticket_latency_seconds_bucket", with(interactive, "le", "0.25"))).contains(0.0);
        assertThat(text.value("quotaflow_ticket_latency_seconds_bucket", with(interactive, "le", "0.5"))).contains(1.0);
        assertThat(text.value("quotaflow_ticket_latency_seconds_bucket", with(interactive, "le", "+Inf"))).contains(2.0);
        assertThat(text.samples("quotaflow_ticket_latency_seconds_bucket").stream()
                .filter(s -> s.labels().get("priority").equals("interactive"))).hasSize(17);
        assertThat(text.value("quotaflow_tickets_classified_total", interactive)).contains(2.0);
    }

    @Test
    void shouldReportUtilizationOfTheLastMinute() {
        metrics.dispatched(SCOPE, Priority.STANDARD, 10, 40_000, 50_000);
        clock.advanceMs(30_000);
        metrics.dispatched(SCOPE, Priority.STANDARD, 10, 40_000, 50_000);
        assertThat(utilization("tokens")).isEqualTo(0.5);
        assertThat(utilization("requests")).isEqualTo(2 / 500.0);
        clock.advanceMs(31_000);
        assertThat(utilization("tokens")).as("the first call is over a minute old").isEqualTo(0.25);
        clock.advanceMs(60_000);
        assertThat(utilization("tokens")).isZero();
    }

    @Test
    void shouldShowQueuesQuotaCircuitAndHaltFromTheDispatchersState() {
        metrics.state(snapshot("RUNNING", Map.of(Priority.BULK, 7), Map.of(Priority.BULK, 2_000L)));
        clock.advanceMs(500);
        PrometheusText text = scrape();
        Map<String, String> bulk = Map.of("route", "default", "priority", "bulk");
        assertThat(text.value("quotaflow_queue_depth", bulk)).contains(7.0);
        assertThat(text.value("quotaflow_queue_oldest_age_seconds", bulk)).as("the age goes on between snapshots").contains(2.5);
        assertThat(text.value("quotaflow_queue_oldest_age_seconds", Map.of("route", "default", "priority", "interactive")))
                .contains(0.0);
        assertThat(text.value("quotaflow_quota_available", Map.of("route", "default", "dimension", "tokens"))).contains(12_345.0);
        assertThat(text.value("quotaflow_quota_available", Map.of("route", "default", "dimension", "requests"))).contains(8.0);
        assertThat(text.value("quotaflow_estimate_ratio", ROUTE)).contains(1.25);
        assertThat(text.value("quotaflow_cooldown_seconds", ROUTE)).contains(1.5);
        assertThat(text.value("quotaflow_circuit_state", ROUTE)).contains(0.0);
        assertThat(text.value("quotaflow_route_halted", ROUTE)).contains(0.0);

        metrics.circuitTransition(SCOPE, "CLOSED", "OPEN");
        assertThat(scrape().value("quotaflow_circuit_state", ROUTE)).contains(2.0);
        metrics.circuitTransition(SCOPE, "OPEN", "HALF_OPEN");
        assertThat(scrape().value("quotaflow_circuit_state", ROUTE)).contains(1.0);
        assertThat(scrape().value("quotaflow_circuit_transitions_total", Map.of("route", "default", "to", "open"))).contains(1.0);

        metrics.state(snapshot("HALTED: HTTP 401: Incorrect API key provided", Map.of(), Map.of()));
        assertThat(scrape().value("quotaflow_route_halted", ROUTE)).contains(1.0);
        assertThat(scrape().value("quotaflow_circuit_state", ROUTE)).as("a halt leaves the circuit as it was").contains(1.0);
        assertThat(metrics.haltedRoutes()).containsExactly(Map.entry("default", "HTTP 401: Incorrect API key provided"));
        assertThat(metrics.healthy()).isFalse();

        metrics.state(snapshot("RUNNING", Map.of(), Map.of()));
        assertThat(scrape().value("quotaflow_route_halted", ROUTE)).contains(0.0);
        assertThat(scrape().value("quotaflow_circuit_state", ROUTE)).contains(0.0);
        assertThat(metrics.haltedRoutes()).isEmpty();
    }

    @Test
    void shouldForgetTheStateOfAScopeThisInstanceNoLongerOwns() {
        metrics.state(snapshot("HALTED: HTTP 401: Incorrect API key provided", Map.of(Priority.STANDARD, 5),
                Map.of(Priority.STANDARD, 1_000L)));
        metrics.circuitTransition(SCOPE, "CLOSED", "OPEN");
        assertThat(scrape().value("quotaflow_queue_depth", Map.of("route", "default", "priority", "standard"))).contains(5.0);
        metrics.released(SCOPE);
        PrometheusText text = scrape();
        assertThat(text.value("quotaflow_queue_depth", Map.of("route", "default", "priority", "standard"))).contains(0.0);
        assertThat(text.value("quotaflow_queue_oldest_age_seconds", Map.of("route", "default", "priority", "standard"))).contains(0.0);
        assertThat(text.value("quotaflow_route_halted", ROUTE)).contains(0.0);
        assertThat(text.value("quotaflow_circuit_state", ROUTE)).contains(0.0);
        assertThat(metrics.snapshots()).isEmpty();
        assertThat(metrics.haltedRoutes()).isEmpty();
        assertThat(metrics.healthy()).isTrue();
    }

    @Test
    void shouldCountRetriesAndDeadLettersByKind() {
        metrics.retried(SCOPE, "transient");
        metrics.retried(SCOPE, "transient");
        metrics.deadLettered(SCOPE, "bad-input");
        metrics.recordFailed("processing", "tickets.standard", "IllegalStateException");
        PrometheusText text = scrape();
        assertThat(text.value("quotaflow_retries_total", Map.of("route", "default", "kind", "transient"))).contains(2.0);
        assertThat(text.value("quotaflow_retries_total", Map.of("route", "default", "kind", "timeout"))).contains(0.0);
        assertThat(text.value("quotaflow_dead_letters_total", Map.of("kind", "bad-input"))).contains(1.0);
        assertThat(text.value("quotaflow_dead_letters_total", Map.of("kind", "internal-error"))).contains(1.0);
        assertThat(text.value("quotaflow_dead_letters_total", Map.of("kind", "too-large"))).contains(0.0);
        assertThat(text.value("quotaflow_stream_record_errors_total", Map.of("stage", "processing"))).contains(1.0);
        assertThat(metrics.deadLetteredCount()).isEqualTo(2);
        assertThat(metrics.retriedCount()).isEqualTo(2);
    }

    private double cause(PrometheusText text, String cause) {
        return text.value("quotaflow_rate_limited_total", Map.of("route", "default", "cause", cause)).orElseThrow();
    }

    private double tokens(PrometheusText text, String kind) {
        return text.value("quotaflow_tokens_total", Map.of("route", "default", "kind", kind)).orElseThrow();
    }

    private double utilization(String dimension) {
        return scrape().value("quotaflow_quota_utilization_ratio", Map.of("route", "default", "dimension", dimension)).orElseThrow();
    }

    private static Map<String, String> with(Map<String, String> labels, String key, String value) {
        Map<String, String> out = new java.util.HashMap<>(labels);
        out.put(key, value);
        return out;
    }

    private DispatcherSnapshot snapshot(String state, Map<Priority, Integer> pending, Map<Priority, Long> ages) {
        Map<Priority, Integer> sizes = new EnumMap<>(Priority.class);
        for (Priority p : Priority.values()) {
            sizes.put(p, pending.getOrDefault(p, 0));
        }
        return new DispatcherSnapshot(SCOPE, clock.milliseconds(), sizes, ages.isEmpty() ? Map.of() : new EnumMap<>(ages), 1, 2, 12_345, 8,
                1_500, 0, state, 1.25, 128_000, 4, 20_000);
    }

    private static ModelOutcome answered(long prompt, long completion) {
        return new ModelOutcome.Answered(Map.of(), Map.of(), "stop", prompt, completion, RateLimitInfo.EMPTY, 420);
    }

    private static ModelOutcome limited(String message, RateLimitInfo info) {
        return new ModelOutcome.RateLimited(Optional.empty(), message, Optional.empty(), Optional.empty(), info, 25);
    }

    @Test
    void shouldCallTheInstanceNotLiveOnlyWhileItsStreamThreadsKeepFailing() {
        RuntimeException cause = new IllegalStateException("invalid partitions");
        metrics.streamThreadFailed(cause, T0);
        metrics.streamThreadFailed(cause, T0 + 45_000);
        assertThat(metrics.notLiveReason(T0 + 50_000)).as("two failures: each replaced, maybe transient").isNull();
        assertThat(metrics.notReadyReason(T0 + 50_000)).contains("a stream thread failed 5 s ago");

        metrics.streamThreadFailed(cause, T0 + 90_000);
        assertThat(metrics.notLiveReason(T0 + 91_000)).isEqualTo("stream threads failed 3 times in 91 s (last: "
                + "IllegalStateException, 1 s ago); each replacement failed again; see the log");
        assertThat(metrics.notLiveReason(T0 + ThreadFailures.THREAD_FAILURE_LOOP_WINDOW.toMillis() - 1)).isNotNull();
        assertThat(metrics.notLiveReason(T0 + ThreadFailures.THREAD_FAILURE_LOOP_WINDOW.toMillis()))
                .as("the oldest of the three is out of the window").isNull();

        metrics.streamThreadFailed(cause, T0 + ThreadFailures.THREAD_FAILURE_LOOP_WINDOW.toMillis() + 1_000);
        assertThat(metrics.notLiveReason(T0 + ThreadFailures.THREAD_FAILURE_LOOP_WINDOW.toMillis() + 1_000))
                .as("three within the window again").isNotNull();
        assertThat(metrics.threadFailureCount()).isEqualTo(4);
    }
}

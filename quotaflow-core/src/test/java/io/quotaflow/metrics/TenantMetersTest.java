package io.quotaflow.metrics;

import io.quotaflow.testkit.ManualTime;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.testkit.PrometheusText;
import io.quotaflow.records.Priority;
import io.quotaflow.dispatch.report.DispatcherSnapshot;
import io.quotaflow.dispatch.report.TenantState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class TenantMetersTest {

    private static final String SCOPE = "scope-1a2b3c";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final PipelineMetrics metrics = new PipelineMetrics(registry, List.of(new MeteredRoute("default", SCOPE, 500, 200_000)),
            new ManualTime(0));

    @AfterEach
    void close() {
        registry.close();
    }

    private static DispatcherSnapshot snapshot(Map<String, TenantState> tenants) {
        return new DispatcherSnapshot(SCOPE, 0, Map.of(Priority.BULK, 7), Map.of(), 0, 0, 1, 1, 0, 0, "RUNNING", 1, 128_000, 4,
                20_000, Map.of(), null, tenants);
    }

    @Test
    void shouldCountAdmittedTokensAndGaugeDepthPerTenant() {
        PrometheusText before = PrometheusText.parse(registry.scrape());
        assertThat(before.value("quotaflow_tenant_tokens_total", Map.of("tenant", "other"))).contains(0.0);

        metrics.tenantAdmitted(SCOPE, "acme", 450);
        metrics.tenantAdmitted(SCOPE, "acme", 50);
        metrics.state(snapshot(Map.of("acme", new TenantState(5, 0.75, false), "zeta", new TenantState(2, 0.25, true))));

        PrometheusText text = PrometheusText.parse(registry.scrape());
        assertThat(text.value("quotaflow_tenant_tokens_total", Map.of("tenant", "acme"))).contains(500.0);
        assertThat(text.value("quotaflow_tenant_queue_depth", Map.of("tenant", "acme"))).contains(5.0);
        assertThat(text.value("quotaflow_tenant_queue_depth", Map.of("tenant", "zeta"))).contains(2.0);
        metrics.released(SCOPE);
        assertThat(PrometheusText.parse(registry.scrape()).value("quotaflow_tenant_queue_depth", Map.of("tenant", "acme")))
                .as("a released scope's queue is no longer counted here").contains(0.0);
    }

    @Test
    void shouldNameNoTenantWhenTenantLabelsAreOff() {
        PrometheusMeterRegistry unnamed = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        PipelineMetrics off = new PipelineMetrics(unnamed, List.of(new MeteredRoute("default", SCOPE, 500, 200_000)), new ManualTime(0), false);

        off.tenantAdmitted(SCOPE, "acme", 400);
        off.tenantAdmitted(SCOPE, "globex", 100);
        off.state(snapshot(Map.of("acme", new TenantState(5, 0.75, false), "globex", new TenantState(2, 0.25, true))));

        String scrape = unnamed.scrape();
        PrometheusText text = PrometheusText.parse(scrape);
        assertThat(text.value("quotaflow_tenant_tokens_total", Map.of("tenant", "all"))).contains(500.0);
        assertThat(text.value("quotaflow_tenant_queue_depth", Map.of("tenant", "all"))).contains(7.0);
        assertThat(text.samples("quotaflow_tenant_tokens_total")).hasSize(1);
        assertThat(scrape).doesNotContain("acme").doesNotContain("globex");
        unnamed.close();
    }

    @Test
    void shouldBoundTheTenantLabelToFiftyNamesAndOther() {
        for (int i = 0; i < 80; i++) {
            metrics.tenantAdmitted(SCOPE, "t" + i, 10);
        }
        PrometheusText text = PrometheusText.parse(registry.scrape());
        List<PrometheusText.Sample> series = text.samples("quotaflow_tenant_tokens_total");
        assertThat(series).hasSize(TenantState.MAX_TENANTS + 1);
        assertThat(text.value("quotaflow_tenant_tokens_total", Map.of("tenant", "t49"))).contains(10.0);
        assertThat(text.value("quotaflow_tenant_tokens_total", Map.of("tenant", "other"))).contains(300.0);
    }
}

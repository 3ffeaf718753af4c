package io.quotaflow.metrics;

import io.quotaflow.testkit.RepositoryFiles;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.testkit.PrometheusText;
import io.quotaflow.testkit.Promtool;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** ops/prometheus/alerts.yml: valid for Prometheus, its own unit tests pass, and it names only metrics quotaflow serves. */
class AlertRulesTest {

    private static final Path RULES = RepositoryFiles.path("ops/prometheus/alerts.yml");
    private static final Path RULE_TESTS = RepositoryFiles.path("ops/prometheus/alerts.test.yml");

    @Test
    void shouldPassPromtoolCheckRules() throws Exception {
        Promtool.assumeInstalled();
        Promtool.Result result = Promtool.checkRules(RULES);
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS: 4 rules found");
    }

    @Test
    void shouldFireAsItsUnitTestsExpect() throws Exception {
        Promtool.assumeInstalled();
        Promtool.Result result = Promtool.testRules(RULE_TESTS);
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS");
    }

    @Test
    void shouldOnlyNameMetricsRegisteredAtStartUp() throws Exception {
        Set<String> named = new TreeSet<>();
        Matcher m = Pattern.compile("quotaflow_[a-z_]+").matcher(Files.readString(RULES, StandardCharsets.UTF_8));
        while (m.find()) {
            named.add(m.group());
        }
        assertThat(named).contains("quotaflow_queue_oldest_age_seconds", "quotaflow_rate_limited_total", "quotaflow_route_halted");
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new PipelineMetrics(registry, new MeteredRoute("default", "scope-0", 500, 200_000));
        PrometheusText text = PrometheusText.parse(registry.scrape());
        registry.close();
        for (String name : named) {
            assertThat(text.samples(name)).as(name + " in a fresh instance's /metrics").isNotEmpty();
        }
    }
}

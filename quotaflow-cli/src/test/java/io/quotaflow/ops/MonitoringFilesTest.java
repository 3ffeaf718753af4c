package io.quotaflow.ops;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.metrics.FreshRegistry;
import io.quotaflow.settings.MetricsSettings;
import io.quotaflow.testkit.ObservabilityContract;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** ops/prometheus and ops/grafana: they parse, point at each other and at the compose services, and query the contract. */
class MonitoringFilesTest {

    /** A metric selector in a query: the name, and its label matchers (empty when it has none). */
    private static final Pattern SELECTOR = Pattern.compile("\\b((?:quotaflow|jvm|process|system|kafka)_[a-z0-9_]+)(\\{[^}]*})?");

    private static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode p : dashboard.path("panels")) {
            out.add(p);
            p.path("panels").forEach(out::add); // collapsed rows hold their panels
        }
        return out;
    }

    private static List<String> expressions(JsonNode dashboard) {
        List<String> out = new ArrayList<>();
        for (JsonNode p : panels(dashboard)) {
            p.path("targets").forEach(t -> out.add(t.path("expr").asText()));
        }
        return out;
    }

    @Test
    void prometheusShouldScrapeThePipelineAndLoadTheAlertRules() {
        JsonNode compose = OpsFiles.service("prometheus");
        Map<String, String> binds = ComposeFileTest.bindMounts(compose);
        assertThat(binds).containsEntry("./ops/prometheus", "/etc/prometheus");
        assertThat(compose.path("command").toString()).contains("--config.file=/etc/prometheus/prometheus.yml");

        JsonNode config = OpsFiles.yaml("ops/prometheus/prometheus.yml");
        String pipelinePort = OpsFiles.service("pipeline").path("environment").path("QUOTAFLOW_HTTP_PORT").asText();
        JsonNode quotaflow = null;
        for (JsonNode job : config.path("scrape_configs")) {
            if (job.path("job_name").asText().equals("quotaflow")) {
                quotaflow = job;
            }
        }
        assertThat(quotaflow).as("a scrape job 'quotaflow'").isNotNull();
        assertThat(quotaflow.path("metrics_path").asText()).isEqualTo("/metrics");
        assertThat(quotaflow.path("static_configs").get(0).path("targets").get(0).asText()).isEqualTo("pipeline:" + pipelinePort);

        List<String> rules = new ArrayList<>();
        config.path("rule_files").forEach(r -> rules.add(r.asText()));
        assertThat(rules).contains("alerts.yml");
        if (Files.exists(OpsFiles.path("ops/prometheus/alerts.yml"))) {
            assertThat(OpsFiles.yaml("ops/prometheus/alerts.yml").path("groups").isArray()).as("alerts.yml: groups").isTrue();
        }
    }

    @Test
    void grafanaShouldProvisionThePrometheusDatasourceAndTheDashboard() {
        JsonNode grafana = OpsFiles.service("grafana");
        Map<String, String> binds = ComposeFileTest.bindMounts(grafana);
        assertThat(binds).containsEntry("./ops/grafana/provisioning", "/etc/grafana/provisioning");
        String dashboards = binds.get("./ops/grafana/dashboards");
        assertThat(dashboards).as("dashboards mounted").isNotNull();

        JsonNode datasource = OpsFiles.yaml("ops/grafana/provisioning/datasources/prometheus.yml").path("datasources").get(0);
        assertThat(datasource.path("type").asText()).isEqualTo("prometheus");
        assertThat(datasource.path("url").asText()).as("the compose service").isEqualTo("http://prometheus:9090");
        JsonNode provider = OpsFiles.yaml("ops/grafana/provisioning/dashboards/quotaflow.yml").path("providers").get(0);
        assertThat(provider.path("options").path("path").asText()).isEqualTo(dashboards);
        assertThat(grafana.path("environment").path("GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH").asText())
                .isEqualTo(dashboards + "/quotaflow.json");

        JsonNode dashboard = OpsFiles.json("ops/grafana/dashboards/quotaflow.json");
        Set<Integer> ids = new HashSet<>();
        for (JsonNode p : panels(dashboard)) {
            assertThat(ids.add(p.path("id").asInt())).as("panel ids are unique").isTrue();
            if (!p.path("type").asText().equals("row")) {
                assertThat(p.path("targets").size()).as(p.path("title").asText()).isPositive();
            }
            JsonNode pos = p.path("gridPos");
            assertThat(pos.path("x").asInt() + pos.path("w").asInt()).as(p.path("title").asText()).isLessThanOrEqualTo(24);
        }
    }

    @Test
    void theDashboardShouldUseTheDatasourceVariableEverywhereAndNoHardCodedUid() {
        JsonNode dashboard = OpsFiles.json("ops/grafana/dashboards/quotaflow.json");
        Map<String, JsonNode> variables = new HashMap<>();
        dashboard.path("templating").path("list").forEach(v -> variables.put(v.path("name").asText(), v));
        assertThat(variables).containsKeys("datasource", "instance", "route");
        assertThat(variables.get("datasource").path("type").asText()).isEqualTo("datasource");
        assertThat(variables.get("datasource").path("query").asText()).isEqualTo("prometheus");
        assertThat(variables.get("instance").path("definition").asText()).contains("instance");
        assertThat(variables.get("instance").path("includeAll").asBoolean()).isTrue();

        // every datasource reference, wherever it is (panels, targets, variables), names the variable
        List<JsonNode> references = new ArrayList<>();
        collectDatasources(dashboard, references);
        assertThat(references).hasSizeGreaterThan(panels(dashboard).size());
        assertThat(references).allSatisfy(ds -> {
            assertThat(ds.path("uid").asText()).as(ds.toString()).isEqualTo("${datasource}");
            assertThat(ds.path("type").asText()).as(ds.toString()).isEqualTo("prometheus");
        });
        for (JsonNode p : panels(dashboard)) {
            if (!p.path("type").asText().equals("row")) {
                assertThat(p.path("datasource").path("uid").asText()).as(p.path("title").asText()).isEqualTo("${datasource}");
                p.path("targets").forEach(t -> assertThat(t.path("datasource").path("uid").asText()).as(p.path("title").asText())
                        .isEqualTo("${datasource}"));
            }
        }
    }

    /** Every {@code datasource} object under {@code node}, but the datasource variable's own definition. */
    private static void collectDatasources(JsonNode node, List<JsonNode> out) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                if (e.getKey().equals("datasource") && e.getValue().isObject()) {
                    out.add(e.getValue());
                } else {
                    collectDatasources(e.getValue(), out);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> collectDatasources(n, out));
        }
    }

    @Test
    void everySelectorShouldFollowTheInstanceVariable() {
        for (String expr : expressions(OpsFiles.json("ops/grafana/dashboards/quotaflow.json"))) {
            Matcher m = SELECTOR.matcher(expr);
            int selectors = 0;
            while (m.find()) {
                selectors++;
                assertThat(m.group(2)).as(m.group(1) + " in " + expr).contains("instance=~\"$instance\"");
            }
            assertThat(selectors).as(expr).isPositive();
        }
    }

    @Test
    void theDashboardShouldQueryOnlyFamiliesAFreshInstanceServes() {
        JsonNode dashboard = OpsFiles.json("ops/grafana/dashboards/quotaflow.json");
        Set<String> served = FreshRegistry.names(MetricsSettings.DEFAULT);
        Set<String> queried = new TreeSet<>();
        for (String expr : expressions(dashboard)) {
            Matcher m = SELECTOR.matcher(expr);
            while (m.find()) {
                queried.add(m.group(1));
            }
        }
        assertThat(served).as("families a fresh instance registers (metrics.kafka=off)").containsAll(queried);
        // what an operator looks for first: queues, throughput, spend, lag, calls in flight, quota, 429s, retries,
        // fallbacks, cache, circuit, latency
        assertThat(queried).contains("quotaflow_queue_depth", "quotaflow_queue_oldest_age_seconds", "quotaflow_quota_limit",
                "quotaflow_quota_utilization_ratio", "quotaflow_rate_limited_total", "quotaflow_retries_total",
                "quotaflow_fallbacks_total", "quotaflow_cache_hits_total", "quotaflow_circuit_state",
                "quotaflow_ticket_latency_seconds_bucket", "quotaflow_tickets_classified_total", "quotaflow_cost_usd_total",
                "quotaflow_consumer_lag_records", "quotaflow_in_flight");
        Set<String> contract = new HashSet<>();
        ObservabilityContract.FAMILIES.forEach(f -> contract.add(f.name()));
        assertThat(served).as("the contract's families are served").containsAll(contract);
    }

    @Test
    void theDashboardShouldShowLatencyPercentilesFromTheHistogramAndSplitsByTheContractLabels() {
        List<String> exprs = expressions(OpsFiles.json("ops/grafana/dashboards/quotaflow.json"));
        List<String> latency = exprs.stream().filter(e -> e.contains("quotaflow_ticket_latency_seconds")).toList();
        assertThat(latency).hasSizeGreaterThanOrEqualTo(3).allSatisfy(e -> assertThat(e)
                .startsWith("histogram_quantile(").contains("quotaflow_ticket_latency_seconds_bucket").contains("by (le, priority)"));
        assertThat(latency).anyMatch(e -> e.startsWith("histogram_quantile(0.99,"));
        assertThat(exprs).anyMatch(e -> e.contains("by (priority) (quotaflow_queue_depth"));
        assertThat(exprs).anyMatch(e -> e.contains("by (priority) (quotaflow_queue_oldest_age_seconds"));
        assertThat(exprs).anyMatch(e -> e.contains("by (route, cause) (rate(quotaflow_rate_limited_total"));
        // every instance serves each route's gauges; only the scope's owner has use: sum the use, max the limit
        assertThat(exprs).anyMatch(e -> e.contains("on (route, dimension) max by (route, dimension) (quotaflow_quota_limit"));
        assertThat(exprs).anyMatch(e -> e.startsWith("sum by (topic) (quotaflow_consumer_lag_records"));
        assertThat(exprs).anyMatch(e -> e.contains("rate(quotaflow_cost_usd_total") && e.endsWith("* 3600"));
    }
}

package io.quotaflow.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quotaflow.settings.MetricsSettings;
import io.quotaflow.testkit.Markdown;
import io.quotaflow.testkit.Promtool;
import io.quotaflow.testkit.RepositoryFiles;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ops/prometheus/alerts.yml: valid for Prometheus, its own unit tests pass and make every alert fire at
 * least once, it covers the pages that matter, and it names only metrics quotaflow serves with the
 * default settings.
 */
class AlertRulesTest {

    private static final Path RULES = RepositoryFiles.path("ops/prometheus/alerts.yml");
    private static final Path RULE_TESTS = RepositoryFiles.path("ops/prometheus/alerts.test.yml");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** Where every runbook_url points: a section of docs/operations.md as GitHub shows it. */
    private static final String RUNBOOKS = "https://github.com/quotaflow/quotaflow/blob/main/docs/operations.md#";

    private static List<JsonNode> rules() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        YAML.readTree(RULES.toFile()).path("groups").forEach(g -> g.path("rules").forEach(out::add));
        return out;
    }

    private static Set<String> alerts() throws Exception {
        Set<String> names = new TreeSet<>();
        rules().forEach(r -> names.add(r.path("alert").asText()));
        return names;
    }

    @Test
    void shouldPassPromtoolCheckRules() throws Exception {
        Promtool.assumeInstalled();
        Promtool.Result result = Promtool.checkRules(RULES);
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS: " + rules().size() + " rules found");
    }

    @Test
    void shouldFireAsItsUnitTestsExpect() throws Exception {
        Promtool.assumeInstalled();
        Promtool.Result result = Promtool.testRules(RULE_TESTS);
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("SUCCESS");
    }

    @Test
    void shouldCoverThePagesThatMatter() throws Exception {
        assertThat(alerts()).contains("QuotaflowCircuitOpen", "QuotaflowRouteHalted", "QuotaflowDeadLetters", "QuotaflowConsumerLag",
                "QuotaflowRetryAmplification", "QuotaflowInstanceDown", "QuotaflowAbsent", "QuotaflowInteractiveQueueOld", "QuotaflowHandoffs");
        for (JsonNode rule : rules()) {
            String name = rule.path("alert").asText();
            assertThat(rule.path("labels").path("severity").asText()).as(name + " severity").isIn("page", "warning");
            for (String annotation : List.of("summary", "description", "runbook_url")) {
                assertThat(rule.path("annotations").path(annotation).asText()).as(name + " " + annotation).isNotBlank();
            }
        }
    }

    @Test
    void shouldPointEveryRunbookUrlToItsOwnSectionOfTheOperationsGuide() throws Exception {
        Set<String> anchors = Markdown.anchors(Files.readString(RepositoryFiles.path("docs/operations.md"), StandardCharsets.UTF_8));
        Set<String> pointedTo = new TreeSet<>();
        for (JsonNode rule : rules()) {
            String name = rule.path("alert").asText();
            String url = rule.path("annotations").path("runbook_url").asText();
            assertThat(url).as(name).startsWith(RUNBOOKS);
            String anchor = url.substring(RUNBOOKS.length());
            assertThat(anchors).as(name + ": docs/operations.md has a heading for #" + anchor).contains(anchor);
            assertThat(pointedTo.add(anchor)).as(name + " has a section of its own").isTrue();
        }
        assertThat(pointedTo).hasSize(alerts().size()).contains("quotaflowhandoffs");
    }

    @Test
    void shouldWaitBeforeEveryAlertFiresAndNeverOnASingleHandOff() throws Exception {
        for (JsonNode rule : rules()) {
            assertThat(rule.path("for").asText()).as(rule.path("alert").asText() + " waits before it fires").matches("\\d+m");
        }
        JsonNode handoffs = rules().stream().filter(r -> r.path("alert").asText().equals("QuotaflowHandoffs")).findFirst().orElseThrow();
        assertThat(handoffs.path("expr").asText()).as("a threshold above one hand-off").doesNotEndWith("> 0").matches("(?s).*> [1-9]\\d*\\s*");
    }

    @Test
    void shouldHaveACaseWhereEveryAlertFires() throws Exception {
        Set<String> firing = new TreeSet<>();
        Set<String> quiet = new TreeSet<>();
        for (JsonNode test : YAML.readTree(RULE_TESTS.toFile()).path("tests")) {
            for (JsonNode c : test.path("alert_rule_test")) {
                (c.path("exp_alerts").isEmpty() ? quiet : firing).add(c.path("alertname").asText());
            }
        }
        assertThat(firing).as("alerts with a promtool case where they fire").containsAll(alerts());
        assertThat(quiet).as("alerts with a promtool case where they stay quiet").containsAll(alerts());
        assertThat(alerts()).as("cases name only existing alerts").containsAll(firing).containsAll(quiet);
    }

    @Test
    void shouldOnlyNameMetricsAnInstanceServesWithTheDefaultSettings() throws Exception {
        Set<String> named = new TreeSet<>();
        Matcher m = Pattern.compile("quotaflow_[a-z_]+").matcher(Files.readString(RULES, StandardCharsets.UTF_8));
        while (m.find()) {
            named.add(m.group());
        }
        assertThat(named).contains("quotaflow_queue_oldest_age_seconds", "quotaflow_rate_limited_total", "quotaflow_route_halted",
                "quotaflow_circuit_state", "quotaflow_dead_letters_total", "quotaflow_consumer_lag_records", "quotaflow_retries_total");
        assertThat(FreshRegistry.names(MetricsSettings.DEFAULT)).as("a fresh instance's /metrics").containsAll(named);
    }
}

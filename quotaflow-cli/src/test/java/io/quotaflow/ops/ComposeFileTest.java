package io.quotaflow.ops;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** docker-compose.yml, checked as far as a parser can (no Docker engine runs here or in CI). */
class ComposeFileTest {

    private static final Set<String> SERVICES = Set.of("kafka", "topics", "sim", "pipeline", "prometheus", "grafana");
    private static final Pattern HOST_PORT = Pattern.compile("\\$\\{([A-Z0-9_]+):-(\\d+)}:(\\d+)");

    private static Map<String, String> environment(JsonNode service) {
        Map<String, String> env = new HashMap<>();
        service.path("environment").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
        return env;
    }

    /** Named-volume mounts of a service: volume name → container path. */
    private static Map<String, String> namedMounts(JsonNode service) {
        Map<String, String> mounts = new HashMap<>();
        for (JsonNode v : service.path("volumes")) {
            String[] parts = v.asText().split(":");
            if (!parts[0].startsWith(".") && !parts[0].startsWith("/")) {
                mounts.put(parts[0], parts[1]);
            }
        }
        return mounts;
    }

    /** Bind mounts of a service: host path → container path. */
    static Map<String, String> bindMounts(JsonNode service) {
        Map<String, String> mounts = new HashMap<>();
        for (JsonNode v : service.path("volumes")) {
            String[] parts = v.asText().split(":");
            if (parts[0].startsWith(".")) {
                mounts.put(parts[0], parts[1]);
            }
        }
        return mounts;
    }

    private static Duration duration(String compose) {
        Matcher m = Pattern.compile("(\\d+)(ms|s|m|h)").matcher(compose);
        Duration total = Duration.ZERO;
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            });
        }
        return total;
    }

    @Test
    void shouldUseOnlyTopLevelKeysComposeV1AlsoAccepts() {
        // docker-compose 1.x rejects the Compose Specification's later top-level name: ("Additional properties are not allowed")
        List<String> keys = new ArrayList<>();
        OpsFiles.compose().fieldNames().forEachRemaining(keys::add);
        assertThat(keys).isNotEmpty().allMatch(k -> List.of("version", "services", "volumes", "networks", "secrets", "configs")
                .contains(k) || k.startsWith("x-"), "a top-level key of the Compose file format 3");
    }

    @Test
    void shouldBeValidForDockerCompose1WhenItIsInstalled() throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("docker-compose", "-f", OpsFiles.ROOT.resolve("docker-compose.yml").toString(), "config", "-q")
                    .redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            System.out.println("ComposeFileTest: docker-compose (Compose v1) is not on the PATH: its own validation is skipped");
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "docker-compose is not installed");
            return;
        }
        String output = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("docker-compose config: %s", output).isZero();
    }

    @Test
    void shouldRunTheWholeStack() {
        List<String> names = new ArrayList<>();
        OpsFiles.compose().path("services").fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactlyInAnyOrderElementsOf(SERVICES);

        JsonNode topics = OpsFiles.service("topics");
        assertThat(topics.path("command").toString()).isEqualTo("[\"topics\",\"apply\",\"--bootstrap-servers\",\"kafka:9092\"]");
        assertThat(topics.path("depends_on").path("kafka").path("condition").asText()).isEqualTo("service_healthy");
        assertThat(topics.path("restart").asText()).isEqualTo("no");
        JsonNode pipeline = OpsFiles.service("pipeline");
        assertThat(pipeline.path("command").get(0).asText()).isEqualTo("run");
        assertThat(pipeline.path("depends_on").path("topics").path("condition").asText())
                .as("the pipeline starts once the topics exist").isEqualTo("service_completed_successfully");
        assertThat(OpsFiles.service("sim").path("command").get(0).asText()).isEqualTo("sim");
        for (String quotaflow : List.of("topics", "pipeline")) {
            assertThat(OpsFiles.service(quotaflow).path("build").asText()).as(quotaflow).isEqualTo(".");
            assertThat(OpsFiles.service(quotaflow).path("image").asText()).as(quotaflow).isEqualTo("quotaflow:local");
        }
        // the simulator is not in the production image: the compose file builds the dev target for it
        JsonNode sim = OpsFiles.service("sim");
        assertThat(sim.path("build").path("target").asText()).isEqualTo("dev");
        assertThat(sim.path("build").path("context").asText()).isEqualTo(".");
        assertThat(sim.path("image").asText()).isEqualTo("quotaflow-dev:local");
    }

    @Test
    void shouldRunKafkaInKraftModeOnTheClientsVersion() {
        JsonNode kafka = OpsFiles.service("kafka");
        assertThat(kafka.path("image").asText()).isEqualTo("apache/kafka:" + OpsFiles.kafkaVersion());
        Map<String, String> env = environment(kafka);
        assertThat(env.get("KAFKA_PROCESS_ROLES")).isEqualTo("broker,controller");
        assertThat(env).containsKey("KAFKA_CONTROLLER_QUORUM_VOTERS").doesNotContainKey("KAFKA_ZOOKEEPER_CONNECT");
        String clusterId = OpsFiles.withDefaults(env.get("CLUSTER_ID"));
        assertThat(Uuid.fromString(clusterId).toString()).as("a KRaft cluster id").isEqualTo(clusterId);
        assertThat(env.get("KAFKA_AUTO_CREATE_TOPICS_ENABLE")).as("topics come from topics/ only").isEqualTo("false");
    }

    @Test
    void shouldCheckTheHealthOfEveryService() throws Exception {
        for (String name : SERVICES) {
            JsonNode check = OpsFiles.service(name).path("healthcheck");
            assertThat(check.path("disable").asBoolean(false)).as(name).isFalse();
            JsonNode test = check.path("test");
            assertThat(test.isArray() && test.size() >= 2).as("%s: a healthcheck test command", name).isTrue();
            assertThat(test.get(0).asText()).as(name).isIn("CMD", "CMD-SHELL");
        }
        assertThat(OpsFiles.service("pipeline").path("healthcheck").path("test").toString())
                .contains("http://localhost:8080/health/ready");
        // the simulator's check asks a path the simulator really serves, without a key
        String simCheck = OpsFiles.service("sim").path("healthcheck").path("test").toString();
        Matcher url = Pattern.compile("http://localhost:8089(/[a-z/]+)").matcher(simCheck);
        assertThat(url.find()).as(simCheck).isTrue();
        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorConfig.builder().port(0).build())) {
            HttpResponse<Void> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + sim.port() + url.group(1))).GET().build(), HttpResponse.BodyHandlers.discarding());
            assertThat(answer.statusCode()).as("GET " + url.group(1) + " on the simulator").isEqualTo(200);
        }
    }

    @Test
    void shouldKeepDataInNamedVolumes() {
        Set<String> declared = new HashSet<>();
        OpsFiles.compose().path("volumes").fieldNames().forEachRemaining(declared::add);
        assertThat(declared).containsExactlyInAnyOrder("kafka-data", "quotaflow-state", "prometheus-data", "grafana-data");

        JsonNode kafka = OpsFiles.service("kafka");
        assertThat(namedMounts(kafka)).containsEntry("kafka-data", environment(kafka).get("KAFKA_LOG_DIRS"));
        JsonNode pipeline = OpsFiles.service("pipeline");
        assertThat(namedMounts(pipeline)).containsEntry("quotaflow-state", environment(pipeline).get("QUOTAFLOW_STATE_DIR"));
        JsonNode prometheus = OpsFiles.service("prometheus");
        assertThat(prometheus.path("command").toString()).contains("--storage.tsdb.path=" + namedMounts(prometheus)
                .get("prometheus-data"));
        assertThat(namedMounts(OpsFiles.service("grafana"))).containsEntry("grafana-data", "/var/lib/grafana");
        Set<String> used = new HashSet<>();
        SERVICES.forEach(s -> used.addAll(namedMounts(OpsFiles.service(s)).keySet()));
        assertThat(used).as("every mounted volume is declared, every declared one mounted").isEqualTo(declared);
    }

    @Test
    void shouldGiveThePipelineLongerToStopThanItsCloseTimeout() {
        Duration grace = duration(OpsFiles.service("pipeline").path("stop_grace_period").asText());
        assertThat(grace).isGreaterThan(Duration.ofSeconds(OpsFiles.pipelineCloseTimeoutSeconds()));
    }

    @Test
    void shouldNeverHandTheProviderKeyToTheSimulator() {
        JsonNode sim = OpsFiles.service("sim");
        assertThat(sim.has("env_file")).isFalse();
        assertThat(sim.toString()).doesNotContain("QUOTAFLOW_LLM_API_KEY");
        assertThat(environment(sim).get("QUOTAFLOW_SIM_API_KEYS")).startsWith("${SIM_API_KEY");
        assertThat(environment(OpsFiles.service("pipeline"))).containsKey("QUOTAFLOW_LLM_API_KEY");
        for (String name : SERVICES) {
            if (!name.equals("pipeline")) {
                assertThat(OpsFiles.service(name).toString()).as(name).doesNotContain("QUOTAFLOW_LLM_API_KEY");
            }
        }
    }

    @Test
    void shouldDocumentEveryVariableAndHostPortInTheReadme() {
        String section = OpsFiles.operationsSection("The compose stack");
        Set<String> variables = new LinkedHashSet<>();
        OpsFiles.variables(OpsFiles.text("docker-compose.yml")).forEach(v -> variables.add(v[0]));
        assertThat(variables).isNotEmpty();
        for (String variable : variables) {
            assertThat(section).as("docs/operations.md documents ${%s}", variable).contains("`" + variable + "`");
        }
        int ports = 0;
        for (String name : SERVICES) {
            for (JsonNode mapping : OpsFiles.service(name).path("ports")) {
                Matcher m = HOST_PORT.matcher(mapping.asText());
                assertThat(m.matches()).as("%s: host port mapping ${VAR:-port}:port, was %s", name, mapping.asText()).isTrue();
                assertThat(section).as("docs/operations.md lists the host port of %s", name).contains(m.group(2));
                ports++;
            }
        }
        assertThat(ports).as("host ports of kafka, sim, pipeline, prometheus and grafana").isEqualTo(5);
        assertThat(section.toLowerCase(Locale.ROOT)).contains("ops/grafana/dashboards/quotaflow.json", "http://localhost:3000");
    }
}

package io.quotaflow.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Several models over HTTP: the model list, taking one down through the admin endpoint, the per-model statistics JSON, two simulators. */
class ProviderSimulatorModelsTest {

    private static final String KEY = "sk-test-models-http";

    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<ProviderSimulator> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(ProviderSimulator::close);
    }

    private ProviderSimulator start(SimulatorConfig.Builder builder) {
        ProviderSimulator sim = ProviderSimulator.start(builder.port(0).apiKeys(Set.of(KEY)).noLatency().build());
        started.add(sim);
        return sim;
    }

    private static SimulatorConfig.Builder twoModels() {
        return SimulatorConfig.builder().serve(ModelSpec.of("gpt-4o").withLimits(100, 30_000).withContextTokens(8_192));
    }

    private HttpResponse<String> chat(ProviderSimulator sim, String model) throws Exception {
        ObjectNode req = mapper.createObjectNode().put("model", model).put("max_tokens", 20);
        req.putArray("messages").addObject().put("role", "user")
                .put("content", "{\"tickets\":[{\"id\":\"t-1\",\"subject\":\"Login\",\"body\":\"I cannot log in\"}]}");
        return http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/chat/completions"))
                .header("Authorization", "Bearer " + KEY).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(mapper.writeValueAsString(req))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> send(ProviderSimulator sim, String method, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + sim.port() + path))
                .header("Authorization", "Bearer " + KEY)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void shouldAnswerHeadWithoutABodyAndWithoutAJavaUtilLoggingWarning() throws Exception {
        java.util.logging.Logger server = java.util.logging.Logger.getLogger("com.sun.net.httpserver");
        List<java.util.logging.LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        server.addHandler(capture);
        try {
            ProviderSimulator sim = start(twoModels());

            HttpResponse<String> head = send(sim, "HEAD", "/v1/models", null);

            assertThat(head.statusCode()).as("GET only").isEqualTo(405);
            assertThat(head.body()).as("a HEAD answer has no body").isEmpty();
            assertThat(send(sim, "GET", "/v1/models", null).body()).isNotEmpty();
            assertThat(records).as("the JDK server's warnings (a length given for HEAD)")
                    .noneMatch(r -> r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue());
        } finally {
            server.removeHandler(capture);
        }
    }

    @Test
    void shouldListEveryModelServedThatTheKeyMayUse() throws Exception {
        ProviderSimulator sim = start(twoModels().serve(ModelSpec.of("own-keys").withApiKeys(Set.of("sk-own"))));

        JsonNode list = mapper.readTree(send(sim, "GET", "/v1/models", null).body());
        HttpResponse<String> own = http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/models"))
                .header("Authorization", "Bearer sk-own").GET().build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> wrong = http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/models"))
                .header("Authorization", "Bearer sk-wrong").GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(list.path("data").findValuesAsText("id")).containsExactly("gpt-4o-mini", "gpt-4o");
        assertThat(mapper.readTree(own.body()).path("data").findValuesAsText("id")).containsExactly("own-keys");
        assertThat(wrong.statusCode()).isEqualTo(401);
    }

    @Test
    void shouldTakeOneModelDownAndBackThroughTheAdminEndpoint() throws Exception {
        ProviderSimulator sim = start(twoModels());

        HttpResponse<String> down = send(sim, "POST", "/admin/models/gpt-4o/down", "{\"status\":529}");
        int whileDown = chat(sim, "gpt-4o").statusCode();
        int otherWhileDown = chat(sim, "gpt-4o-mini").statusCode();
        HttpResponse<String> up = send(sim, "POST", "/admin/models/gpt-4o/up", null);
        int afterUp = chat(sim, "gpt-4o").statusCode();

        assertThat(down.statusCode()).isEqualTo(200);
        assertThat(mapper.readTree(down.body()).path("status").asInt()).isEqualTo(529);
        assertThat(whileDown).isEqualTo(529);
        assertThat(otherWhileDown).isEqualTo(200);
        assertThat(mapper.readTree(up.body()).path("down").asBoolean()).isFalse();
        assertThat(afterUp).isEqualTo(200);
        assertThat(sim.down("gpt-4o")).isEmpty();
        assertThat(send(sim, "POST", "/admin/models/nope/down", null).statusCode()).isEqualTo(404);
        assertThat(send(sim, "POST", "/admin/models/gpt-4o/down", "{\"status\":418}").statusCode()).isEqualTo(400);
        assertThat(send(sim, "GET", "/admin/models/gpt-4o/down", null).statusCode()).isEqualTo(405);
    }

    @Test
    void shouldServeEachModelsCountsInTheStatisticsJson() throws Exception {
        ProviderSimulator sim = start(twoModels().rpm(60).burstSeconds(1));
        chat(sim, "gpt-4o-mini");
        chat(sim, "gpt-4o-mini");
        chat(sim, "gpt-4o");
        chat(sim, "unknown-model");

        JsonNode stats = mapper.readTree(send(sim, "GET", "/admin/stats", null).body());

        JsonNode mini = stats.path("models").path("gpt-4o-mini");
        JsonNode big = stats.path("models").path("gpt-4o");
        assertThat(mini.path("requests").asLong()).isEqualTo(2);
        assertThat(mini.path("http429").asLong()).isEqualTo(1);
        assertThat(mini.path("requestsAdmitted").asLong()).isEqualTo(1);
        assertThat(big.path("requests").asLong()).isEqualTo(1);
        assertThat(big.path("http429").asLong()).isZero();
        assertThat(big.path("tpmLimit").asLong()).isEqualTo(30_000);
        assertThat(big.path("contextTokens").asLong()).isEqualTo(8_192);
        assertThat(big.path("promptTokens").asLong()).isPositive();
        assertThat(stats.path("totalRequests").asLong()).isEqualTo(4);
        assertThat(stats.path("requestsByStatus").path("404").asLong()).isEqualTo(1);
    }

    @Test
    void shouldRunTwoSimulatorsOnTwoPortsIndependently() throws Exception {
        ProviderSimulator primary = start(SimulatorConfig.builder());
        ProviderSimulator backup = start(SimulatorConfig.builder().model("gpt-4o"));

        primary.setDown("gpt-4o-mini", true);

        assertThat(primary.port()).isNotEqualTo(backup.port());
        assertThat(chat(primary, "gpt-4o-mini").statusCode()).isEqualTo(503);
        assertThat(chat(backup, "gpt-4o").statusCode()).isEqualTo(200);
        assertThat(chat(backup, "gpt-4o-mini").statusCode()).as("each serves its own models").isEqualTo(404);
        assertThat(backup.stats().model("gpt-4o").requestsAdmitted()).isEqualTo(1);
        assertThat(primary.stats().model("gpt-4o-mini").downAnswers()).isEqualTo(1);
        assertThatThrownBy(() -> primary.setDown("gpt-4o", true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not serve model 'gpt-4o'");
        assertThatThrownBy(() -> primary.setDown("gpt-4o-mini", 302)).hasMessageContaining("5xx, 401, 403, 404 or 429");
    }
}

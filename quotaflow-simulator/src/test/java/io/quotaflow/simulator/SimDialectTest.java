package io.quotaflow.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The simulator in each provider dialect: its paths, key header, rate-limit headers and error bodies. */
class SimDialectTest {

    private static final String KEY = "sk-test-dialect";
    private static final String BODY = "{\"model\":\"gpt-4o-mini\",\"max_tokens\":20,\"messages\":[{\"role\":\"user\",\"content\":"
            + "\"My parcel has not arrived.\"}]}";

    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private ProviderSimulator sim;

    @AfterEach
    void stop() {
        if (sim != null) {
            sim.close();
        }
    }

    private void start(SimDialect dialect, long rpm) {
        sim = ProviderSimulator.start(SimulatorConfig.builder().port(0).apiKeys(Set.of(KEY)).noLatency().rpm(rpm).burstSeconds(60)
                .dialect(dialect).build(), clock::get);
    }

    private HttpResponse<String> post(String pathAndQuery, String header, String value) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + sim.port() + pathAndQuery))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(BODY));
        if (header != null) {
            b.header(header, value);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void shouldServeAzureDeploymentsWithTheApiKeyHeaderAndItsHeadersAndWords() throws Exception {
        start(SimDialect.AZURE, 1);
        assertThat(sim.baseUrl()).isEqualTo("http://localhost:" + sim.port());
        String chat = "/openai/deployments/gpt-4o-mini/chat/completions?api-version=2024-10-21";

        HttpResponse<String> ok = post(chat, "api-key", KEY);
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.headers().firstValue("x-ratelimit-remaining-requests")).contains("0");
        assertThat(ok.headers().firstValue("x-ratelimit-limit-requests")).isEmpty();

        HttpResponse<String> limited = post(chat, "api-key", KEY);
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("retry-after-ms")).isPresent();
        assertThat(mapper.readTree(limited.body()).path("error").path("message").asText()).contains("Please retry after 60 seconds");

        assertThat(post(chat, "Authorization", "Bearer " + KEY).statusCode()).as("the key goes in api-key").isEqualTo(401);
        assertThat(post("/openai/deployments/nope/chat/completions?api-version=2024-10-21", "api-key", KEY).statusCode()).isEqualTo(404);
        assertThat(post("/openai/deployments/gpt-4o-mini/chat/completions", "api-key", KEY).statusCode()).as("no api-version").isEqualTo(404);
        assertThat(post("/v1/chat/completions", "api-key", KEY).statusCode()).isEqualTo(404);
    }

    @Test
    void shouldSpeakAnthropicHeadersAndHaltingSpendLimit() throws Exception {
        start(SimDialect.ANTHROPIC, 100);

        HttpResponse<String> ok = post("/v1/chat/completions", "x-api-key", KEY);
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.headers().firstValue("anthropic-ratelimit-requests-limit")).contains("100");
        assertThat(ok.headers().firstValue("anthropic-ratelimit-requests-remaining")).contains("99");
        assertThat(Instant.parse(ok.headers().firstValue("anthropic-ratelimit-tokens-reset").orElseThrow())).isAfter(Instant.EPOCH);
        assertThat(ok.headers().firstValue("x-ratelimit-limit-requests")).isEmpty();
        assertThat(post("/v1/chat/completions", "Authorization", "Bearer " + KEY).statusCode()).isEqualTo(200);

        sim.setDown("gpt-4o-mini", 429);
        HttpResponse<String> spent = post("/v1/chat/completions", "x-api-key", KEY);
        JsonNode body = mapper.readTree(spent.body());
        assertThat(spent.statusCode()).isEqualTo(429);
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.path("error").path("type").asText()).isEqualTo("rate_limit_error");
        assertThat(body.path("error").path("details").path("error_code").asText()).isEqualTo("enforced_spend_limit_reached");
        assertThat(spent.headers().firstValue("retry-after")).isEmpty();

        sim.setDown("gpt-4o-mini", 529);
        assertThat(mapper.readTree(post("/v1/chat/completions", "x-api-key", KEY).body()).path("error").path("type").asText())
                .isEqualTo("overloaded_error");
    }

    @Test
    void shouldSpeakGeminiRetryInfoAndPerDayQuotaWithoutHeaders() throws Exception {
        start(SimDialect.GEMINI, 1);
        String chat = "/v1beta/openai/chat/completions";

        HttpResponse<String> ok = post(chat, "Authorization", "Bearer " + KEY);
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.headers().map().keySet()).noneMatch(h -> h.toLowerCase().startsWith("x-ratelimit") || h.toLowerCase().startsWith("retry-after"));

        HttpResponse<String> limited = post(chat, "Authorization", "Bearer " + KEY);
        JsonNode error = mapper.readTree(limited.body()).path(0).path("error");
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("retry-after")).isEmpty();
        assertThat(error.path("status").asText()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(error.path("details").findValuesAsText("retryDelay")).containsExactly("60s");
        assertThat(error.path("details").findValuesAsText("quotaId")).containsExactly("GenerateRequestsPerMinutePerProjectPerModel");

        sim.setDown("gpt-4o-mini", 429);
        JsonNode day = mapper.readTree(post(chat, "Authorization", "Bearer " + KEY).body()).path(0).path("error");
        assertThat(day.path("details").findValuesAsText("quotaId")).containsExactly("GenerateRequestsPerDayPerProjectPerModel");

        HttpResponse<String> badKey = post(chat, "Authorization", "Bearer wrong-key");
        assertThat(badKey.statusCode()).isEqualTo(400);
        assertThat(mapper.readTree(badKey.body()).path(0).path("error").path("details").findValuesAsText("reason")).containsExactly("API_KEY_INVALID");
        assertThat(post("/v1/chat/completions", "Authorization", "Bearer " + KEY).statusCode()).isEqualTo(404);
    }
}

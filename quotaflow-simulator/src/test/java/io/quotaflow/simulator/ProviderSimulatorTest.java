package io.quotaflow.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.duration.GoDuration;
import io.quotaflow.tokens.TokenCounter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class ProviderSimulatorTest {

    private static final String KEY = "sk-test-key";
    private static final List<String> CATEGORIES = List.of("billing", "technical", "account", "shipping", "other");
    private static final List<String> URGENCIES = List.of("low", "medium", "high", "critical");

    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private ProviderSimulator sim;

    @AfterEach
    void stop() {
        if (sim != null) {
            sim.close();
        }
    }

    private ProviderSimulator start(SimulatorConfig.Builder builder) {
        sim = ProviderSimulator.start(builder.port(0).apiKeys(Set.of(KEY)).build());
        return sim;
    }

    private static SimulatorConfig.Builder fast() {
        return SimulatorConfig.builder().noLatency();
    }

    private ObjectNode request(List<Map<String, String>> tickets, Integer maxTokens,
                               List<String> categories, List<String> urgencies) throws Exception {
        ObjectNode req = mapper.createObjectNode();
        req.put("model", "gpt-4o-mini");
        req.put("temperature", 0);
        if (maxTokens != null) {
            req.put("max_tokens", maxTokens);
        }
        ArrayNode messages = req.putArray("messages");
        messages.addObject().put("role", "system").put("content", "You classify customer support tickets.");
        messages.addObject().put("role", "user")
                .put("content", mapper.writeValueAsString(Map.of("tickets", tickets)));
        ObjectNode item = req.putObject("response_format").put("type", "json_schema")
                .putObject("json_schema").put("name", "ticket_classification").put("strict", true)
                .putObject("schema").put("type", "object")
                .putObject("properties").putObject("results").put("type", "array")
                .putObject("items").put("type", "object").putObject("properties");
        item.putObject("id").put("type", "string");
        categories.forEach(item.putObject("category").put("type", "string").putArray("enum")::add);
        urgencies.forEach(item.putObject("urgency").put("type", "string").putArray("enum")::add);
        return req;
    }

    private ObjectNode request(List<Map<String, String>> tickets, Integer maxTokens) throws Exception {
        return request(tickets, maxTokens, CATEGORIES, URGENCIES);
    }

    private HttpResponse<String> post(String body, String authorization) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/chat/completions"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            req.header("Authorization", authorization);
        }
        return http.send(req.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(JsonNode body) throws Exception {
        return post(mapper.writeValueAsString(body), "Bearer " + KEY);
    }

    private static Map<String, String> ticket(String id, String subject, String body) {
        return Map.of("id", id, "subject", subject, "body", body);
    }

    private static long header(HttpResponse<?> response, String name) {
        return Long.parseLong(response.headers().firstValue(name).orElseThrow(() -> new AssertionError("no " + name)));
    }

    @Test
    void shouldListenOnAFreePortAndExposeTheBaseUrl() {
        start(fast());
        assertThat(sim.port()).isPositive();
        assertThat(sim.baseUrl()).isEqualTo("http://localhost:" + sim.port() + "/v1");
    }

    @Test
    void shouldClassifyEveryTicketWithEnumValuesAndReportUsage() throws Exception {
        start(fast());
        List<Map<String, String>> tickets = List.of(
                ticket("T-1", "Cobrança duplicada na fatura", "Fui cobrado duas vezes, quero reembolso. Não consigo falar com ninguém."),
                ticket("T-2", "Where is my package?", "The tracking says shipped last week but no delivery yet. Just a question."),
                ticket("T-3", "Production is down", "Our API calls fail with a 503 error, urgent!"),
                ticket("T-4", "Password reset", "I forgot my password and the login page rejects me."),
                ticket("T-5", "Hello", "Thanks for the nice product."));
        ObjectNode body = request(tickets, 220);

        HttpResponse<String> response = post(body);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode completion = mapper.readTree(response.body());
        assertThat(completion.path("id").asText()).startsWith("chatcmpl-sim-");
        assertThat(completion.path("object").asText()).isEqualTo("chat.completion");
        assertThat(completion.path("model").asText()).isEqualTo("gpt-4o-mini");
        JsonNode choice = completion.path("choices").get(0);
        assertThat(choice.path("message").path("role").asText()).isEqualTo("assistant");
        assertThat(choice.path("finish_reason").asText()).isEqualTo("stop");

        String content = choice.path("message").path("content").asText();
        JsonNode results = mapper.readTree(content).path("results");
        assertThat(results).hasSize(5);
        List<String> ids = new ArrayList<>();
        for (JsonNode r : results) {
            ids.add(r.path("id").asText());
            assertThat(CATEGORIES).contains(r.path("category").asText());
            assertThat(URGENCIES).contains(r.path("urgency").asText());
        }
        assertThat(ids).containsExactly("T-1", "T-2", "T-3", "T-4", "T-5");
        assertThat(results.get(0).path("category").asText()).isEqualTo("billing");
        assertThat(results.get(0).path("urgency").asText()).isEqualTo("high");
        assertThat(results.get(1).path("category").asText()).isEqualTo("shipping");
        assertThat(results.get(1).path("urgency").asText()).isEqualTo("low");
        assertThat(results.get(2).path("category").asText()).isEqualTo("technical");
        assertThat(results.get(2).path("urgency").asText()).isEqualTo("critical");
        assertThat(results.get(3).path("category").asText()).isEqualTo("account");
        assertThat(results.get(3).path("urgency").asText()).isEqualTo("medium");
        assertThat(results.get(4).path("category").asText()).isEqualTo("other");

        TokenCounter counter = TokenCounter.forModel("gpt-4o-mini");
        JsonNode usage = completion.path("usage");
        List<TokenCounter.ChatMessage> messages = new ArrayList<>();
        body.path("messages").forEach(m -> messages.add(
                new TokenCounter.ChatMessage(m.path("role").asText(), m.path("content").asText())));
        assertThat(usage.path("prompt_tokens").asInt()).isEqualTo(counter.countChat(messages));
        assertThat(usage.path("completion_tokens").asInt()).isEqualTo(counter.count(content));
        assertThat(usage.path("total_tokens").asInt())
                .isEqualTo(usage.path("prompt_tokens").asInt() + usage.path("completion_tokens").asInt());

        long cost = usage.path("prompt_tokens").asLong() + 220;
        assertThat(header(response, "x-ratelimit-limit-requests")).isEqualTo(500);
        assertThat(header(response, "x-ratelimit-limit-tokens")).isEqualTo(200_000);
        // buckets start at limit × 5 s / 60: 41.67 requests and 16 666.67 tokens
        assertThat(header(response, "x-ratelimit-remaining-requests")).isEqualTo(40);
        // the bucket refills 3.3 tokens per millisecond between the debit and the header snapshot:
        // allow a few milliseconds of a busy machine
        assertThat(header(response, "x-ratelimit-remaining-tokens")).isBetween(16_666 - cost - 1, 16_666 - cost + 10);
        Duration resetRequests = GoDuration.parse(response.headers().firstValue("x-ratelimit-reset-requests").orElseThrow())
                .orElseThrow();
        Duration resetTokens = GoDuration.parse(response.headers().firstValue("x-ratelimit-reset-tokens").orElseThrow())
                .orElseThrow();
        assertThat(resetRequests).isBetween(Duration.ofMillis(100), Duration.ofMillis(120)); // 1 request at 8.33/s
        assertThat(resetTokens).isPositive().isLessThan(Duration.ofMillis(cost * 60_000 / 200_000 + 2));
        assertThat(response.headers().firstValue("retry-after")).isEmpty();
    }

    @Test
    void shouldOnlyAnswerWithValuesFromTheRequestEnums() throws Exception {
        start(fast());
        List<Map<String, String>> tickets = List.of(
                ticket("A", "Refund", "Please refund the charge"),                 // billing, medium
                ticket("B", "Crash", "The app crashes, production is down"),        // technical, critical
                ticket("C", "Question", "Just a question about colours"));          // other, low
        List<String> categories = List.of("Billing", "Misc");
        List<String> urgencies = List.of("LOW", "NORMAL", "HIGH");

        HttpResponse<String> response = post(request(tickets, 200, categories, urgencies));

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode results = mapper.readTree(mapper.readTree(response.body())
                .path("choices").get(0).path("message").path("content").asText()).path("results");
        assertThat(results.get(0).path("category").asText()).isEqualTo("Billing");   // enum spelling
        assertThat(results.get(0).path("urgency").asText()).isEqualTo("NORMAL");     // "medium" not allowed → second
        assertThat(results.get(1).path("category").asText()).isEqualTo("Misc");      // "technical" not allowed → last
        assertThat(results.get(1).path("urgency").asText()).isEqualTo("NORMAL");     // "critical" not allowed → second
        assertThat(results.get(2).path("category").asText()).isEqualTo("Misc");
        assertThat(results.get(2).path("urgency").asText()).isEqualTo("LOW");
    }

    @Test
    void shouldFallBackToIdsFoundInNonJsonContent() throws Exception {
        start(fast());
        String body = "{\"model\":\"gpt-4o-mini\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":"
                + mapper.writeValueAsString("Classify: {\"id\": \"X-1\", text: my invoice is wrong} "
                + "{\"id\":\"X-2\", text: my package never arrived") + "}]}";

        HttpResponse<String> response = post(body, "Bearer " + KEY);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode results = mapper.readTree(mapper.readTree(response.body())
                .path("choices").get(0).path("message").path("content").asText()).path("results");
        assertThat(results).hasSize(2);
        assertThat(results.get(0).path("id").asText()).isEqualTo("X-1");
        assertThat(results.get(0).path("category").asText()).isEqualTo("billing");
        assertThat(results.get(1).path("id").asText()).isEqualTo("X-2");
        assertThat(results.get(1).path("category").asText()).isEqualTo("shipping");
    }

    @Test
    void shouldRejectMissingOrWrongKeyWith401() throws Exception {
        start(fast());
        String body = mapper.writeValueAsString(request(List.of(ticket("T-1", "a", "b")), 50));

        for (String authorization : new String[] {null, "Bearer sk-wrong-secret", "Bearer ", "Basic " + KEY, KEY}) {
            HttpResponse<String> response = post(body, authorization);
            assertThat(response.statusCode()).as("authorization %s", authorization).isEqualTo(401);
            JsonNode error = mapper.readTree(response.body()).path("error");
            assertThat(error.path("code").asText()).isEqualTo("invalid_api_key");
            assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
            assertThat(response.body()).doesNotContain("sk-wrong-secret");
        }
        assertThat(post(body, "bearer " + KEY).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldAcceptAnyNonEmptyKeyWhenNoKeysAreConfigured() throws Exception {
        sim = ProviderSimulator.start(fast().port(0).build());
        String body = mapper.writeValueAsString(request(List.of(ticket("T-1", "a", "b")), 50));
        assertThat(post(body, "Bearer anything").statusCode()).isEqualTo(200);
        assertThat(post(body, null).statusCode()).isEqualTo(401);
    }

    @Test
    void shouldRejectInvalidRequestsWith400() throws Exception {
        start(fast());
        assertThat(post("{not json", "Bearer " + KEY).statusCode()).isEqualTo(400);
        assertThat(post("[1,2]", "Bearer " + KEY).statusCode()).isEqualTo(400);
        HttpResponse<String> noMessages = post("{\"model\":\"gpt-4o-mini\",\"max_tokens\":10}", "Bearer " + KEY);
        assertThat(noMessages.statusCode()).isEqualTo(400);
        assertThat(mapper.readTree(noMessages.body()).path("error").path("param").asText()).isEqualTo("messages");
        assertThat(post("{\"model\":\"gpt-4o-mini\",\"messages\":[]}", "Bearer " + KEY).statusCode()).isEqualTo(400);
        assertThat(post("{\"model\":\"gpt-4o-mini\",\"max_tokens\":0,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                "Bearer " + KEY).statusCode()).isEqualTo(400);
        assertThat(post("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}", "Bearer " + KEY).statusCode())
                .isEqualTo(400);
    }

    @Test
    void shouldAnswer404ForAnotherModel() throws Exception {
        start(fast());
        ObjectNode body = request(List.of(ticket("T-1", "a", "b")), 50).put("model", "gpt-unknown");
        HttpResponse<String> response = post(body);
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(mapper.readTree(response.body()).path("error").path("code").asText()).isEqualTo("model_not_found");
    }

    @Test
    void shouldAnswer429WhenTokensAreExhaustedAndConsumeNothing() throws Exception {
        // 60 000 TPM = 1 000 tokens/s; a 1 s burst holds 1 000 tokens: the second request, sent well within the
        // 0.9 s the bucket takes to refill for it even on a loaded machine, finds it short
        start(fast().rpm(60_000).tpm(60_000).burstSeconds(1));
        ObjectNode body = request(List.of(ticket("T-1", "Refund", "refund please")), 900);

        HttpResponse<String> first = post(body);
        assertThat(first.statusCode()).isEqualTo(200);
        long cost = mapper.readTree(first.body()).path("usage").path("prompt_tokens").asLong() + 900;

        HttpResponse<String> limited = post(body);
        assertThat(limited.statusCode()).isEqualTo(429);
        JsonNode error = mapper.readTree(limited.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("rate_limit_exceeded");
        assertThat(error.path("type").asText()).isEqualTo("tokens");
        assertThat(error.has("param")).isTrue();
        assertThat(error.path("param").isNull()).isTrue();
        Matcher m = Pattern.compile("^Rate limit reached for gpt-4o-mini in organization org-sim on tokens per min "
                + "\\(TPM\\): Limit 60000, Used (\\d+), Requested (\\d+)\\. Please try again in (\\S+)\\.")
                .matcher(error.path("message").asText());
        assertThat(m.find()).as(error.path("message").asText()).isTrue();
        long remaining = header(limited, "x-ratelimit-remaining-tokens");
        assertThat(Long.parseLong(m.group(1))).isEqualTo(60_000 - remaining);
        assertThat(Long.parseLong(m.group(2))).isEqualTo(cost);
        assertThat(GoDuration.parse(m.group(3))).isPresent();

        long retryAfterMs = header(limited, "retry-after-ms");
        assertThat(retryAfterMs).isBetween(1L, 1_000L);
        assertThat(header(limited, "retry-after")).isEqualTo(1);
        assertThat(header(limited, "x-ratelimit-limit-tokens")).isEqualTo(60_000);
        assertThat(header(limited, "x-ratelimit-limit-requests")).isEqualTo(60_000);
        assertThat(limited.headers().firstValue("x-ratelimit-remaining-requests")).isPresent();
        assertThat(GoDuration.parse(limited.headers().firstValue("x-ratelimit-reset-tokens").orElseThrow())).isPresent();
        assertThat(GoDuration.parse(limited.headers().firstValue("x-ratelimit-reset-requests").orElseThrow())).isPresent();

        // the 429 took nothing: after the advertised wait the same request is admitted (a fixed sleep on
        // purpose: what is tested is that waiting exactly retry-after-ms suffices, which polling would not show)
        Thread.sleep(retryAfterMs + 5);
        assertThat(post(body).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldAnswer429WhenRequestsAreExhausted() throws Exception {
        start(fast().rpm(60).burstSeconds(1)); // one request per second, burst of one
        ObjectNode body = request(List.of(ticket("T-1", "a", "b")), 50);

        assertThat(post(body).statusCode()).isEqualTo(200);
        HttpResponse<String> limited = post(body);

        assertThat(limited.statusCode()).isEqualTo(429);
        JsonNode error = mapper.readTree(limited.body()).path("error");
        assertThat(error.path("type").asText()).isEqualTo("requests");
        assertThat(error.path("message").asText())
                .startsWith("Rate limit reached for gpt-4o-mini in organization org-sim on requests per min (RPM): "
                        + "Limit 60, Used 60, Requested 1. Please try again in ");
        assertThat(header(limited, "x-ratelimit-remaining-requests")).isZero();
        assertThat(header(limited, "retry-after-ms")).isBetween(800L, 1000L);
        assertThat(header(limited, "retry-after")).isEqualTo(1);
    }

    @Test
    void shouldRefuseARequestLargerThanTheMinuteLimit() throws Exception {
        start(fast().tpm(1_000));
        HttpResponse<String> response = post(request(List.of(ticket("T-1", "a", "b")), null)); // default 4096
        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(mapper.readTree(response.body()).path("error").path("message").asText())
                .startsWith("Request too large for gpt-4o-mini in organization org-sim on tokens per min (TPM): Limit 1000, Requested ");
        assertThat(response.headers().firstValue("retry-after")).isEmpty();
    }

    @Test
    void shouldTruncateAtMaxTokensAndReportLength() throws Exception {
        start(fast());
        List<Map<String, String>> tickets = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            tickets.add(ticket("TICKET-" + i, "Invoice", "wrong invoice amount"));
        }
        HttpResponse<String> response = post(request(tickets, 20));

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode completion = mapper.readTree(response.body());
        JsonNode choice = completion.path("choices").get(0);
        assertThat(choice.path("finish_reason").asText()).isEqualTo("length");
        assertThat(completion.path("usage").path("completion_tokens").asInt()).isEqualTo(20);
        String content = choice.path("message").path("content").asText();
        assertThat(content).startsWith("{\"results\":[{\"id\":\"TICKET-0\"");
        assertThat(TokenCounter.forModel("gpt-4o-mini").count(content)).isBetween(15, 20);
        assertThat(content).doesNotContain("TICKET-9");
    }

    @Test
    void shouldCountRequestsByStatusAndServeStatsAsJson() throws Exception {
        start(fast().rpm(60).burstSeconds(1));
        ObjectNode body = request(List.of(ticket("T-1", "a", "b")), 50);
        assertThat(post(body).statusCode()).isEqualTo(200);
        assertThat(post(body).statusCode()).isEqualTo(429);
        assertThat(post(mapper.writeValueAsString(body), null).statusCode()).isEqualTo(401);

        SimulatorStats stats = sim.stats();
        assertThat(stats.totalRequests()).isEqualTo(3);
        assertThat(stats.requestsByStatus()).containsEntry("200", 1L).containsEntry("429", 1L).containsEntry("401", 1L);
        assertThat(stats.http429()).isEqualTo(1);
        assertThat(stats.requestsAdmitted()).isEqualTo(1);
        assertThat(stats.inFlight()).isZero();
        assertThat(stats.promptTokens()).isPositive();
        assertThat(stats.completionTokens()).isPositive();
        assertThat(stats.tokensAdmitted()).isEqualTo(stats.promptTokens() + 50);
        assertThat(stats.rpmLimit()).isEqualTo(60);
        assertThat(stats.tpmLimit()).isEqualTo(200_000);
        assertThat(stats.perSecond()).isNotEmpty();
        assertThat(stats.perSecond().stream().mapToLong(SimulatorStats.Second::tokensAdmitted).sum())
                .isEqualTo(stats.tokensAdmitted());

        HttpResponse<String> json = http.send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + sim.port() + "/admin/stats")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(json.statusCode()).isEqualTo(200);
        SimulatorStats served = mapper.readValue(json.body(), SimulatorStats.class);
        assertThat(served.requestsByStatus()).isEqualTo(stats.requestsByStatus());
        assertThat(served.perSecond()).isEqualTo(stats.perSecond());
        assertThat(mapper.readTree(json.body()).path("requestsByStatus").path("429").asLong()).isEqualTo(1);

        HttpResponse<String> reset = http.send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + sim.port() + "/admin/reset")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(reset.statusCode()).isEqualTo(200);
        assertThat(sim.stats().totalRequests()).isZero();
        assertThat(post(body).statusCode()).isEqualTo(200); // buckets refilled
    }

    @Test
    void shouldAnswerConcurrentRequestsInParallel() throws Exception {
        start(SimulatorConfig.builder().baseLatencyMs(400).perCompletionTokenMs(0).latencyJitter(0));
        String body = mapper.writeValueAsString(request(List.of(ticket("T-1", "a", "b")), 50));
        long started = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            calls.add(http.sendAsync(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/chat/completions"))
                    .header("Authorization", "Bearer " + KEY).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            assertThat(call.get().statusCode()).isEqualTo(200);
        }
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;
        assertThat(elapsedMs).isBetween(400L, 2_000L); // serialized would take 12 × 400 ms
        assertThat(sim.stats().requestsWithStatus(200)).isEqualTo(12);
    }

    @Test
    void shouldServeTheModelList() throws Exception {
        start(fast());
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/models"))
                .header("Authorization", "Bearer " + KEY).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(mapper.readTree(response.body()).path("data").get(0).path("id").asText()).isEqualTo("gpt-4o-mini");
    }
}

package io.quotaflow.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.duration.GoDuration;
import io.quotaflow.tokens.TokenCounter;
import io.quotaflow.tokens.TokenCounter.ChatMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Provider shapes of the {@link ProviderSimulator} that may disagree with the client: its own
 * tokenizer, a context window, full-minute buckets and their starting level, and headers that
 * report the buckets as they are. The buckets run on an injected, frozen clock, so every header
 * value is exact.
 */
class ProviderSimulatorShapesTest {

    private static final String KEY = "sk-test-shapes";
    private static final String SYSTEM = "You classify customer support tickets.";
    /** 122 code points of Portuguese: BPE encodings disagree on it. */
    private static final String USER = "Fui cobrado duas vezes na fatura deste mês, quero o reembolso imediatamente. "
            + "Não consigo falar com ninguém do atendimento.";
    private static final List<ChatMessage> MESSAGES =
            List.of(new ChatMessage("system", SYSTEM), new ChatMessage("user", USER));

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

    private ProviderSimulator start(SimulatorConfig.Builder builder) {
        sim = ProviderSimulator.start(builder.port(0).apiKeys(Set.of(KEY)).noLatency().build(), clock::get);
        return sim;
    }

    private void advance(Duration d) {
        clock.addAndGet(d.toNanos());
    }

    /** A chat request of {@code messages} (role, content pairs) with max_tokens, or without when null. */
    private String body(Integer maxTokens, String... roleContent) throws Exception {
        ObjectNode req = mapper.createObjectNode();
        req.put("model", "gpt-4o-mini");
        if (maxTokens != null) {
            req.put("max_tokens", maxTokens);
        }
        ArrayNode messages = req.putArray("messages");
        for (int i = 0; i < roleContent.length; i += 2) {
            messages.addObject().put("role", roleContent[i]).put("content", roleContent[i + 1]);
        }
        return mapper.writeValueAsString(req);
    }

    private String standardBody(Integer maxTokens) throws Exception {
        return body(maxTokens, "system", SYSTEM, "user", USER);
    }

    /** With the chars tokenizer: a single user message whose prompt costs exactly {@code promptTokens}. */
    private String charsBody(int promptTokens, Integer maxTokens) throws Exception {
        int contentTokens = promptTokens - SimTokenizer.CHARS_PER_REPLY - SimTokenizer.CHARS_PER_MESSAGE;
        return body(maxTokens, "user", "x".repeat(contentTokens * SimTokenizer.CHARS_PER_TOKEN));
    }

    private HttpResponse<String> post(String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/chat/completions"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + KEY)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String header(HttpResponse<?> response, String name) {
        return response.headers().firstValue(name).orElseThrow(() -> new AssertionError("no " + name));
    }

    private static long longHeader(HttpResponse<?> response, String name) {
        return Long.parseLong(header(response, name));
    }

    /** The six x-ratelimit-* headers equal the given bucket state. */
    private static void assertBuckets(HttpResponse<?> response, long rpm, long tpm, long remainingRequests,
                                      long remainingTokens, Duration resetRequests, Duration resetTokens) {
        assertThat(longHeader(response, "x-ratelimit-limit-requests")).isEqualTo(rpm);
        assertThat(longHeader(response, "x-ratelimit-limit-tokens")).isEqualTo(tpm);
        assertThat(longHeader(response, "x-ratelimit-remaining-requests")).isEqualTo(remainingRequests);
        assertThat(longHeader(response, "x-ratelimit-remaining-tokens")).isEqualTo(remainingTokens);
        assertThat(header(response, "x-ratelimit-reset-requests")).isEqualTo(GoDuration.format(resetRequests));
        assertThat(header(response, "x-ratelimit-reset-tokens")).isEqualTo(GoDuration.format(resetTokens));
    }

    private int promptTokens(HttpResponse<String> response) throws Exception {
        return mapper.readTree(response.body()).path("usage").path("prompt_tokens").asInt();
    }

    @Test
    void shouldCountWithItsOwnTokenizerNotTheClients() throws Exception {
        // the client counts gpt-4o-mini with o200k_base; this provider uses cl100k_base
        int clients = TokenCounter.forModel("gpt-4o-mini").countChat(MESSAGES);
        assertThat(clients).isEqualTo(43);
        // 60 000 TPM over a 1 s burst: 1 000 tokens, so the second request of 555 is refused
        start(SimulatorConfig.builder().rpm(600).tpm(60_000).burstSeconds(1).tokenizer(SimTokenizer.CL100K_BASE));

        HttpResponse<String> first = post(standardBody(500));

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(promptTokens(first)).isEqualTo(55).isNotEqualTo(clients);
        assertThat(longHeader(first, "x-ratelimit-remaining-tokens")).isEqualTo(1_000 - 555);
        HttpResponse<String> limited = post(standardBody(500));
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(mapper.readTree(limited.body()).path("error").path("message").asText())
                .contains("Limit 60000, Used 59555, Requested 555.");
        SimulatorStats stats = sim.stats();
        assertThat(stats.tokenizer()).isEqualTo("cl100k_base");
        assertThat(stats.promptTokens()).isEqualTo(55);
        assertThat(stats.tokensAdmitted()).isEqualTo(555);
    }

    @Test
    void shouldCountTheModelsOwnEncodingByDefault() throws Exception {
        start(SimulatorConfig.builder());
        HttpResponse<String> response = post(standardBody(100));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(promptTokens(response)).isEqualTo(TokenCounter.forModel("gpt-4o-mini").countChat(MESSAGES))
                .isEqualTo(43);
        assertThat(sim.stats().tokenizer()).isEqualTo("o200k_base");
    }

    @Test
    void shouldCountCharsAsAQuarterOfTheCodePointsPlusAPerMessageOverhead() throws Exception {
        start(SimulatorConfig.builder().tokenizer("chars"));

        HttpResponse<String> response = post(standardBody(100));

        assertThat(response.statusCode()).isEqualTo(200);
        // 3 per prompt + (4 + ceil(38 / 4)) + (4 + ceil(122 / 4)) = 3 + 14 + 35
        assertThat(promptTokens(response)).isEqualTo(52);
        JsonNode completion = mapper.readTree(response.body());
        String content = completion.path("choices").get(0).path("message").path("content").asText();
        assertThat(completion.path("usage").path("completion_tokens").asInt())
                .isEqualTo((content.codePointCount(0, content.length()) + 3) / 4);
        assertThat(sim.stats().tokenizer()).isEqualTo("chars");
    }

    @Test
    void shouldRefuseARequestBeyondTheContextWindowWith400AndChargeNothing() throws Exception {
        // 60 000 TPM over a full minute: 1 000 tokens refill per second
        start(SimulatorConfig.builder().rpm(60).tpm(60_000).burstSeconds(60).contextTokens(8_192).tokenizer("chars"));

        HttpResponse<String> refused = post(charsBody(13_000, 500));

        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(mapper.readTree(refused.body())).isEqualTo(mapper.readTree("{\"error\":{\"message\":\"This model's "
                + "maximum context length is 8192 tokens. However, you requested 13500 tokens (13000 in the messages, "
                + "500 in the completion). Please reduce the length of the messages or completion.\","
                + "\"type\":\"invalid_request_error\",\"param\":\"messages\",\"code\":\"context_length_exceeded\"}}"));
        // the buckets are as full as they started: nothing was charged
        assertBuckets(refused, 60, 60_000, 60, 60_000, Duration.ZERO, Duration.ZERO);
        assertThat(refused.headers().firstValue("retry-after")).isEmpty();

        // exactly at the window is allowed, and the first charge starts from the full bucket
        HttpResponse<String> fits = post(charsBody(5_000, 3_192));
        assertThat(fits.statusCode()).isEqualTo(200);
        assertThat(promptTokens(fits)).isEqualTo(5_000);
        assertBuckets(fits, 60, 60_000, 59, 60_000 - 8_192, Duration.ofSeconds(1), Duration.ofMillis(8_192));

        SimulatorStats stats = sim.stats();
        assertThat(stats.contextLengthRefusals()).isEqualTo(1);
        assertThat(stats.contextRefusedTokens()).isEqualTo(13_500);
        assertThat(stats.contextTokens()).isEqualTo(8_192);
        assertThat(stats.requestsWithStatus(400)).isEqualTo(1);
        assertThat(stats.requestsAdmitted()).isEqualTo(1);
        assertThat(stats.tokensAdmitted()).isEqualTo(8_192);
        assertThat(stats.http429()).isZero();
    }

    @Test
    void shouldFitTheCompletionIntoTheWindowWhenMaxTokensIsAbsent() throws Exception {
        start(SimulatorConfig.builder().rpm(60).tpm(6_000).burstSeconds(60).contextTokens(1_000).tokenizer("chars"));

        HttpResponse<String> tooLong = post(charsBody(1_000, null));
        assertThat(tooLong.statusCode()).isEqualTo(400);
        JsonNode error = mapper.readTree(tooLong.body()).path("error");
        assertThat(error.path("message").asText()).isEqualTo("This model's maximum context length is 1000 tokens. "
                + "However, your messages resulted in 1000 tokens. Please reduce the length of the messages.");
        assertThat(error.path("code").asText()).isEqualTo("context_length_exceeded");
        assertThat(longHeader(tooLong, "x-ratelimit-remaining-tokens")).isEqualTo(6_000);

        // 400 prompt tokens leave 600 for the completion: the estimate charged is the whole window
        HttpResponse<String> admitted = post(charsBody(400, null));
        assertThat(admitted.statusCode()).isEqualTo(200);
        assertThat(longHeader(admitted, "x-ratelimit-remaining-tokens")).isEqualTo(5_000);
        assertThat(sim.stats().contextRefusedTokens()).isEqualTo(1_000 + SimulatorConfig.DEFAULT_MAX_TOKENS);
    }

    @Test
    void shouldStartAFullMinuteBucketFullAndSayItInTheHeaders() throws Exception {
        start(SimulatorConfig.builder().rpm(60).tpm(6_000).burstSeconds(60).tokenizer("chars"));

        HttpResponse<String> first = post(charsBody(100, 900));
        assertThat(first.statusCode()).isEqualTo(200);
        assertBuckets(first, 60, 6_000, 59, 5_000, Duration.ofSeconds(1), Duration.ofSeconds(10));

        // the whole minute is there at once: five more of 1 000 tokens, then the bucket is empty
        for (int i = 2; i <= 6; i++) {
            HttpResponse<String> next = post(charsBody(100, 900));
            assertThat(next.statusCode()).as("request %d", i).isEqualTo(200);
            assertBuckets(next, 60, 6_000, 60 - i, 6_000 - 1_000L * i, Duration.ofSeconds(i),
                    Duration.ofSeconds(10L * i));
        }
        HttpResponse<String> limited = post(charsBody(100, 900));
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(mapper.readTree(limited.body()).path("error").path("message").asText())
                .contains("Limit 6000, Used 6000, Requested 1000. Please try again in 10s.");
        assertBuckets(limited, 60, 6_000, 54, 0, Duration.ofSeconds(6), Duration.ofMinutes(1));
        assertThat(longHeader(limited, "retry-after")).isEqualTo(10);

        SimulatorStats stats = sim.stats();
        assertThat(stats.startLevel()).isEqualTo(1.0);
        assertThat(stats.burstSeconds()).isEqualTo(60.0);
        assertThat(stats.tokensAdmitted()).isEqualTo(6_000);
        assertThat(stats.admissibleTokens(0)).isEqualTo(6_000.0);
        assertThat(stats.admissibleTokens(30)).isEqualTo(9_000.0);
        assertThat(stats.admissibleRequests(60)).isEqualTo(120.0);
    }

    @Test
    void shouldStartEmptyWhenConfiguredSo() throws Exception {
        start(SimulatorConfig.builder().rpm(60).tpm(6_000).burstSeconds(60).startFull(false).tokenizer("chars"));

        HttpResponse<String> first = post(charsBody(100, 900));
        assertThat(first.statusCode()).isEqualTo(429);
        assertBuckets(first, 60, 6_000, 0, 0, Duration.ofMinutes(1), Duration.ofMinutes(1));
        // 1 000 tokens at 100 per second
        assertThat(longHeader(first, "retry-after-ms")).isEqualTo(10_000);

        advance(Duration.ofSeconds(10));
        HttpResponse<String> second = post(charsBody(100, 900));
        assertThat(second.statusCode()).isEqualTo(200);
        assertBuckets(second, 60, 6_000, 9, 0, Duration.ofSeconds(51), Duration.ofMinutes(1));
        assertThat(sim.stats().startLevel()).isZero();
        assertThat(sim.stats().admissibleTokens(10)).isEqualTo(1_000.0);
    }

    @Test
    void shouldReportTheRealBucketsOn200And429And400() throws Exception {
        // 6 000 TPM and 60 RPM over a 30 s burst: capacities 3 000 tokens and 30 requests,
        // refilled at 100 tokens and 1 request per second
        start(SimulatorConfig.builder().rpm(60).tpm(6_000).burstSeconds(30).contextTokens(4_000).tokenizer("chars"));

        HttpResponse<String> ok = post(charsBody(100, 900));
        assertThat(ok.statusCode()).isEqualTo(200);
        assertBuckets(ok, 60, 6_000, 29, 2_000, Duration.ofSeconds(1), Duration.ofSeconds(10));

        HttpResponse<String> context = post(charsBody(3_500, 600));
        assertThat(context.statusCode()).isEqualTo(400);
        assertBuckets(context, 60, 6_000, 29, 2_000, Duration.ofSeconds(1), Duration.ofSeconds(10));

        HttpResponse<String> invalid = post(body(0, "user", "x"));
        assertThat(invalid.statusCode()).isEqualTo(400);
        assertBuckets(invalid, 60, 6_000, 29, 2_000, Duration.ofSeconds(1), Duration.ofSeconds(10));

        HttpResponse<String> limited = post(charsBody(500, 2_000));
        assertThat(limited.statusCode()).isEqualTo(429);
        assertBuckets(limited, 60, 6_000, 29, 2_000, Duration.ofSeconds(1), Duration.ofSeconds(10));
        assertThat(mapper.readTree(limited.body()).path("error").path("message").asText())
                .contains("Used 4000, Requested 2500. Please try again in 5s.");

        // the 429 took nothing either: after its 5 s the same request is admitted from 2 500 tokens
        advance(Duration.ofSeconds(5));
        HttpResponse<String> later = post(charsBody(500, 2_000));
        assertThat(later.statusCode()).isEqualTo(200);
        // the request bucket refilled to its capacity of 30 meanwhile
        assertBuckets(later, 60, 6_000, 29, 0, Duration.ofSeconds(1), Duration.ofSeconds(30));

        SimulatorStats stats = sim.stats();
        assertThat(stats.requestsByStatus()).containsEntry("200", 2L).containsEntry("400", 2L).containsEntry("429", 1L);
        assertThat(stats.requestsAdmitted()).isEqualTo(2);
        assertThat(stats.tokensAdmitted()).isEqualTo(3_500);
        assertThat(stats.contextLengthRefusals()).isEqualTo(1);
        assertThat(stats.contextRefusedTokens()).isEqualTo(4_100);
    }

    @Test
    void shouldCountARequestTooLargeForTheMinuteAndChargeNothing() throws Exception {
        start(SimulatorConfig.builder().rpm(60).tpm(6_000).burstSeconds(60).tokenizer("chars"));

        HttpResponse<String> tooLarge = post(charsBody(1_000, 5_001));

        assertThat(tooLarge.statusCode()).isEqualTo(429);
        assertThat(mapper.readTree(tooLarge.body()).path("error").path("message").asText())
                .startsWith("Request too large for gpt-4o-mini in organization org-sim on tokens per min (TPM): "
                        + "Limit 6000, Requested 6001.");
        assertBuckets(tooLarge, 60, 6_000, 60, 6_000, Duration.ZERO, Duration.ZERO);
        SimulatorStats stats = sim.stats();
        assertThat(stats.tooLargeRefusals()).isEqualTo(1);
        assertThat(stats.http429()).isEqualTo(1);
        assertThat(stats.tokensAdmitted()).isZero();
    }

    @Test
    void shouldServeTheShapeInTheStatsJson() throws Exception {
        start(SimulatorConfig.builder().burstSeconds(60).contextTokens(8_192).tokenizer("cl100k_base").startFull(false));
        HttpResponse<String> json = http.send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + sim.port() + "/admin/stats")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode stats = mapper.readTree(json.body());
        assertThat(stats.path("tokenizer").asText()).isEqualTo("cl100k_base");
        assertThat(stats.path("contextTokens").asLong()).isEqualTo(8_192);
        assertThat(stats.path("burstSeconds").asDouble()).isEqualTo(60.0);
        assertThat(stats.path("startLevel").asDouble()).isZero();
        assertThat(stats.path("contextLengthRefusals").asLong()).isZero();
        assertThat(stats.path("tooLargeRefusals").asLong()).isZero();
        SimulatorStats read = mapper.readValue(json.body(), SimulatorStats.class);
        assertThat(read.tokenizer()).isEqualTo("cl100k_base");
        assertThat(read.contextTokens()).isEqualTo(8_192);
        assertThat(read.startLevel()).isZero();
    }
}

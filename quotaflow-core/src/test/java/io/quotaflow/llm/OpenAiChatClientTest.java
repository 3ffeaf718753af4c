package io.quotaflow.llm;

import io.quotaflow.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class OpenAiChatClientTest {

    private final OpenAiChatClient client = new OpenAiChatClient(Fixtures.model());
    private final ModelRequest request = new ModelRequest("b1",
            new PromptBuilder(Fixtures.model()).build(List.of(new ModelItem("T-1", "s", "b")), 50));

    private static HttpHeaders headers(Map<String, List<String>> map) {
        return HttpHeaders.of(map, (a, b) -> true);
    }

    @Test
    void shouldTurnARateLimit429IntoACooldownHint() {
        ModelOutcome outcome = client.interpret(429, headers(Map.of("retry-after-ms", List.of("1280"), "x-ratelimit-remaining-tokens", List.of("12"))),
                "{\"error\":{\"message\":\"Rate limit reached for gpt-4o-mini on tokens per min (TPM): Limit 200000, Used 199100, Requested 1450. Please try again in 1.28s.\",\"type\":\"tokens\",\"code\":\"rate_limit_exceeded\"}}",
                request, 7);
        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.RateLimited.class, r -> {
            assertThat(r.retryAfter()).contains(Duration.ofMillis(1280));
            assertThat(r.used()).contains(199_100L);
            assertThat(r.requested()).contains(1_450L);
            assertThat(r.rateLimits().remainingTokens().getAsLong()).isEqualTo(12);
        });
    }

    @Test
    void shouldSplitARequestLargerThanTheWholeLimit() {
        ModelOutcome outcome = client.interpret(429, headers(Map.of()),
                "{\"error\":{\"message\":\"Request too large for gpt-4o-mini on tokens per min (TPM): Limit 30000, Requested 41000.\",\"type\":\"tokens\",\"code\":\"rate_limit_exceeded\"}}",
                request, 1);
        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class,
                f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.CONTEXT_LENGTH));
    }

    @Test
    void shouldHaltOnInsufficientQuotaAndAuthErrors() {
        ModelOutcome quota = client.interpret(429, headers(Map.of()),
                "{\"error\":{\"message\":\"You exceeded your current quota\",\"type\":\"insufficient_quota\",\"code\":\"insufficient_quota\"}}", request, 1);
        assertThat(quota).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT));
        for (int status : new int[] {401, 403, 404}) {
            assertThat(client.interpret(status, headers(Map.of()), "{}", request, 1))
                    .isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT));
        }
    }

    @Test
    void shouldClassifyTransientContextAndOtherErrors() {
        for (int status : new int[] {408, 500, 502, 503, 529}) {
            assertThat(client.interpret(status, headers(Map.of()), "oops", request, 1))
                    .isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.TRANSIENT));
        }
        assertThat(client.interpret(400, headers(Map.of()),
                "{\"error\":{\"message\":\"This model's maximum context length is 128000 tokens\",\"code\":\"context_length_exceeded\"}}", request, 1))
                .isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.CONTEXT_LENGTH));
        assertThat(client.interpret(422, headers(Map.of()), "{\"error\":{\"message\":\"bad\"}}", request, 1))
                .isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.NON_RETRYABLE));
    }

    @Test
    void shouldNeverKeepTheApiKeyInAMessage() {
        ModelOutcome outcome = client.interpret(401, headers(Map.of()),
                "{\"error\":{\"message\":\"Incorrect API key provided: " + Fixtures.API_KEY + ".\"}}", request, 1);
        assertThat(((ModelOutcome.Failed) outcome).message()).doesNotContain(Fixtures.API_KEY).contains("***");
    }

    @Test
    void shouldValidateA200AnswerAgainstTheBatch() {
        String body = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"{\\\"results\\\":[{\\\"id\\\":\\\"1\\\",\\\"category\\\":\\\"billing\\\",\\\"urgency\\\":\\\"high\\\"}]}\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":120,\"completion_tokens\":18}}";
        ModelOutcome outcome = client.interpret(200, headers(Map.of()), body, request, 33);
        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Answered.class, a -> {
            assertThat(a.labels()).containsEntry("T-1", new ModelOutcome.Label("billing", "high"));
            assertThat(a.promptTokens()).isEqualTo(120);
            assertThat(a.completionTokens()).isEqualTo(18);
            assertThat(a.latencyMs()).isEqualTo(33);
            assertThat(a.truncated()).isFalse();
        });
    }

    private static String answer(String content) {
        return "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(content)
                + "},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":120,\"completion_tokens\":40}}";
    }

    private static ModelRequest batch(String... keys) {
        return new ModelRequest("b2", new PromptBuilder(Fixtures.model())
                .build(java.util.Arrays.stream(keys).map(k -> new ModelItem(k, "s", "b")).toList(), 80));
    }

    @Test
    void shouldMapShortIdsBackToTicketKeys() {
        ModelRequest two = batch("hooli:T-7", "initech:T-7");
        assertThat(two.prompt().wireIds()).containsExactly("1", "2");
        assertThat(two.prompt().body().toString()).contains("\\\"id\\\":\\\"1\\\"").doesNotContain("hooli");

        ModelOutcome outcome = client.interpret(200, headers(Map.of()), answer("{\"results\":["
                + "{\"id\":\"2\",\"category\":\"billing\",\"urgency\":\"high\"},"
                + "{\"id\":\"1\",\"category\":\"shipping\",\"urgency\":\"low\"}]}"), two, 5);

        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Answered.class, a -> {
            assertThat(a.labels()).containsOnly(Map.entry("hooli:T-7", new ModelOutcome.Label("shipping", "low")),
                    Map.entry("initech:T-7", new ModelOutcome.Label("billing", "high")));
            assertThat(a.invalid()).isEmpty();
        });
    }

    @Test
    void shouldRejectUnknownAndDuplicateShortIdsAsBefore() {
        ModelRequest three = batch("hooli:T-1", "hooli:T-2", "hooli:T-3");

        ModelOutcome outcome = client.interpret(200, headers(Map.of()), answer("{\"results\":["
                + "{\"id\":\"1\",\"category\":\"billing\",\"urgency\":\"high\"},"
                + "{\"id\":\"2\",\"category\":\"billing\",\"urgency\":\"high\"},"
                + "{\"id\":\"2\",\"category\":\"account\",\"urgency\":\"low\"},"
                + "{\"id\":\"4\",\"category\":\"account\",\"urgency\":\"low\"},"
                + "{\"id\":\"hooli:T-3\",\"category\":\"account\",\"urgency\":\"low\"}]}"), three, 5);

        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Answered.class, a -> {
            assertThat(a.labels()).containsOnlyKeys("hooli:T-1");
            assertThat(a.invalid()).containsEntry("hooli:T-2", "answered more than once")
                    .containsEntry("hooli:T-3", "missing from the answer").hasSize(2);
        });
    }

    @Test
    void shouldClassifyTheTicketsACutAnswerCompletedAndAskAgainOnlyForTheRest() {
        ModelRequest three = batch("hooli:T-1", "hooli:T-2", "hooli:T-3");
        String cut = "{\"results\":[{\"id\":\"1\",\"category\":\"billing\",\"urgency\":\"high\"},"
                + "{\"id\":\"2\",\"category\":\"account\",\"urgency\":\"low\"},{\"id\":\"3\",\"categ";

        ModelOutcome lengthCut = client.interpret(200, headers(Map.of()), answer(cut).replace("\"stop\"", "\"length\""), three, 5);
        ModelOutcome stopped = client.interpret(200, headers(Map.of()), answer(cut), three, 5);

        assertThat(lengthCut).isInstanceOfSatisfying(ModelOutcome.Answered.class, a -> {
            assertThat(a.truncated()).isTrue();
            assertThat(a.labels()).containsOnly(Map.entry("hooli:T-1", new ModelOutcome.Label("billing", "high")),
                    Map.entry("hooli:T-2", new ModelOutcome.Label("account", "low")));
            assertThat(a.invalid()).containsOnlyKeys("hooli:T-3");
        });
        assertThat(stopped).as("the same text ending with finish_reason=stop is malformed, not cut")
                .isInstanceOfSatisfying(ModelOutcome.Answered.class, a -> assertThat(a.labels()).isEmpty());
    }

    private static final String CANARY = "sk-LEAKCANARY0123456789abcdef2345";

    private static OpenAiChatClient clientWithKey(java.net.URI baseUrl) {
        return new OpenAiChatClient(io.quotaflow.settings.ModelSettings.of(baseUrl, "gpt-4o-mini",
                io.quotaflow.settings.Secret.of(CANARY)));
    }

    private static void assertNoCanary(String message) {
        String lower = message.toLowerCase(java.util.Locale.ROOT);
        assertThat(lower).doesNotContain("leakcanary").doesNotContain("leakc").doesNotContain("abcdef2345")
                .doesNotContain("0123456789");
    }

    @Test
    void shouldRedactAKeyEchoedLowerCasedOrMaskedInA401() {
        try (OpenAiChatClient keyed = clientWithKey(java.net.URI.create("http://localhost:1/v1"))) {
            for (String echoed : new String[] {CANARY.toLowerCase(java.util.Locale.ROOT), CANARY.toUpperCase(java.util.Locale.ROOT),
                    "sk-LEAKC********2345", "sk-LEAKCANARY0123456789", "*****************ef2345"}) {
                ModelOutcome outcome = keyed.interpret(401, headers(Map.of()),
                        "{\"error\":{\"message\":\"Incorrect API key provided: " + echoed
                                + ". You can find your API key at https://platform.openai.com/account/api-keys.\","
                                + "\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}", request, 1);
                assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> {
                    assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT);
                    assertNoCanary(f.message());
                    assertThat(f.message()).startsWith("Incorrect API key provided: ***")
                            .endsWith("https://platform.openai.com/account/api-keys.");
                });
            }
        }
    }

    @Test
    void shouldRedactAKeyInAnUnparsableBodyAndAnyKeyShapedToken() {
        ModelOutcome outcome = client.interpret(401, headers(Map.of()),
                "<html>bad key " + Fixtures.API_KEY.toUpperCase(java.util.Locale.ROOT) + " and sk-proj-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2</html>",
                request, 1);
        assertThat(((ModelOutcome.Failed) outcome).message()).isEqualTo("<html>bad key *** and sk-proj-***</html>");
    }

    @Test
    void shouldKeepARateLimitMessageAndItsNumbersUnchanged() {
        String message = "Rate limit reached for gpt-4o-mini in organization org-abc on tokens per min (TPM): Limit 30000, "
                + "Used 29000, Requested 1500. Please try again in 2.5s.";
        try (OpenAiChatClient keyed = clientWithKey(java.net.URI.create("http://localhost:1/v1"))) {
            ModelOutcome outcome = keyed.interpret(429, headers(Map.of()),
                    "{\"error\":{\"message\":\"" + message + "\",\"type\":\"tokens\",\"code\":\"rate_limit_exceeded\"}}",
                    request, 1);
            assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.RateLimited.class, r -> {
                assertThat(r.message()).isEqualTo(message);
                assertThat(r.used()).contains(29_000L);
                assertThat(r.requested()).contains(1_500L);
                assertThat(r.retryAfter()).contains(Duration.ofMillis(2500));
            });
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {301, 302, 303, 307, 308})
    void shouldHaltOnARedirectNamingItsLocation(int status) {
        ModelOutcome outcome = client.interpret(status, headers(Map.of("Location", List.of("https://api.example.com/v1/chat/completions"))),
                "", request, 1);
        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> {
            assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT);
            assertThat(f.status()).isEqualTo(status);
            assertThat(f.message()).startsWith("the base URL redirects to https://api.example.com/v1/chat/completions")
                    .contains("llm.base-url");
        });
    }

    @Test
    void shouldHaltOnARedirectWithoutLocationSayingSo() {
        ModelOutcome outcome = client.interpret(302, headers(Map.of()), "<html>Found</html>", request, 1);
        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> {
            assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT);
            assertThat(f.message()).contains("the base URL redirects").contains("without a Location header");
        });
    }

    @Test
    void shouldRedactTheLocationOfARedirect() {
        try (OpenAiChatClient keyed = clientWithKey(java.net.URI.create("http://localhost:1/v1"))) {
            ModelOutcome outcome = keyed.interpret(307, headers(Map.of("Location",
                    List.of("https://login.example.com/auth?api_key=" + CANARY.toLowerCase(java.util.Locale.ROOT) + "&next=/v1"))), "", request, 1);
            assertThat(((ModelOutcome.Failed) outcome).message())
                    .startsWith("the base URL redirects to https://login.example.com/auth?api_key=***&next=/v1");
            assertNoCanary(((ModelOutcome.Failed) outcome).message());
        }
    }

    @Test
    void shouldNotFollowARedirectOverHttpAndHalt() throws Exception {
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        java.util.concurrent.atomic.AtomicInteger followed = new java.util.concurrent.atomic.AtomicInteger();
        server.createContext("/v1/chat/completions", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Location", "http://localhost:" + server.getAddress().getPort() + "/elsewhere");
            exchange.sendResponseHeaders(308, -1);
            exchange.close();
        });
        server.createContext("/elsewhere", exchange -> {
            followed.incrementAndGet();
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        server.start();
        try (OpenAiChatClient http = clientWithKey(java.net.URI.create("http://localhost:" + server.getAddress().getPort() + "/v1"))) {
            ModelOutcome outcome = http.classify(request).toCompletableFuture().get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> {
                assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT);
                assertThat(f.status()).isEqualTo(308);
                assertThat(f.message()).startsWith("the base URL redirects to http://localhost:" + server.getAddress().getPort() + "/elsewhere");
            });
            assertThat(followed).hasValue(0);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void shouldNameARefusedConnectionAsTheTransportCause() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        try (OpenAiChatClient dead = clientWithKey(java.net.URI.create("http://127.0.0.1:" + port + "/v1"))) {
            ModelOutcome outcome = dead.classify(request).toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);

            assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> {
                assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.TRANSIENT);
                assertThat(f.status()).isZero();
                assertThat(f.transport()).isEqualTo(TransportCause.CONNECTION_REFUSED);
                assertThat(f.message()).isEqualTo("connection error: connection refused");
            });
        }
    }

    @Test
    void shouldTellAnEnginesOverloadFromAQuota429() {
        // TGI's answer beyond its concurrency: a 429 without any rate-limit header
        ModelOutcome overloaded = client.interpret(429, headers(Map.of()),
                "{\"error\":\"Model is overloaded\",\"error_type\":\"overloaded\"}", request, 3);
        assertThat(overloaded).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> {
            assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.OVERLOADED);
            assertThat(f.status()).isEqualTo(429);
        });
        // the same words with a provider's rate-limit headers are that provider's rate limit
        ModelOutcome withHeaders = client.interpret(429, headers(Map.of("x-ratelimit-remaining-requests", List.of("0"))),
                "{\"error\":\"Model is overloaded\",\"error_type\":\"overloaded\"}", request, 3);
        assertThat(withHeaders).isInstanceOf(ModelOutcome.RateLimited.class);
        // a headerless 429 that does not say so stays a rate limit
        assertThat(client.interpret(429, headers(Map.of()), "{\"error\":{\"message\":\"Too many requests\"}}", request, 3))
                .isInstanceOf(ModelOutcome.RateLimited.class);
    }

    @Test
    void shouldEndACallWhoseBodyStallsAfterItsHeadersAsATimeoutWithinTheDeadline() throws Exception {
        String answer = answer("{\"results\":[{\"id\":\"1\",\"category\":\"billing\",\"urgency\":\"high\"}]}");
        byte[] half = answer.substring(0, answer.length() / 2).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (io.quotaflow.http.RawHttpServer server = new io.quotaflow.http.RawHttpServer(out -> {
            out.write(io.quotaflow.http.RawHttpServer.okHeaders(answer.length()));
            out.write(half);
            out.flush();
        });
             OpenAiChatClient stalled = new OpenAiChatClient(io.quotaflow.settings.ModelSettings.of(server.uri("/v1"), "gpt-4o-mini",
                     io.quotaflow.settings.Secret.of(CANARY)).withTimeout(Duration.ofMillis(500)))) {
            long start = System.nanoTime();
            ModelOutcome outcome = stalled.classify(request).toCompletableFuture().get(10, java.util.concurrent.TimeUnit.SECONDS);
            long tookMs = (System.nanoTime() - start) / 1_000_000;

            assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> {
                assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.TIMEOUT);
                assertThat(f.status()).isZero();
                assertThat(f.transport()).isEqualTo(TransportCause.TIMEOUT);
                assertThat(f.message()).isEqualTo("timeout after 500 ms");
            });
            assertThat(tookMs).isBetween(400L, 3_000L);
            assertThat(server.awaitClosedByClient(5_000)).as("the stalled connection is closed").isTrue();
        }
    }

    @Test
    void shouldFailAnAnswerOverTheCapAsTransientNamingOnlyTheCap() throws Exception {
        byte[] chunk = ("\"" + CANARY + "\",").repeat(2_000).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (io.quotaflow.http.RawHttpServer server = new io.quotaflow.http.RawHttpServer(out -> {
            out.write(io.quotaflow.http.RawHttpServer.okHeaders(1L << 40));
            for (long sent = 0; sent <= 2 * OpenAiChatClient.MAX_ANSWER_BYTES; sent += chunk.length) {
                out.write(chunk);
            }
        });
             OpenAiChatClient keyed = clientWithKey(server.uri("/v1"))) {
            ModelOutcome outcome = keyed.classify(request).toCompletableFuture().get(20, java.util.concurrent.TimeUnit.SECONDS);

            assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> {
                assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.TRANSIENT);
                assertThat(f.status()).isEqualTo(200);
                assertThat(f.message()).isEqualTo("answer not read: larger than 4194304 bytes (HTTP 200)");
                assertNoCanary(f.message());
            });
            assertThat(server.awaitClosedByClient(5_000)).isTrue();
        }
    }
}

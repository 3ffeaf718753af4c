package io.quotaflow.model;

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
        String body = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"{\\\"results\\\":[{\\\"id\\\":\\\"T-1\\\",\\\"category\\\":\\\"billing\\\",\\\"urgency\\\":\\\"high\\\"}]}\"},\"finish_reason\":\"stop\"}],"
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
}

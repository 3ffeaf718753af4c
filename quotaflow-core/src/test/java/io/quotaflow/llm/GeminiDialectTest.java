package io.quotaflow.llm;

import io.quotaflow.records.Json;
import io.quotaflow.settings.Dialect;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Gemini's 429s (RetryInfo, per-day QuotaFailure), key errors and usage, from recorded answers (src/test/resources/dialects). */
class GeminiDialectTest {

    private final ProviderDialect gemini = ProviderDialect.of(Dialect.GEMINI);

    @Test
    void shouldWaitTheRetryDelayOfAPerMinuteQuota() {
        Recorded answer = Recorded.load("gemini-429-retry-delay.json");

        assertThat(answer.limits(gemini).isEmpty()).as("Gemini sends no rate-limit headers").isTrue();
        assertThat(answer.outcome(gemini)).isInstanceOfSatisfying(ModelOutcome.RateLimited.class, r -> {
            assertThat(r.retryAfter()).contains(Duration.ofSeconds(53));
            assertThat(r.perDay()).isFalse();
        });
        // read as OpenAI, "exceeded your current quota ... billing" would halt the route
        assertThat(answer.outcome(ProviderDialect.of(Dialect.OPENAI))).isInstanceOfSatisfying(ModelOutcome.Failed.class,
                f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT));
    }

    @Test
    void shouldEndTheDayOnAPerDayQuota() {
        assertThat(Recorded.load("gemini-429-per-day.json").outcome(gemini)).isInstanceOfSatisfying(ModelOutcome.RateLimited.class,
                r -> assertThat(r.perDay()).isTrue());
    }

    @Test
    void shouldEndTheDayWhenAnyViolationIsPerDay() {
        assertThat(Recorded.load("gemini-429-mixed.json").outcome(gemini)).isInstanceOfSatisfying(ModelOutcome.RateLimited.class, r -> {
            assertThat(r.perDay()).isTrue();
            assertThat(r.retryAfter()).isEmpty();
        });
    }

    @Test
    void shouldReadFractionalRetryDelaysAndTheMessageWhenDetailsLackOne() throws Exception {
        assertThat(GeminiDialect.retryDelay(Json.MAPPER.readTree("{\"details\":[{\"@type\":\"" + GeminiDialect.RETRY_INFO
                + "\",\"retryDelay\":\"1.5s\"}]}"))).contains(Duration.ofMillis(1_500));
        ModelOutcome outcome = gemini.error(new ErrorAnswer(429, io.quotaflow.quota.RateLimitInfo.EMPTY,
                "{\"error\":{\"code\":429,\"message\":\"Quota exceeded. Please retry in 2.5s.\",\"status\":\"RESOURCE_EXHAUSTED\"}}", 1, m -> m));
        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.RateLimited.class, r -> assertThat(r.retryAfter()).contains(Duration.ofMillis(2_500)));
    }

    @Test
    void shouldHaltOnAnInvalidKeyInsteadOfDeadLetteringEveryTicket() {
        Recorded answer = Recorded.load("gemini-400-key-invalid.json");

        assertThat(answer.outcome(gemini)).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> {
            assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT);
            assertThat(f.message()).startsWith("API key not valid");
        });
        assertThat(answer.outcome(ProviderDialect.of(Dialect.OPENAI))).isInstanceOfSatisfying(ModelOutcome.Failed.class,
                f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.NON_RETRYABLE));
    }

    @Test
    void shouldReadUsageFromTheCompatibleOrTheNativeShape() throws Exception {
        assertThat(gemini.usage(Json.MAPPER.readTree("{\"usage\":{\"prompt_tokens\":90,\"completion_tokens\":9}}")))
                .isEqualTo(new ProviderDialect.Usage(90, 9));
        assertThat(gemini.usage(Json.MAPPER.readTree("{\"usageMetadata\":{\"promptTokenCount\":91,\"candidatesTokenCount\":8}}")))
                .isEqualTo(new ProviderDialect.Usage(91, 8));
    }
}

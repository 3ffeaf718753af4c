package io.quotaflow.llm;

import io.quotaflow.quota.QuotaDimension;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.records.Json;
import io.quotaflow.settings.Dialect;
import io.quotaflow.settings.Secret;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Anthropic's headers, error taxonomy and usage, from recorded answers (src/test/resources/dialects). */
class AnthropicDialectTest {

    private final ProviderDialect anthropic = ProviderDialect.of(Dialect.ANTHROPIC);

    @Test
    void shouldSendTheKeyAsABearerTokenToTheCompatibleEndpoint() {
        assertThat(anthropic.credentials(Secret.of("sk-ant-0123456789"))).containsExactly(Map.entry("Authorization", "Bearer sk-ant-0123456789"));
    }

    @Test
    void shouldReadTheAnthropicRateLimitHeadersWithTheirRfc3339Resets() {
        RateLimitInfo limits = Recorded.load("anthropic-429-rate-limit.json").limits(anthropic);

        assertThat(limits.limitRequests()).hasValue(50);
        assertThat(limits.remainingRequests()).hasValue(49);
        assertThat(limits.resetRequests()).contains(Duration.ofSeconds(1));
        assertThat(limits.limitTokens()).hasValue(48_000);
        assertThat(limits.remainingTokens()).hasValue(0);
        assertThat(limits.resetTokens()).contains(Duration.ofSeconds(12));
        assertThat(limits.limit(QuotaDimension.INPUT_TOKENS)).hasValue(40_000);
        assertThat(limits.remaining(QuotaDimension.INPUT_TOKENS)).hasValue(0);
        assertThat(limits.remaining(QuotaDimension.OUTPUT_TOKENS)).hasValue(8_000);
        assertThat(limits.retryAfter()).contains(Duration.ofSeconds(12));
    }

    @Test
    void shouldWaitRetryAfterOnARateLimit() {
        ModelOutcome outcome = Recorded.load("anthropic-429-rate-limit.json").outcome(anthropic);

        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.RateLimited.class, r -> {
            assertThat(r.retryAfter()).contains(Duration.ofSeconds(12));
            assertThat(r.perDay()).isFalse();
        });
    }

    @Test
    void shouldHaltOnTheSpendLimitInsteadOfRetrying() {
        ModelOutcome outcome = Recorded.load("anthropic-429-spend-limit.json").outcome(anthropic);

        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> {
            assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT);
            assertThat(f.status()).isEqualTo(429);
        });
        // read as OpenAI, the same answer would be a rate limit retried for ever
        assertThat(Recorded.load("anthropic-429-spend-limit.json").outcome(ProviderDialect.of(Dialect.OPENAI)))
                .isInstanceOf(ModelOutcome.RateLimited.class);
    }

    @Test
    void shouldHaltOnALowCreditBalanceRatherThanDeadLetter() {
        ModelOutcome outcome = Recorded.load("anthropic-400-credit-balance.json").outcome(anthropic);

        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class,
                f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT));
        assertThat(Recorded.load("anthropic-400-credit-balance.json").outcome(ProviderDialect.of(Dialect.OPENAI)))
                .isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.NON_RETRYABLE));
    }

    @Test
    void shouldHaltOnA429ThatSpeaksOfTheSpendLimitWithoutItsCode() {
        ModelOutcome outcome = anthropic.error(new ErrorAnswer(429, RateLimitInfo.EMPTY, "{\"type\":\"error\",\"error\":{\"type\":"
                + "\"rate_limit_error\",\"message\":\"You have reached your specified API usage limits (spend limit).\"}}", 1, m -> m));

        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class,
                f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT));
    }

    @Test
    void shouldRetryAnOverloadAsTheProvidersNotACooldownOfOurQuota() {
        ModelOutcome outcome = Recorded.load("anthropic-529-overloaded.json").outcome(anthropic);

        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> {
            assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.TRANSIENT);
            assertThat(f.status()).isEqualTo(529);
        });
    }

    @Test
    void shouldReadUsageInEitherShape() throws Exception {
        assertThat(anthropic.usage(Json.MAPPER.readTree("{\"usage\":{\"prompt_tokens\":812,\"completion_tokens\":40}}")))
                .isEqualTo(new ProviderDialect.Usage(812, 40));
        assertThat(anthropic.usage(Json.MAPPER.readTree("{\"usage\":{\"input_tokens\":700,\"cache_creation_input_tokens\":100,"
                + "\"cache_read_input_tokens\":5000,\"output_tokens\":41}}"))).isEqualTo(new ProviderDialect.Usage(800, 41));
    }
}

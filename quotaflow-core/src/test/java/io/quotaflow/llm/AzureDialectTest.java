package io.quotaflow.llm;

import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.settings.Dialect;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Secret;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Azure OpenAI's URL, credentials, headers and 429s, from recorded answers (src/test/resources/dialects). */
class AzureDialectTest {

    private final ProviderDialect azure = ProviderDialect.of(Dialect.AZURE);

    private static ModelSettings settings(String deployment, String version) {
        return ModelSettings.of(URI.create("https://contoso.openai.azure.com/"), "gpt-4o-mini", Secret.of("azure-key-0123456789"))
                .withDialect(Dialect.AZURE, version, deployment);
    }

    @Test
    void shouldCallTheDeploymentWithItsApiVersionAndTheKeyInApiKey() {
        assertThat(azure.chatUri(settings("tickets-4o", "2024-06-01"))).hasToString(
                "https://contoso.openai.azure.com/openai/deployments/tickets-4o/chat/completions?api-version=2024-06-01");
        assertThat(azure.credentials(Secret.of("azure-key-0123456789"))).containsExactly(java.util.Map.entry("api-key", "azure-key-0123456789"));
    }

    @Test
    void shouldDefaultTheDeploymentToTheModelAndTheApiVersionToTheLatestGa() {
        assertThat(azure.chatUri(settings(null, null))).hasToString("https://contoso.openai.azure.com/openai/deployments/gpt-4o-mini/"
                + "chat/completions?api-version=" + Dialect.DEFAULT_AZURE_API_VERSION);
        assertThat(azure.modelsUri(settings(null, null))).hasToString("https://contoso.openai.azure.com/openai/models?api-version="
                + Dialect.DEFAULT_AZURE_API_VERSION);
    }

    @Test
    void shouldReadTheRemainingRequestsAndTokensOfAnAnswer() {
        RateLimitInfo limits = Recorded.load("azure-200-headers.json").limits(azure);

        assertThat(limits.remainingRequests()).hasValue(4);
        assertThat(limits.remainingTokens()).hasValue(79_868);
        assertThat(limits.retryAfter()).isEmpty();
    }

    @Test
    void shouldWaitRetryAfterMsOnATokenRateLimit() {
        ModelOutcome outcome = Recorded.load("azure-429-token-rate.json").outcome(azure);

        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.RateLimited.class, r -> {
            assertThat(r.retryAfter()).contains(Duration.ofMillis(37_000));
            assertThat(r.perDay()).isFalse();
            assertThat(r.rateLimits().remainingTokens()).hasValue(0);
        });
    }

    @Test
    void shouldWaitTheSecondsItsMessageNamesWithoutHeaders() {
        ModelOutcome outcome = Recorded.load("azure-429-body-only.json").outcome(azure);

        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.RateLimited.class,
                r -> assertThat(r.retryAfter()).contains(Duration.ofSeconds(4)));
        // the OpenAI dialect cannot read Azure's wording: it would wait the default cooldown instead
        assertThat(Recorded.load("azure-429-body-only.json").outcome(ProviderDialect.of(Dialect.OPENAI)))
                .isInstanceOfSatisfying(ModelOutcome.RateLimited.class, r -> assertThat(r.retryAfter()).isEmpty());
    }

    @Test
    void shouldNeverKeepTheKeyAProviderEchoesThroughTheClient() {
        String key = "azure-key-0123456789abcdef";
        ModelSettings settings = ModelSettings.of(URI.create("https://contoso.openai.azure.com"), "gpt-4o-mini", Secret.of(key))
                .withDialect(Dialect.AZURE, null, null);
        try (OpenAiChatClient client = new OpenAiChatClient(settings)) {
            ModelRequest request = new ModelRequest("b1", new PromptBuilder(settings).build(java.util.List.of(new ModelItem("T-1", "s", "b")), 50));
            ModelOutcome outcome = client.interpret(401, java.net.http.HttpHeaders.of(java.util.Map.of(), (a, b) -> true),
                    "{\"error\":{\"code\":\"401\",\"message\":\"Access denied due to invalid subscription key " + key
                            + " or wrong API endpoint.\"}}", request, 3);

            assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> {
                assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT);
                assertThat(f.message()).contains("Access denied").doesNotContain(key).doesNotContain("0123456789abcdef");
            });
        }
    }

    @Test
    void shouldHaltOnAMissingDeployment() {
        ModelOutcome outcome = azure.error(new ErrorAnswer(404, RateLimitInfo.EMPTY, "{\"error\":{\"code\":\"DeploymentNotFound\","
                + "\"message\":\"The API deployment for this resource does not exist.\"}}", 5, m -> m));

        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT));
        assertThat(AzureDialect.retryAfterSeconds("no number here")).isEqualTo(Optional.empty());
    }
}

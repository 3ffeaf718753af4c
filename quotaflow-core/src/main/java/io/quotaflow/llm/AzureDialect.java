package io.quotaflow.llm;

import io.quotaflow.settings.Dialect;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Secret;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Azure OpenAI: the key in the {@code api-key} header, calls to
 * {@code {base}/openai/deployments/{deployment}/chat/completions?api-version={version}} (the base is the
 * resource's endpoint, {@code https://NAME.openai.azure.com}); {@code x-ratelimit-remaining-requests}
 * and {@code -tokens} and {@code retry-after-ms} as OpenAI's. Its 429 ("Requests to the
 * ChatCompletions_Create Operation ... have exceeded token rate limit ... Please retry after 37
 * seconds") waits {@code retry-after-ms}, else the seconds its message names; a spent quota halts as
 * with OpenAI; {@code DeploymentNotFound} (404) halts.
 */
final class AzureDialect implements ProviderDialect {

    static final AzureDialect INSTANCE = new AzureDialect();

    private static final Pattern RETRY_AFTER_SECONDS = Pattern.compile("retry after (\\d{1,7}) second", Pattern.CASE_INSENSITIVE);

    private AzureDialect() {
    }

    @Override
    public Dialect dialect() {
        return Dialect.AZURE;
    }

    @Override
    public URI chatUri(ModelSettings settings) {
        return URI.create(settings.baseUrl() + "/openai/deployments/" + settings.deployment() + "/chat/completions?api-version="
                + settings.apiVersion());
    }

    @Override
    public URI modelsUri(ModelSettings settings) {
        return URI.create(settings.baseUrl() + "/openai/models?api-version=" + settings.apiVersion());
    }

    @Override
    public Map<String, String> credentials(Secret key) {
        return Map.of("api-key", key.reveal());
    }

    @Override
    public ModelOutcome error(ErrorAnswer answer) {
        if (answer.status() == 429 && answer.limits().retryAfter().isEmpty()) {
            Optional<Duration> said = retryAfterSeconds(answer.message());
            if (said.isPresent()) {
                return answer.rateLimited(said, false);
            }
        }
        return OpenAiDialect.taxonomy(answer);
    }

    /** "Please retry after 37 seconds" from an Azure 429 message. */
    static Optional<Duration> retryAfterSeconds(String message) {
        Matcher m = message == null ? null : RETRY_AFTER_SECONDS.matcher(message);
        return m != null && m.find() ? Optional.of(Duration.ofSeconds(Long.parseLong(m.group(1)))) : Optional.empty();
    }
}

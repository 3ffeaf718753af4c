package io.quotaflow.llm;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.quota.RateLimitHeaders;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.settings.Dialect;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Secret;

import java.net.URI;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Everything one provider dialect ({@link Dialect}) knows, in one class per dialect: where a chat
 * completion goes, which header carries the key, how its rate-limit headers read, what each of its
 * error answers means (which 429s wait, which halt, which end the day) and where its answer counts
 * the tokens. The client ({@link OpenAiChatClient}) asks it and knows none of this itself.
 */
public interface ProviderDialect {

    /** The dialect of a route. */
    static ProviderDialect of(Dialect dialect) {
        return switch (dialect) {
            case OPENAI -> OpenAiDialect.INSTANCE;
            case AZURE -> AzureDialect.INSTANCE;
            case ANTHROPIC -> AnthropicDialect.INSTANCE;
            case GEMINI -> GeminiDialect.INSTANCE;
        };
    }

    /** Which one. */
    Dialect dialect();

    /** The chat-completions endpoint of {@code settings}. */
    default URI chatUri(ModelSettings settings) {
        return settings.chatCompletionsUri();
    }

    /** Where the provider lists its models ({@code check} asks it). */
    default URI modelsUri(ModelSettings settings) {
        return URI.create(settings.baseUrl() + "/models");
    }

    /** The headers that carry {@code key} (the only place a key is revealed). */
    default Map<String, String> credentials(Secret key) {
        return Map.of("Authorization", "Bearer " + key.reveal());
    }

    /** The provider's rate-limit state from an answer's headers (a case-insensitive lookup of first values). */
    default RateLimitInfo rateLimits(Function<String, Optional<String>> header, Instant now) {
        return RateLimitHeaders.parse(header, now);
    }

    /** What an answer other than 2xx and 3xx means. */
    ModelOutcome error(ErrorAnswer answer);

    /** The tokens the provider counted for a 200 answer (its {@code usage}). */
    default Usage usage(JsonNode root) {
        JsonNode usage = root == null ? null : root.path("usage");
        return usage == null ? Usage.NONE : new Usage(usage.path("prompt_tokens").asLong(0), usage.path("completion_tokens").asLong(0));
    }

    /** Prompt and completion tokens as the provider counted them. */
    record Usage(long promptTokens, long completionTokens) {
        static final Usage NONE = new Usage(0, 0);
    }
}

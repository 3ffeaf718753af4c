package io.quotaflow.llm;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.settings.Dialect;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gemini through its OpenAI-compatible endpoint ({@code https://generativelanguage.googleapis.com/v1beta/openai},
 * {@code Authorization: Bearer}); it sends no rate-limit headers. Its errors are Google's
 * ({@code {"error":{"code","message","status","details":[…]}}}, at times inside a one-element array):
 * <ul>
 *   <li>429 {@code RESOURCE_EXHAUSTED} is a rate limit, whatever its message says of "quota" and
 *       "billing": it waits {@code google.rpc.RetryInfo.retryDelay} ({@code "30s"}), else the
 *       "Please retry in 53.01s" of its message;</li>
 *   <li>if a {@code google.rpc.QuotaFailure} violation's {@code quotaId} is a per-day quota
 *       ({@code GenerateRequestsPerDayPerProjectPerModel}, {@code …PerDay…}), the route's day is
 *       over until its daily reset ({@code route.<name>.daily-reset-hour-utc});</li>
 *   <li>400 with an invalid key ({@code API_KEY_INVALID}, "API key not valid") halts, like 401/403;</li>
 *   <li>400 "input token count … exceeds the maximum" splits the batch; 503 {@code UNAVAILABLE} retries.</li>
 * </ul>
 * Usage is {@code prompt_tokens}/{@code completion_tokens}, or natively {@code usageMetadata}'s
 * {@code promptTokenCount}/{@code candidatesTokenCount}.
 */
final class GeminiDialect implements ProviderDialect {

    static final GeminiDialect INSTANCE = new GeminiDialect();

    static final String RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo";
    static final String QUOTA_FAILURE = "type.googleapis.com/google.rpc.QuotaFailure";

    private static final Pattern PROTO_DURATION = Pattern.compile("(\\d{1,9})(?:\\.(\\d{1,9}))?s");
    private static final Pattern RETRY_IN = Pattern.compile("retry in (\\d{1,9}(?:\\.\\d{1,9})?)s", Pattern.CASE_INSENSITIVE);

    private GeminiDialect() {
    }

    @Override
    public Dialect dialect() {
        return Dialect.GEMINI;
    }

    @Override
    public ModelOutcome error(ErrorAnswer answer) {
        int status = answer.status();
        String lowered = answer.lowered();
        if (status == 429) {
            Optional<Duration> hint = retryDelay(answer.error()).or(() -> retryIn(answer.message())).or(answer::hint);
            return answer.rateLimited(hint, perDay(answer.error()));
        }
        if (status == 400 && (lowered.contains("api key not valid") || lowered.contains("api_key_invalid") || apiKeyInvalid(answer.error()))) {
            return answer.failed(ModelOutcome.FailureKind.HALT, Optional.empty());
        }
        if (status == 400 && lowered.contains("input token count") && lowered.contains("exceeds")) {
            return answer.failed(ModelOutcome.FailureKind.CONTEXT_LENGTH, Optional.empty());
        }
        return OpenAiDialect.taxonomy(answer);
    }

    /** {@code google.rpc.RetryInfo.retryDelay} ({@code "30s"}, {@code "1.5s"}) of an error's details. */
    static Optional<Duration> retryDelay(JsonNode error) {
        for (JsonNode detail : details(error)) {
            if (RETRY_INFO.equals(detail.path("@type").asText())) {
                Matcher m = PROTO_DURATION.matcher(detail.path("retryDelay").asText("").strip());
                if (m.matches()) {
                    String fraction = m.group(2) == null ? "0" : (m.group(2) + "000000000").substring(0, 9);
                    return Optional.of(Duration.ofSeconds(Long.parseLong(m.group(1)), Long.parseLong(fraction)));
                }
            }
        }
        return Optional.empty();
    }

    /** Whether a {@code QuotaFailure} violation names a per-day quota. */
    static boolean perDay(JsonNode error) {
        for (JsonNode detail : details(error)) {
            if (QUOTA_FAILURE.equals(detail.path("@type").asText())) {
                for (JsonNode violation : detail.path("violations")) {
                    String id = violation.path("quotaId").asText("") + " " + violation.path("quotaMetric").asText("");
                    String lowered = id.toLowerCase(Locale.ROOT);
                    if (lowered.contains("perday") || lowered.contains("per_day")) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean apiKeyInvalid(JsonNode error) {
        for (JsonNode detail : details(error)) {
            if ("API_KEY_INVALID".equals(detail.path("reason").asText())) {
                return true;
            }
        }
        return false;
    }

    private static Iterable<JsonNode> details(JsonNode error) {
        JsonNode details = error == null ? null : error.get("details");
        return details != null && details.isArray() ? details : java.util.List.of();
    }

    private static Optional<Duration> retryIn(String message) {
        Matcher m = message == null ? null : RETRY_IN.matcher(message);
        if (m == null || !m.find()) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos((long) (Double.parseDouble(m.group(1)) * 1_000_000_000L)));
    }

    @Override
    public Usage usage(JsonNode root) {
        if (root != null && root.has("usageMetadata") && !root.has("usage")) {
            JsonNode m = root.path("usageMetadata");
            return new Usage(m.path("promptTokenCount").asLong(0), m.path("candidatesTokenCount").asLong(0));
        }
        return ProviderDialect.super.usage(root);
    }
}

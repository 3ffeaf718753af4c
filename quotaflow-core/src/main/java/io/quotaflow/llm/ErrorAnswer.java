package io.quotaflow.llm;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.quota.RateLimitHeaders;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.records.Json;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * An error answer as a dialect reads it: its status, headers already parsed, and its body's
 * {@code error} object (OpenAI, Azure and Anthropic put it at the top; Gemini's OpenAI-compatible
 * endpoint may wrap it in a one-element array). Every message an outcome keeps goes through
 * {@code safe} (redaction of the key, truncation).
 */
public record ErrorAnswer(int status, RateLimitInfo limits, String body, long latencyMs, UnaryOperator<String> safe) {

    /** The body's {@code error} object, or null when there is none. */
    public JsonNode error() {
        try {
            JsonNode root = body == null || body.isBlank() ? null : Json.MAPPER.readTree(body);
            if (root != null && root.isArray()) {
                root = root.path(0);
            }
            JsonNode error = root == null ? null : root.get("error");
            return error == null || !error.isObject() ? null : error;
        } catch (IOException e) {
            return null;
        }
    }

    /** A text field of the {@code error} object, or null. */
    public String field(String name) {
        JsonNode error = error();
        JsonNode v = error == null ? null : error.get(name);
        return v == null || v.isNull() || v.isContainerNode() ? null : v.asText();
    }

    /** The provider's message, else the whole body. */
    public String message() {
        return Optional.ofNullable(field("message")).orElse(body == null ? "" : body);
    }

    /** {@code code}, {@code type} and the message, lower-cased: what the taxonomies match words in. */
    public String lowered() {
        return (field("code") + " " + field("type") + " " + message()).toLowerCase(Locale.ROOT);
    }

    /** The provider's wait: {@code retry-after-ms} / {@code retry-after}, else "try again in 1.28s" in the message. */
    public Optional<Duration> hint() {
        return limits.retryAfter().or(() -> RateLimitHeaders.tryAgainIn(message()));
    }

    /** A failure of {@code kind} with {@code hint}. */
    public ModelOutcome.Failed failed(ModelOutcome.FailureKind kind, Optional<Duration> hint) {
        return new ModelOutcome.Failed(kind, status, safe.apply(message()), hint, limits, latencyMs);
    }

    /** A rate limit (cool down, resend): {@code perDay} ends the route's day. */
    public ModelOutcome.RateLimited rateLimited(Optional<Duration> hint, boolean perDay) {
        String message = message();
        Optional<RateLimitHeaders.UsedRequested> ur = RateLimitHeaders.usedRequested(message);
        return new ModelOutcome.RateLimited(hint, safe.apply(message), ur.map(RateLimitHeaders.UsedRequested::used),
                ur.map(RateLimitHeaders.UsedRequested::requested), limits, latencyMs, perDay || RateLimitHeaders.aboutDay(message));
    }
}

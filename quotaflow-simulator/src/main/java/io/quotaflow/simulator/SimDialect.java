package io.quotaflow.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import io.quotaflow.duration.GoDuration;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The provider dialect the simulator speaks: where its chat completions live, which header carries
 * the key, and the shape of its rate-limit headers and error bodies. The simulator decides in
 * OpenAI's terms ({@link ChatCompletions}, {@link OpenAiErrors}); this is the one place that turns
 * those answers into the dialect's, just before they are sent ({@link #shape}).
 * <ul>
 *   <li>{@code openai}: as decided.</li>
 *   <li>{@code azure}: {@code POST /openai/deployments/{model}/chat/completions?api-version=…} with
 *       {@code api-key}; only {@code x-ratelimit-remaining-*} and {@code retry-after(-ms)}; a rate-limit
 *       429 in Azure's words ("Please retry after N seconds").</li>
 *   <li>{@code anthropic}: the OpenAI-compatible {@code POST /v1/chat/completions} with
 *       {@code Authorization: Bearer} or {@code x-api-key}; {@code anthropic-ratelimit-*} headers
 *       with RFC 3339 resets and {@code retry-after}; errors as {@code {"type":"error","error":{type,message}}};
 *       a model taken down with 429 answers the spend cap ({@code enforced_spend_limit_reached}, no
 *       {@code retry-after}).</li>
 *   <li>{@code gemini}: {@code POST /v1beta/openai/chat/completions}, Bearer; no rate-limit headers;
 *       errors as {@code [{"error":{code,message,status,details}}]}; a rate-limit 429 carries
 *       {@code QuotaFailure} (per minute) and {@code RetryInfo.retryDelay}; a model taken down with 429
 *       answers a per-day quota ({@code GenerateRequestsPerDayPerProjectPerModel}); a wrong key is
 *       400 {@code API_KEY_INVALID}; 529 is 503 {@code UNAVAILABLE}.</li>
 * </ul>
 */
public enum SimDialect {

    OPENAI("openai", "/v1"),
    AZURE("azure", ""),
    ANTHROPIC("anthropic", "/v1"),
    GEMINI("gemini", "/v1beta/openai");

    static final String CHAT = "/v1/chat/completions";
    static final String MODELS = "/v1/models";
    static final String DEPLOYMENT_NOT_FOUND = "/deployment-not-found";
    private static final String AZURE_DEPLOYMENTS = "/openai/deployments/";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final String wire;
    private final String basePath;

    SimDialect(String wire, String basePath) {
        this.wire = wire;
        this.basePath = basePath;
    }

    /** The configuration value ({@code --dialect}). */
    public String wire() {
        return wire;
    }

    /** The dialect named {@code value} (any case). */
    public static SimDialect parse(String value) {
        for (SimDialect d : values()) {
            if (d.wire.equalsIgnoreCase(value == null ? "" : value.strip())) {
                return d;
            }
        }
        throw new IllegalArgumentException("dialect must be openai, azure, anthropic or gemini: '" + value + "'");
    }

    /** What a client of this dialect uses as its base URL, after {@code http://host:port}. */
    String basePath() {
        return basePath;
    }

    /**
     * The OpenAI path ({@link #CHAT}, {@link #MODELS}) a request path of this dialect stands for; the
     * admin paths as they are; empty when the dialect has no such path (a 404). {@code deployments}
     * says which Azure deployments exist.
     */
    Optional<String> canonicalPath(String path, String query, java.util.function.Predicate<String> deployments) {
        if (path.startsWith("/admin/")) {
            return Optional.of(path);
        }
        switch (this) {
            case AZURE:
                if (query == null || !query.contains("api-version=")) {
                    return Optional.empty();
                }
                if (path.equals("/openai/models")) {
                    return Optional.of(MODELS);
                }
                if (path.startsWith(AZURE_DEPLOYMENTS) && path.endsWith("/chat/completions")) {
                    String deployment = path.substring(AZURE_DEPLOYMENTS.length(), path.length() - "/chat/completions".length());
                    return deployments.test(deployment) ? Optional.of(CHAT) : Optional.of(DEPLOYMENT_NOT_FOUND);
                }
                return Optional.empty();
            case GEMINI:
                return path.startsWith(basePath + "/") ? Optional.of("/v1" + path.substring(basePath.length())) : Optional.empty();
            default:
                return Optional.of(path);
        }
    }

    /** The request's key as an {@code Authorization} value (what {@link Authenticator} reads), or null. */
    String credential(Headers headers) {
        switch (this) {
            case AZURE:
                return bearer(headers.getFirst("api-key"));
            case ANTHROPIC:
                String authorization = headers.getFirst("Authorization");
                return authorization != null ? authorization : bearer(headers.getFirst("x-api-key"));
            default:
                return headers.getFirst("Authorization");
        }
    }

    private static String bearer(String key) {
        return key == null ? null : "Bearer " + key;
    }

    /** An answer as sent. */
    record Shaped(int status, Map<String, String> headers, byte[] body) {
    }

    /** The OpenAI-shaped answer ({@code status}, {@code headers}, {@code body}) in this dialect, at {@code epochMs}. */
    Shaped shape(int status, Map<String, String> headers, byte[] body, long epochMs) {
        if (this == OPENAI) {
            return new Shaped(status, headers, body);
        }
        Optional<Duration> wait = Optional.ofNullable(headers.get("retry-after-ms")).map(ms -> Duration.ofMillis(Long.parseLong(ms)));
        Map<String, String> h = headers(headers, epochMs);
        JsonNode error = status >= 400 ? error(body) : null;
        if (error == null) {
            return new Shaped(status, h, body);
        }
        try {
            switch (this) {
                case AZURE:
                    return azure(status, h, body, error, wait);
                case ANTHROPIC:
                    return anthropic(status, h, error);
                default:
                    return gemini(status, h, error, wait);
            }
        } catch (IOException e) {
            return new Shaped(status, h, body);
        }
    }

    private Map<String, String> headers(Map<String, String> headers, long epochMs) {
        Map<String, String> out = new LinkedHashMap<>();
        headers.forEach((name, value) -> {
            String n = name.toLowerCase(Locale.ROOT);
            boolean rateLimit = n.startsWith("x-ratelimit-") || n.startsWith("retry-after") || n.equals("openai-processing-ms");
            if (!rateLimit) {
                out.put(name, value);
            } else if (this == AZURE && (n.startsWith("x-ratelimit-remaining-") || n.startsWith("retry-after"))) {
                out.put(n, value);
            } else if (this == ANTHROPIC) {
                anthropicHeader(n, value, epochMs, out);
            }
        });
        return out;
    }

    private static void anthropicHeader(String name, String value, long epochMs, Map<String, String> out) {
        if (name.equals("retry-after")) {
            out.put(name, value);
            return;
        }
        String[] parts = name.split("-");
        // x-ratelimit-{limit,remaining,reset}-{requests,tokens}
        if (parts.length != 4) {
            return;
        }
        String target = "anthropic-ratelimit-" + parts[3] + "-" + parts[2];
        if (parts[2].equals("reset")) {
            GoDuration.parse(value).ifPresent(d -> out.put(target,
                    Instant.ofEpochMilli(epochMs).plus(d).plusMillis(999).truncatedTo(ChronoUnit.SECONDS).toString()));
        } else {
            out.put(target, value);
        }
    }

    private static JsonNode error(byte[] body) {
        try {
            JsonNode root = MAPPER.readTree(body);
            JsonNode error = root == null ? null : root.get("error");
            return error != null && error.isObject() ? error : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String text(JsonNode error, String field) {
        JsonNode v = error.get(field);
        return v == null || v.isNull() ? "" : v.asText();
    }

    private static long seconds(Optional<Duration> wait) {
        return wait.map(w -> Math.max(1, (w.toMillis() + 999) / 1000)).orElse(1L);
    }

    private static Shaped azure(int status, Map<String, String> h, byte[] body, JsonNode error, Optional<Duration> wait) throws IOException {
        if (status != 429 || !"rate_limit_exceeded".equals(text(error, "code")) || wait.isEmpty()) {
            return new Shaped(status, h, body);
        }
        String limit = "tokens".equals(text(error, "type")) ? "token" : "call";
        ObjectNode root = MAPPER.createObjectNode();
        root.putObject("error").put("code", "429").put("message", "Requests to the ChatCompletions_Create Operation under Azure OpenAI "
                + "API version " + "2024-10-21 have exceeded " + limit + " rate limit of your current OpenAI S0 pricing tier. Please retry after "
                + seconds(wait) + " seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the "
                + "default rate limit.");
        return new Shaped(status, h, MAPPER.writeValueAsBytes(root));
    }

    private static Shaped anthropic(int status, Map<String, String> h, JsonNode error) throws IOException {
        ObjectNode root = MAPPER.createObjectNode().put("type", "error");
        ObjectNode e = root.putObject("error");
        String code = text(error, "code");
        String message = text(error, "message");
        if ("insufficient_quota".equals(code)) {
            h.remove("retry-after");
            e.put("type", "rate_limit_error").put("message", "Your organization has reached its monthly usage limit. Access resumes "
                    + "at the start of next month.");
            e.putObject("details").put("error_code", "enforced_spend_limit_reached");
        } else if (status == 429 && "rate_limit_exceeded".equals(code)) {
            String what = "tokens".equals(text(error, "type")) ? "input tokens" : "requests";
            e.put("type", "rate_limit_error").put("message", "This request would exceed the rate limit for your organization of "
                    + what + " per minute. Please try again later.");
        } else {
            e.put("type", anthropicType(status)).put("message", status == 529 ? "Overloaded" : message);
        }
        root.put("request_id", "req_sim");
        return new Shaped(status, h, MAPPER.writeValueAsBytes(root));
    }

    private static String anthropicType(int status) {
        switch (status) {
            case 400:
                return "invalid_request_error";
            case 401:
                return "authentication_error";
            case 403:
                return "permission_error";
            case 404:
                return "not_found_error";
            case 413:
                return "request_too_large";
            case 429:
                return "rate_limit_error";
            case 529:
                return "overloaded_error";
            default:
                return "api_error";
        }
    }

    private static Shaped gemini(int status, Map<String, String> h, JsonNode error, Optional<Duration> wait) throws IOException {
        String code = text(error, "code");
        int answered = status == 529 ? 503 : "invalid_api_key".equals(code) ? 400 : status;
        ArrayNode root = MAPPER.createArrayNode();
        ObjectNode e = root.addObject().putObject("error").put("code", answered);
        ArrayNode details = MAPPER.createArrayNode();
        String message = text(error, "message");
        if ("insufficient_quota".equals(code)) {
            message = "You exceeded your current quota, please check your plan and billing details.";
            violation(details, "generativelanguage.googleapis.com/generate_requests_per_model_per_day",
                    "GenerateRequestsPerDayPerProjectPerModel");
        } else if (status == 429 && "rate_limit_exceeded".equals(code)) {
            boolean tokens = "tokens".equals(text(error, "type"));
            message = "You exceeded your current quota, please check your plan and billing details. Please retry in " + seconds(wait) + "s.";
            violation(details, tokens ? "generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count"
                    : "generativelanguage.googleapis.com/generate_requests_per_model",
                    tokens ? "GenerateContentPaidTierInputTokensPerModelPerMinute" : "GenerateRequestsPerMinutePerProjectPerModel");
            details.addObject().put("@type", "type.googleapis.com/google.rpc.RetryInfo").put("retryDelay", seconds(wait) + "s");
        } else if ("invalid_api_key".equals(code)) {
            message = "API key not valid. Please pass a valid API key.";
            details.addObject().put("@type", "type.googleapis.com/google.rpc.ErrorInfo").put("reason", "API_KEY_INVALID")
                    .put("domain", "googleapis.com");
        } else if (answered == 503) {
            message = "The model is overloaded. Please try again later.";
        }
        e.put("message", message).put("status", grpcStatus(answered));
        if (!details.isEmpty()) {
            e.set("details", details);
        }
        return new Shaped(answered, h, MAPPER.writeValueAsBytes(root));
    }

    private static void violation(ArrayNode details, String metric, String quotaId) {
        ObjectNode failure = details.addObject().put("@type", "type.googleapis.com/google.rpc.QuotaFailure");
        failure.putArray("violations").addObject().put("quotaMetric", metric).put("quotaId", quotaId);
    }

    private static String grpcStatus(int status) {
        switch (status) {
            case 400:
                return "INVALID_ARGUMENT";
            case 401:
                return "UNAUTHENTICATED";
            case 403:
                return "PERMISSION_DENIED";
            case 404:
                return "NOT_FOUND";
            case 429:
                return "RESOURCE_EXHAUSTED";
            case 503:
                return "UNAVAILABLE";
            default:
                return "INTERNAL";
        }
    }

    @Override
    public String toString() {
        return wire;
    }
}

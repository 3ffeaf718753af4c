package io.quotaflow.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.duration.GoDuration;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** The simulator's error answers, in OpenAI's shape ({@code {"error":{message,type,param,code}}}) and words. */
final class OpenAiErrors {

    static final String ORGANIZATION = "org-sim";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String INVALID_REQUEST = "invalid_request_error";

    private OpenAiErrors() {
    }

    /** Any error answer. */
    static Reply.Now error(int status, String message, String type, String param, String code,
                           Map<String, String> headers, boolean counted) {
        ObjectNode body = MAPPER.createObjectNode();
        ObjectNode error = body.putObject("error");
        error.put("message", message);
        error.put("type", type);
        error.put("param", param);
        error.put("code", code);
        byte[] bytes;
        try {
            bytes = MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            bytes = "{\"error\":{\"message\":\"internal error\"}}".getBytes(StandardCharsets.UTF_8);
        }
        return new Reply.Now(status, headers, bytes, counted);
    }

    /** 401 {@code invalid_api_key}; never echoes the presented key, not even masked. */
    static Reply.Now unauthorized(boolean counted) {
        return error(401, "Incorrect API key provided. You can find your API key at "
                + "https://platform.openai.com/account/api-keys.", INVALID_REQUEST, null, "invalid_api_key", Map.of(), counted);
    }

    /** 503 "The server is overloaded or not ready yet." */
    static Reply.Now serviceUnavailable(boolean counted) {
        return error(503, "The server is overloaded or not ready yet.", "server_error", null, null, Map.of(), counted);
    }

    /**
     * The answer of a model taken down with {@link ProviderSimulator#setDown(String, int)}: 503 "The
     * server is overloaded or not ready yet.", 500 {@code server_error}, 529 {@code overloaded_error},
     * other 5xx {@code server_error}, 401 {@code invalid_api_key}, 403 {@code permission_denied},
     * 404 {@code model_not_found} or 429 {@code insufficient_quota}.
     */
    static Reply.Now down(String model, int status) {
        switch (status) {
            case 401:
                return unauthorized(true);
            case 403:
                return error(403, "You are not allowed to use the model `" + model + "`.", "permission_denied", null,
                        "permission_denied", Map.of(), true);
            case 404:
                return modelNotFound(model, Map.of());
            case 429:
                return error(429, "You exceeded your current quota, please check your plan and billing details.",
                        "insufficient_quota", null, "insufficient_quota", Map.of(), true);
            case 503:
                return serviceUnavailable(true);
            case 529:
                return error(529, "Overloaded", "overloaded_error", null, null, Map.of(), true);
            default:
                return error(status, "The server had an error while processing your request. Sorry about that!",
                        "server_error", null, null, Map.of(), true);
        }
    }

    /** A counted 400 {@code invalid_request_error} carrying {@code headers} (the key's, unchanged). */
    static Reply.Now badRequest(String message, String param, Map<String, String> headers) {
        return error(400, message, INVALID_REQUEST, param, null, headers, true);
    }

    /** A counted 404 {@code model_not_found}. */
    static Reply.Now modelNotFound(String model, Map<String, String> headers) {
        return error(404, "The model `" + model + "` does not exist or you do not have access to it.",
                INVALID_REQUEST, null, "model_not_found", headers, true);
    }

    /**
     * 400 {@code context_length_exceeded}, in OpenAI's words.
     *
     * @param maxTokens the request's max_tokens, or null when it gave none (then only the messages
     *                  were too long)
     */
    static Reply.Now contextLengthExceeded(long contextTokens, int promptTokens, Integer maxTokens, Map<String, String> headers) {
        String message = maxTokens == null
                ? "This model's maximum context length is " + contextTokens + " tokens. However, your "
                        + "messages resulted in " + promptTokens + " tokens. Please reduce the length of the messages."
                : "This model's maximum context length is " + contextTokens + " tokens. However, you "
                        + "requested " + ((long) promptTokens + maxTokens) + " tokens (" + promptTokens
                        + " in the messages, " + maxTokens + " in the completion). Please reduce the length of the "
                        + "messages or completion.";
        return error(400, message, INVALID_REQUEST, "messages", "context_length_exceeded", headers, true);
    }

    /**
     * 429 {@code rate_limit_exceeded}: "Request too large" without a retry hint when the estimate
     * exceeds the limit itself, else "Rate limit reached" with {@code retry-after(-ms)} and the
     * "Used X, Requested Y" numbers.
     */
    static Reply.Now rateLimited(ModelSpec config, Admission admission, long cost) {
        Map<String, String> headers = new LinkedHashMap<>(admission.headers());
        String limitedBy = admission instanceof Admission.Limited ? ((Admission.Limited) admission).limitedBy() : "tokens";
        boolean tokens = limitedBy.equals("tokens");
        String window = tokens ? "tokens per min (TPM)" : "requests per min (RPM)";
        long limit = tokens ? config.tpm() : config.rpm();
        long requested = tokens ? cost : 1;
        String message;
        if (admission instanceof Admission.Limited) {
            Admission.Limited limited = (Admission.Limited) admission;
            Duration wait = KeyLimiter.ceilToMillis(limited.retryAfter());
            long waitMs = Math.max(1, wait.toMillis());
            headers.put("retry-after-ms", Long.toString(waitMs));
            headers.put("retry-after", Long.toString((waitMs + 999) / 1000));
            message = "Rate limit reached for " + config.name() + " in organization " + ORGANIZATION + " on " + window
                    + ": Limit " + limit + ", Used " + limited.used() + ", Requested " + requested
                    + ". Please try again in " + GoDuration.format(Duration.ofMillis(waitMs))
                    + ". Visit https://platform.openai.com/account/rate-limits to learn more.";
        } else {
            message = "Request too large for " + config.name() + " in organization " + ORGANIZATION + " on " + window
                    + ": Limit " + limit + ", Requested " + requested + ". The input or output tokens must be reduced "
                    + "in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more.";
        }
        return error(429, message, limitedBy, null, "rate_limit_exceeded", headers, true);
    }
}

package io.quotaflow.llm;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.settings.Dialect;

import java.util.Optional;

/**
 * Anthropic through its OpenAI-compatible endpoint ({@code https://api.anthropic.com/v1}, the key as
 * {@code Authorization: Bearer}, as the OpenAI SDKs it is documented with send it). Its headers are
 * {@code anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-{limit,remaining,reset}}
 * with RFC 3339 resets, and {@code retry-after}. Its errors keep Anthropic's shape
 * ({@code {"type":"error","error":{"type","message"}}}):
 * <ul>
 *   <li>429 {@code rate_limit_error} waits {@code retry-after};</li>
 *   <li>429 whose {@code error.details.error_code} is {@code enforced_spend_limit_reached} (the
 *       month's spend cap, no {@code retry-after}) and 400 about the credit balance or a spend
 *       limit, and 402 {@code billing_error}, halt the route: retrying cannot help;</li>
 *   <li>529 {@code overloaded_error} is the provider's overload, not our quota: retried with
 *       backoff, like a 5xx;</li>
 *   <li>413 {@code request_too_large} and 400 "prompt is too long" split the batch.</li>
 * </ul>
 * Usage is {@code prompt_tokens}/{@code completion_tokens} on this endpoint, {@code input_tokens}
 * (plus the cache-creation tokens, which count toward the input limit) and {@code output_tokens}
 * natively; either is read.
 */
final class AnthropicDialect implements ProviderDialect {

    static final AnthropicDialect INSTANCE = new AnthropicDialect();

    static final String SPEND_LIMIT = "enforced_spend_limit_reached";

    private AnthropicDialect() {
    }

    @Override
    public Dialect dialect() {
        return Dialect.ANTHROPIC;
    }

    @Override
    public ModelOutcome error(ErrorAnswer answer) {
        int status = answer.status();
        String lowered = answer.lowered();
        if (outOfMoney(answer, status, lowered)) {
            return answer.failed(ModelOutcome.FailureKind.HALT, Optional.empty());
        }
        if (status == 429) {
            return answer.rateLimited(answer.hint(), false);
        }
        if (status == 529 || "overloaded_error".equals(answer.field("type"))) {
            return answer.failed(ModelOutcome.FailureKind.TRANSIENT, answer.hint());
        }
        if (status == 413 || status == 400 && lowered.contains("prompt is too long")) {
            return answer.failed(ModelOutcome.FailureKind.CONTEXT_LENGTH, Optional.empty());
        }
        return OpenAiDialect.taxonomy(answer);
    }

    /** The spend cap, the credit balance or billing: nothing but a person can fix it. */
    private static boolean outOfMoney(ErrorAnswer answer, int status, String lowered) {
        boolean refusal = status == 400 || status == 403;
        boolean money = lowered.contains("credit balance") || lowered.contains("spend limit");
        return spendLimit(answer) || status == 402 || (refusal || status == 429) && money || refusal && lowered.contains("billing");
    }

    private static boolean spendLimit(ErrorAnswer answer) {
        JsonNode error = answer.error();
        return error != null && SPEND_LIMIT.equals(error.path("details").path("error_code").asText(null));
    }

    @Override
    public Usage usage(JsonNode root) {
        JsonNode usage = root == null ? null : root.path("usage");
        if (usage == null || usage.isMissingNode()) {
            return Usage.NONE;
        }
        if (usage.has("prompt_tokens") || usage.has("completion_tokens")) {
            return new Usage(usage.path("prompt_tokens").asLong(0), usage.path("completion_tokens").asLong(0));
        }
        return new Usage(usage.path("input_tokens").asLong(0) + usage.path("cache_creation_input_tokens").asLong(0),
                usage.path("output_tokens").asLong(0));
    }
}

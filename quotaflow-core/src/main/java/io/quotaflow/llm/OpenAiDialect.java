package io.quotaflow.llm;

import io.quotaflow.settings.Dialect;

import java.util.Optional;

/**
 * OpenAI and OpenAI-compatible servers: {@code Authorization: Bearer}, {@code {base}/chat/completions},
 * {@code x-ratelimit-*} headers with Go-duration resets, and the failure table of docs/design.md: a
 * 429 waits unless it is a spent quota ({@code insufficient_quota}, billing: halt) or a request larger
 * than the whole limit (split); 401/403/404 halt; 408/409/5xx retry; other 4xx dead-letter. The other
 * dialects read their own special cases first and fall back on {@link #taxonomy}.
 */
final class OpenAiDialect implements ProviderDialect {

    static final OpenAiDialect INSTANCE = new OpenAiDialect();

    private OpenAiDialect() {
    }

    @Override
    public Dialect dialect() {
        return Dialect.OPENAI;
    }

    @Override
    public ModelOutcome error(ErrorAnswer answer) {
        return taxonomy(answer);
    }

    /** The OpenAI failure table. */
    static ModelOutcome taxonomy(ErrorAnswer answer) {
        int status = answer.status();
        String lowered = answer.lowered();
        if (status == 429) {
            return tooMany(answer, lowered);
        }
        if (status == 400 && (lowered.contains("context_length_exceeded") || lowered.contains("context length")
                || lowered.contains("maximum context"))) {
            return answer.failed(ModelOutcome.FailureKind.CONTEXT_LENGTH, answer.hint());
        }
        if (status == 401 || status == 403 || status == 404) {
            return answer.failed(ModelOutcome.FailureKind.HALT, answer.hint());
        }
        if (status == 408 || status == 409 || status >= 500) {
            return answer.failed(ModelOutcome.FailureKind.TRANSIENT, answer.hint());
        }
        return answer.failed(ModelOutcome.FailureKind.NON_RETRYABLE, answer.hint());
    }

    /** A 429: a spent quota halts, a request larger than the limit splits, anything else waits. */
    private static ModelOutcome tooMany(ErrorAnswer answer, String lowered) {
        if (lowered.contains("insufficient_quota") || lowered.contains("exceeded your current quota")
                || lowered.contains("spend limit") || lowered.contains("billing")) {
            return answer.failed(ModelOutcome.FailureKind.HALT, answer.hint());
        }
        if (answer.limits().isEmpty() && lowered.contains("overloaded")) {
            // an engine's "too many at once" (TGI): no quota was spent, none is learned; fewer calls at once help
            return answer.failed(ModelOutcome.FailureKind.OVERLOADED, answer.hint());
        }
        if (lowered.contains("request too large")) {
            // larger than the whole per-minute limit: waiting cannot help, a smaller batch can
            return answer.failed(ModelOutcome.FailureKind.CONTEXT_LENGTH, Optional.empty());
        }
        return answer.rateLimited(answer.hint(), false);
    }
}

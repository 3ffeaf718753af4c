package io.quotaflow.quota;

/**
 * What a call is charged, per dimension: one request, its admission cost in tokens (prompt +
 * {@code max_tokens}), and that cost split into its prompt (input) and completion-budget (output)
 * parts, which separate input and output limits meter. Also a sum over several calls.
 *
 * @param requests     calls (1 for one call)
 * @param tokens       admission cost: prompt tokens + {@code max_tokens}
 * @param inputTokens  the prompt's part
 * @param outputTokens the completion budget ({@code max_tokens})
 */
public record Charge(long requests, long tokens, long inputTokens, long outputTokens) {

    /** Nothing. */
    public static final Charge NONE = new Charge(0, 0, 0, 0);

    /** One call of {@code promptTokens} with a completion budget of {@code maxTokens}. */
    public static Charge call(long promptTokens, long maxTokens) {
        return new Charge(1, promptTokens + maxTokens, promptTokens, maxTokens);
    }

    /**
     * One call of {@code tokens} whose split is unknown: each of the input and output limits is
     * charged the whole cost, so neither can be under-charged.
     */
    public static Charge unsplit(long tokens) {
        return new Charge(1, tokens, tokens, tokens);
    }

    public Charge plus(Charge other) {
        return new Charge(requests + other.requests, tokens + other.tokens, inputTokens + other.inputTokens,
                outputTokens + other.outputTokens);
    }

    /** This charge with {@code extra} more prompt tokens (the provider counted more than estimated). */
    public Charge withExtraPrompt(long extra) {
        return new Charge(requests, tokens + extra, inputTokens + extra, outputTokens);
    }
}

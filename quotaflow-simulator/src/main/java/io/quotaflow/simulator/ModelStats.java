package io.quotaflow.simulator;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one served model has seen: part of {@link SimulatorStats#models()}. A request counts for a
 * model once its body names that model (requests for an unknown model, or whose body names none,
 * count only in the simulator's totals); its answer counts by the status decided for it.
 *
 * @param model            the model's name
 * @param rpmLimit         its requests per minute (per key)
 * @param tpmLimit         its tokens per minute (per key)
 * @param burstSeconds     its burst window
 * @param contextTokens    its context window
 * @param tokenizer        the tokenizer it counts with, resolved
 * @param requests         requests that named this model
 * @param requestsByStatus their answers by HTTP status ({@code "200"}, {@code "429"}, ...); hangs get none
 * @param http429          answers with status 429 (rate limits and "Request too large")
 * @param http400          answers with status 400 (invalid request, context length)
 * @param requestsAdmitted requests that passed its rate limits
 * @param promptTokens     sum of {@code usage.prompt_tokens} of admitted requests
 * @param completionTokens sum of {@code usage.completion_tokens} of admitted requests
 * @param tokensAdmitted   sum of admission costs (prompt + max_tokens) charged to its TPM buckets
 * @param contextLengthRefusals requests refused with 400 {@code context_length_exceeded}
 * @param downAnswers      answers given while the model was down (an outage window naming it or
 *                         {@link ProviderSimulator#setDown(String, int)})
 */
public record ModelStats(
        String model,
        long rpmLimit,
        long tpmLimit,
        double burstSeconds,
        long contextTokens,
        String tokenizer,
        long requests,
        Map<String, Long> requestsByStatus,
        long http429,
        long http400,
        long requestsAdmitted,
        long promptTokens,
        long completionTokens,
        long tokensAdmitted,
        long contextLengthRefusals,
        long downAnswers) {

    public ModelStats {
        Objects.requireNonNull(model, "model");
        requestsByStatus = Collections.unmodifiableMap(
                new TreeMap<>(Objects.requireNonNull(requestsByStatus, "requestsByStatus")));
    }

    /** Answers sent with {@code status}. */
    public long requestsWithStatus(int status) {
        return requestsByStatus.getOrDefault(Integer.toString(status), 0L);
    }
}

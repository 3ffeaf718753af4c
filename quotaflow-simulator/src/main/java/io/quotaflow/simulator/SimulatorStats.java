package io.quotaflow.simulator;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A snapshot of what the {@link ProviderSimulator} has seen, served as JSON on
 * {@code GET /admin/stats} and returned in-process by {@link ProviderSimulator#stats()}.
 *
 * <p>Requests are counted when they arrive ({@link #totalRequests}) and again by status when they
 * are answered ({@link #requestsByStatus}); the difference is {@link #inFlight}. Admission
 * counters ({@code requestsAdmitted}, {@code tokensAdmitted}, {@code promptTokens},
 * {@code completionTokens} and the per-second series) are recorded at admission time, because
 * that is when a provider charges the quota. Every token number is the <em>simulator's own</em>
 * count ({@link #tokenizer}), which may differ from the client's estimate on purpose.
 *
 * <p>For "what share of what the provider would have admitted did the client get":
 * {@link #tokensAdmitted} and {@link #requestsAdmitted} are what was admitted,
 * {@link #admissibleTokens(double)} and {@link #admissibleRequests(double)} the most one key could
 * have been admitted over a span, and {@link #http429}, {@link #tooLargeRefusals} and
 * {@link #contextLengthRefusals} what was sent in vain.
 *
 * @param model            the model served
 * @param rpmLimit         configured requests per minute (per key)
 * @param tpmLimit         configured tokens per minute (per key)
 * @param burstSeconds     configured burst window
 * @param startedAtEpochMs when the simulator started (or was last reset)
 * @param snapshotAtEpochMs when this snapshot was taken
 * @param totalRequests    chat-completion requests received (any status, including in flight)
 * @param inFlight         requests whose answer is not sent yet: admitted ones waiting for their latency,
 *                         and hung ones (fault injection) until their connection is dropped
 * @param requestsByStatus answers sent by HTTP status, e.g. {@code "200" → 930, "429" → 12}
 * @param http429          answers with status 429
 * @param requestsAdmitted requests that passed the rate limits
 * @param promptTokens     sum of {@code usage.prompt_tokens} of admitted requests
 * @param completionTokens sum of {@code usage.completion_tokens} of admitted requests
 * @param tokensAdmitted   sum of admission costs (prompt tokens + max_tokens): what the TPM bucket was charged
 * @param faultsInjected   injected faults by kind: {@code "500"}, {@code "503"}, {@code "529"}, {@code "hang"},
 *                         {@code "malformed"}, {@code "missing-item"}, {@code "stall-body"} (a 200 of which
 *                         half the body was sent, counted in {@code requestsByStatus}), {@code "outage"} (a 503 during an
 *                         outage window) and {@code "auth"} (a 401 of {@code failAuth}); the answers
 *                         themselves also count in {@code requestsByStatus}, except hangs, which get none
 * @param perSecond        admissions per wall-clock second, oldest first, seconds without admissions omitted
 * @param tokenizer        the tokenizer the simulator counts with, resolved ({@code o200k_base},
 *                         {@code cl100k_base} or {@code chars}; never {@code auto})
 * @param contextTokens    configured context window (prompt + max_tokens)
 * @param startLevel       configured starting level of a new key's buckets, as a fraction of their capacity
 *                         (1 = full)
 * @param contextLengthRefusals  requests refused with 400 {@code context_length_exceeded} (never charged)
 * @param contextRefusedTokens   sum of what those requests asked for: prompt tokens + max_tokens
 * @param tooLargeRefusals requests refused with 429 "Request too large" (estimate above the TPM limit
 *                         itself; never charged; also counted in {@link #http429})
 * @param models           each served model's own counts, the default model first (see {@link ModelStats}).
 *                         The fields above are the simulator's totals over every model, with the
 *                         <em>default</em> model's limits, shape and tokenizer; with several models, judge
 *                         each model's use from its own entry
 */
public record SimulatorStats(
        String model,
        long rpmLimit,
        long tpmLimit,
        double burstSeconds,
        long startedAtEpochMs,
        long snapshotAtEpochMs,
        long totalRequests,
        long inFlight,
        Map<String, Long> requestsByStatus,
        long http429,
        long requestsAdmitted,
        long promptTokens,
        long completionTokens,
        long tokensAdmitted,
        Map<String, Long> faultsInjected,
        List<Second> perSecond,
        String tokenizer,
        long contextTokens,
        double startLevel,
        long contextLengthRefusals,
        long contextRefusedTokens,
        long tooLargeRefusals,
        Map<String, ModelStats> models) {

    public SimulatorStats {
        requestsByStatus = Collections.unmodifiableMap(
                new TreeMap<>(Objects.requireNonNull(requestsByStatus, "requestsByStatus")));
        faultsInjected = Collections.unmodifiableMap(
                new TreeMap<>(Objects.requireNonNull(faultsInjected, "faultsInjected")));
        perSecond = List.copyOf(Objects.requireNonNull(perSecond, "perSecond"));
        models = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(models, "models")));
    }

    /** The counts of the served model {@code name}. */
    public ModelStats model(String name) {
        ModelStats stats = models.get(name);
        if (stats == null) {
            throw new IllegalArgumentException("the simulator does not serve model " + name + "; it serves " + models.keySet());
        }
        return stats;
    }

    /** Token bucket capacity: {@code tpmLimit × burstSeconds / 60}. */
    public double tokenCapacity() {
        return tpmLimit * burstSeconds / 60.0;
    }

    /** Request bucket capacity: {@code rpmLimit × burstSeconds / 60}. */
    public double requestCapacity() {
        return rpmLimit * burstSeconds / 60.0;
    }

    /**
     * The most tokens one key could have been admitted in its first {@code seconds} after its first
     * request: the bucket's starting level plus the refill, {@code startLevel × tokenCapacity + TPM ×
     * seconds / 60}.
     */
    public double admissibleTokens(double seconds) {
        return startLevel * tokenCapacity() + tpmLimit * Math.max(0, seconds) / 60.0;
    }

    /** {@link #admissibleTokens(double)} for requests: {@code startLevel × requestCapacity + RPM × seconds / 60}. */
    public double admissibleRequests(double seconds) {
        return startLevel * requestCapacity() + rpmLimit * Math.max(0, seconds) / 60.0;
    }

    /** Answers sent with {@code status}. */
    public long requestsWithStatus(int status) {
        return requestsByStatus.getOrDefault(Integer.toString(status), 0L);
    }

    /** Faults of {@code kind} injected so far (see {@link #faultsInjected}). */
    public long faultsInjected(String kind) {
        return faultsInjected.getOrDefault(kind, 0L);
    }

    /** Tokens admitted in the wall-clock seconds {@code [fromEpochSecond, toEpochSecond)}. */
    public long tokensAdmittedBetween(long fromEpochSecond, long toEpochSecond) {
        return perSecond.stream()
                .filter(s -> s.epochSecond() >= fromEpochSecond && s.epochSecond() < toEpochSecond)
                .mapToLong(Second::tokensAdmitted).sum();
    }

    /** Requests admitted in the wall-clock seconds {@code [fromEpochSecond, toEpochSecond)}. */
    public long requestsAdmittedBetween(long fromEpochSecond, long toEpochSecond) {
        return perSecond.stream()
                .filter(s -> s.epochSecond() >= fromEpochSecond && s.epochSecond() < toEpochSecond)
                .mapToLong(Second::requestsAdmitted).sum();
    }

    /**
     * Utilisation of the binding limit over {@code [fromEpochSecond, toEpochSecond)}: the larger of
     * admitted tokens / (TPM × minutes) and admitted requests / (RPM × minutes), for one API key.
     * 1.0 means the window ran at exactly the configured rate.
     */
    public double utilization(long fromEpochSecond, long toEpochSecond) {
        if (toEpochSecond <= fromEpochSecond) {
            return 0;
        }
        double minutes = (toEpochSecond - fromEpochSecond) / 60.0;
        double tokens = tokensAdmittedBetween(fromEpochSecond, toEpochSecond) / (tpmLimit * minutes);
        double requests = requestsAdmittedBetween(fromEpochSecond, toEpochSecond) / (rpmLimit * minutes);
        return Math.max(tokens, requests);
    }

    /**
     * Admissions during one wall-clock second.
     *
     * @param epochSecond      the second (Unix time)
     * @param requestsAdmitted requests admitted
     * @param tokensAdmitted   admission cost charged (prompt + max_tokens)
     * @param promptTokens     prompt tokens of those requests
     * @param completionTokens completion tokens of those requests
     */
    public record Second(long epochSecond, long requestsAdmitted, long tokensAdmitted, long promptTokens,
                         long completionTokens) {
    }
}

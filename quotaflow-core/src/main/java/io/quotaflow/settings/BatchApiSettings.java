package io.quotaflow.settings;

import java.time.Duration;

/**
 * How a route uses the provider's Batch API ({@code route.<name>.mode=batch}, docs/design.md, "Batch
 * routes"): its calls are collected into batch jobs (a JSONL file of chat-completions requests,
 * {@code POST /v1/files} and {@code POST /v1/batches}), polled, and their output read back line by line.
 * {@link #ONLINE} for a route that calls the chat endpoint directly.
 *
 * @param enabled           {@code mode=batch}
 * @param maxRequests       most requests (calls) in one job; OpenAI's limit is 50,000
 * @param maxFileBytes      most bytes of one job's input file; OpenAI's limit is 200 MB
 * @param maxEnqueuedTokens most tokens (prompt + {@code max_tokens}) of the route's jobs not yet finished: the
 *                          provider's enqueued-token limit per model
 * @param collect           how long a job collects calls before it is submitted (earlier when full)
 * @param poll              how often a submitted job's status is asked for
 * @param priceFactor       the batch price as a share of the route's {@code price.*} (OpenAI: half)
 * @param expiryGrace       how long past its completion window a job whose status cannot be read (or is not one
 *                          this build knows) is still waited for before it ends here as expired
 */
public record BatchApiSettings(boolean enabled, int maxRequests, long maxFileBytes, long maxEnqueuedTokens, Duration collect,
                               Duration poll, double priceFactor, Duration expiryGrace) {

    /** The completion window every job is created with ({@code completion_window=24h}, the only one OpenAI takes). */
    public static final Duration COMPLETION_WINDOW = Duration.ofHours(24);
    public static final Duration DEFAULT_EXPIRY_GRACE = Duration.ofHours(1);

    public static final int DEFAULT_MAX_REQUESTS = 50_000;
    public static final long DEFAULT_MAX_FILE_BYTES = 200L * 1024 * 1024;
    public static final long DEFAULT_MAX_ENQUEUED_TOKENS = 2_000_000;
    public static final Duration DEFAULT_COLLECT = Duration.ofSeconds(60);
    public static final Duration DEFAULT_POLL = Duration.ofSeconds(30);
    public static final double DEFAULT_PRICE_FACTOR = 0.5;

    /** A route that calls the chat endpoint directly. */
    public static final BatchApiSettings ONLINE = new BatchApiSettings(false, DEFAULT_MAX_REQUESTS, DEFAULT_MAX_FILE_BYTES,
            DEFAULT_MAX_ENQUEUED_TOKENS, DEFAULT_COLLECT, DEFAULT_POLL, DEFAULT_PRICE_FACTOR, DEFAULT_EXPIRY_GRACE);

    /** A route's Batch API use with the default {@link #expiryGrace}. */
    public BatchApiSettings(boolean enabled, int maxRequests, long maxFileBytes, long maxEnqueuedTokens, Duration collect,
                            Duration poll, double priceFactor) {
        this(enabled, maxRequests, maxFileBytes, maxEnqueuedTokens, collect, poll, priceFactor, DEFAULT_EXPIRY_GRACE);
    }

    public BatchApiSettings {
        QuotaSettings.require(maxRequests >= 1 && maxRequests <= DEFAULT_MAX_REQUESTS, "batch.max-requests must be in [1, 50000]");
        QuotaSettings.require(maxFileBytes >= 1024, "batch.max-file-bytes must be at least 1024");
        QuotaSettings.require(maxEnqueuedTokens >= 1, "batch.max-enqueued-tokens must be at least 1");
        QuotaSettings.require(collect != null && !collect.isNegative(), "batch.collect-ms must be >= 0");
        QuotaSettings.require(poll != null && poll.toMillis() >= 1, "batch.poll-ms must be at least 1");
        QuotaSettings.require(Double.isFinite(priceFactor) && priceFactor >= 0 && priceFactor <= 1,
                "price.batch-factor must be in [0, 1]");
        QuotaSettings.require(expiryGrace != null && !expiryGrace.isNegative(), "batch.expiry-grace-ms must be >= 0");
    }

    /** A batch route with the defaults. */
    public static BatchApiSettings batch() {
        return ONLINE.withEnabled(true);
    }

    public BatchApiSettings withEnabled(boolean value) {
        return new BatchApiSettings(value, maxRequests, maxFileBytes, maxEnqueuedTokens, collect, poll, priceFactor, expiryGrace);
    }

    public BatchApiSettings withMaxRequests(int value) {
        return new BatchApiSettings(enabled, value, maxFileBytes, maxEnqueuedTokens, collect, poll, priceFactor, expiryGrace);
    }

    public BatchApiSettings withMaxFileBytes(long value) {
        return new BatchApiSettings(enabled, maxRequests, value, maxEnqueuedTokens, collect, poll, priceFactor, expiryGrace);
    }

    public BatchApiSettings withMaxEnqueuedTokens(long value) {
        return new BatchApiSettings(enabled, maxRequests, maxFileBytes, value, collect, poll, priceFactor, expiryGrace);
    }

    public BatchApiSettings withCollect(Duration value) {
        return new BatchApiSettings(enabled, maxRequests, maxFileBytes, maxEnqueuedTokens, value, poll, priceFactor, expiryGrace);
    }

    public BatchApiSettings withPoll(Duration value) {
        return new BatchApiSettings(enabled, maxRequests, maxFileBytes, maxEnqueuedTokens, collect, value, priceFactor, expiryGrace);
    }

    public BatchApiSettings withPriceFactor(double value) {
        return new BatchApiSettings(enabled, maxRequests, maxFileBytes, maxEnqueuedTokens, collect, poll, value, expiryGrace);
    }

    public BatchApiSettings withExpiryGrace(Duration value) {
        return new BatchApiSettings(enabled, maxRequests, maxFileBytes, maxEnqueuedTokens, collect, poll, priceFactor, value);
    }

    /** How long after its submission a job not known to have ended is given up as expired: the window plus the grace. */
    public Duration expiresAfter() {
        return COMPLETION_WINDOW.plus(expiryGrace);
    }

    /** What a call on such a route costs at {@code listed} prices. */
    public Prices prices(Prices listed) {
        return enabled ? new Prices(listed.inputPerMtok() * priceFactor, listed.outputPerMtok() * priceFactor) : listed;
    }
}

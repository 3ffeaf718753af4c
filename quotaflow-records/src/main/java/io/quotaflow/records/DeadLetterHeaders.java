package io.quotaflow.records;

/**
 * The names of quotaflow's headers on {@code tickets.retry} and {@code tickets.dlq}: one versioned
 * schema ({@value #SCHEMA_VERSION}, in {@value #VERSION}) of UTF-8 strings under the {@code qf.}
 * prefix, described by {@code schemas/dead-letter.schema.json}. A record's value there is the
 * producer's original bytes; its key, the ticket's. Readers ignore {@code qf.*} headers they do not
 * know, so later versions may add some.
 */
public final class DeadLetterHeaders {

    public static final String VERSION = "qf.version";
    public static final String ATTEMPT = "qf.attempt";
    public static final String NOT_BEFORE = "qf.not-before";
    public static final String FIRST_FAILURE = "qf.first-failure";
    public static final String LAST_FAILURE = "qf.last-failure";
    public static final String ENQUEUED_AT = "qf.enqueued-at";
    /** When the publication this copy is was made (its record timestamp at intake), epoch ms. */
    public static final String PUBLISHED_AT = "qf.published-at";
    /** Milliseconds the ticket's failed model calls took, summed over its attempts so far. */
    public static final String CALL_MS = "qf.call-ms";
    /** Milliseconds of backoff the ticket's retries were given, summed over its attempts so far. */
    public static final String RETRY_WAIT_MS = "qf.retry-wait-ms";
    public static final String ERROR_KIND = "qf.error.kind";
    public static final String ERROR_STATUS = "qf.error.status";
    public static final String ERROR_MESSAGE = "qf.error.message";
    public static final String ORIGIN_TOPIC = "qf.origin.topic";
    public static final String ORIGIN_PARTITION = "qf.origin.partition";
    public static final String ORIGIN_OFFSET = "qf.origin.offset";
    public static final String REPLAY_COUNT = "qf.replay.count";
    public static final String REPLAY_OF = "qf.replay.of";
    public static final String BATCH_CAP = "qf.batch-cap";
    public static final String MAX_TOKENS_BOOST = "qf.max-tokens-boost";
    /** The route a retry returns to (a route's name, never a key). */
    public static final String ROUTE = "qf.route";
    /** The ticket's tenant (absent when the value could not be read as a ticket). */
    public static final String TENANT = "qf.tenant";
    /** The route a ticket fell back from, and why. */
    public static final String FALLBACK_FROM = "qf.fallback.from";
    public static final String FALLBACK_REASON = "qf.fallback.reason";
    /** Size in bytes of the producer's record value, when the value carried is not all of it. */
    public static final String ORIGINAL_SIZE = "qf.original.size";
    /** SHA-256 (hex) of the producer's record value, when the value carried is not all of it. */
    public static final String ORIGINAL_SHA256 = "qf.original.sha256";
    /** {@code true}: the value is not the producer's bytes (truncated, or a reduced ticket); see {@code qf.origin.*}. */
    public static final String VALUE_TRUNCATED = "qf.value.truncated";
    /** How many of the producer's headers were left off (over {@code records.max-header-bytes}). */
    public static final String HEADERS_DROPPED = "qf.headers.dropped";
    /** The topic a write failed for, on an {@code internal-error} dead letter from the production handler. */
    public static final String FAILED_TOPIC = "qf.failed.topic";
    /** The prefix of quotaflow's own headers: on input topics only the replay pair is honoured. */
    public static final String PREFIX = "qf.";

    public static final String SCHEMA_VERSION = "1";
    public static final int MAX_MESSAGE_LENGTH = 300;

    private DeadLetterHeaders() {
    }
}

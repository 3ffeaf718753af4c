package io.quotaflow.settings;

/**
 * The name of every configuration key, one constant each, so that no key is spelled twice in the code (as Kafka's
 * {@code ProducerConfig.ACKS_CONFIG}): the key table ({@code config/ConfigKeys}) defines each key's type, default, rule
 * and meaning under its constant, and the readers, commands and messages name a key through it. It sits with the
 * settings records, the lowest layer that names keys, so every package may use it; {@code KeyLiteralsTest} fails
 * when a key's name is written out anywhere else in the main sources.
 */
public final class Keys {

    public static final String BOOTSTRAP_SERVERS = "bootstrap.servers";
    public static final String TOPICS_PREFIX = "topics.prefix";
    public static final String TOPICS_MANAGE = "topics.manage";
    public static final String CLUSTER_CHECK_TIMEOUT_MS = "cluster.check-timeout-ms";
    public static final String APPLICATION_ID = "application.id";
    public static final String STATE_DIR = "state.dir";
    public static final String STATE_MEMORY_MB = "state.memory-mb";
    public static final String LOG_FORMAT = "log.format";
    public static final String LOG_LEVEL = "log.level";
    public static final String HTTP_PORT = "http.port";
    public static final String HTTP_BIND = "http.bind";
    public static final String HTTP_AUTH_TOKEN_FILE = "http.auth-token-file";
    public static final String HTTP_TLS_CERT_FILE = "http.tls.cert-file";
    public static final String HTTP_TLS_KEY_FILE = "http.tls.key-file";
    public static final String HTTP_TLS_CA_FILE = "http.tls.ca-file";
    public static final String HTTP_TOKENS_FILE = "http.tokens-file";
    public static final String HTTP_TLS_KEYSTORE_FILE = "http.tls.keystore-file";
    public static final String HTTP_TLS_KEYSTORE_PASSWORD_FILE = "http.tls.keystore-password-file";
    public static final String HTTP_IDLE_TIMEOUT_MS = "http.idle-timeout-ms";
    public static final String HTTP_FORWARD_TIMEOUT_MS = "http.forward-timeout-ms";
    public static final String HTTP_ADVERTISED_HOST = "http.advertised-host";
    public static final String METRICS_KAFKA = "metrics.kafka";
    public static final String METRICS_TENANT_LABELS = "metrics.tenant-labels";
    public static final String OTEL_TRACES_EXPORTER = "otel.traces.exporter";
    public static final String OTEL_CAPTURE_CONTENT = "otel.capture-content";
    public static final String INSTANCE_ID = "instance.id";
    public static final String INSTANCE_SESSION_TIMEOUT_MS = "instance.session-timeout-ms";
    public static final String INSTANCE_HEARTBEAT_INTERVAL_MS = "instance.heartbeat-interval-ms";
    public static final String INSTANCE_TRANSACTION_TIMEOUT_MS = "instance.transaction-timeout-ms";
    public static final String INSTANCE_TAKEOVER_CREDIT = "instance.takeover-credit";
    public static final String RECORDS_MAX_VALUE_BYTES = "records.max-value-bytes";
    public static final String RECORDS_MAX_HEADER_BYTES = "records.max-header-bytes";
    public static final String BATCH_MAX_BYTES = "batch.max-bytes";
    public static final String LLM_BASE_URL = "llm.base-url";
    public static final String LLM_MODEL = "llm.model";
    public static final String LLM_API_KEY_FILE = "llm.api-key-file";
    public static final String LLM_TIMEOUT_MS = "llm.timeout-ms";
    public static final String LLM_CONTEXT_TOKENS = "llm.context-tokens";
    public static final String LLM_ENCODING = "llm.encoding";
    public static final String LLM_DIALECT = "llm.dialect";
    public static final String LLM_API_VERSION = "llm.api-version";
    public static final String LLM_DEPLOYMENT = "llm.deployment";
    public static final String CLASSIFY_CATEGORIES = "classify.categories";
    public static final String CLASSIFY_URGENCIES = "classify.urgencies";
    public static final String QUOTA_RPM = "quota.rpm";
    public static final String QUOTA_TPM = "quota.tpm";
    public static final String QUOTA_SAFETY_FACTOR = "quota.safety-factor";
    public static final String QUOTA_BURST_SECONDS = "quota.burst-seconds";
    public static final String QUOTA_MAX_IN_FLIGHT = "quota.max-in-flight";
    public static final String QUOTA_MAX_IN_FLIGHT_CEILING = "quota.max-in-flight-ceiling";
    public static final String QUOTA_RESERVE_FRACTION = "quota.reserve-fraction";
    public static final String BATCH_MAX_ITEMS = "batch.max-items";
    public static final String BATCH_MAX_PROMPT_TOKENS = "batch.max-prompt-tokens";
    public static final String BATCH_COMPLETION_TOKENS_PER_ITEM = "batch.completion-tokens-per-item";
    public static final String BATCH_PUNCTUATE_MS = "batch.punctuate-ms";
    public static final String BATCH_STANDARD_LINGER_MS = "batch.standard-linger-ms";
    public static final String BATCH_BULK_LINGER_MS = "batch.bulk-linger-ms";
    public static final String RETRY_BASE_MS = "retry.base-ms";
    public static final String RETRY_CAP_MS = "retry.cap-ms";
    public static final String RETRY_MAX_ATTEMPTS = "retry.max-attempts";
    public static final String RETRY_MAX_AGE_MS = "retry.max-age-ms";
    public static final String RETRY_CIRCUIT_OPEN_MS = "retry.circuit-open-ms";
    public static final String RETRY_HALT_PROBE_MS = "retry.halt-probe-ms";
    public static final String ROUTES = "routes";
    public static final String ROUTING_DEFAULT = "routing.default";
    public static final String ROUTING_PRIORITY_PREFIX = "routing.priority.";
    /** The families of per-priority keys: the prefix, then the priority's wire name ({@code queue.max-depth.bulk}). */
    public static final String ROUTING_MAX_WAIT_PREFIX = "routing.max-wait.";
    public static final String QUEUE_MAX_DEPTH_PREFIX = "queue.max-depth.";
    public static final String QUEUE_MAX_WAIT_PREFIX = "queue.max-wait.";
    public static final String DEADLINE_PREFIX = "deadline.";
    public static final String ROUTING_MAX_WAIT_INTERACTIVE = "routing.max-wait.interactive";
    public static final String ROUTING_MAX_WAIT_STANDARD = "routing.max-wait.standard";
    public static final String ROUTING_MAX_WAIT_BULK = "routing.max-wait.bulk";
    public static final String CACHE_TTL = "cache.ttl";
    public static final String CACHE_STALE_TTL = "cache.stale-ttl";
    public static final String CACHE_SCOPE = "cache.scope";
    public static final String TENANTS_FROM = "tenants.from";
    public static final String TENANTS_ALLOWED = "tenants.allowed";
    public static final String TENANTS_UNKNOWN = "tenants.unknown";
    public static final String STATUS_RETENTION = "status.retention";
    public static final String QUEUE_MAX_DEPTH_INTERACTIVE = "queue.max-depth.interactive";
    public static final String QUEUE_MAX_DEPTH_STANDARD = "queue.max-depth.standard";
    public static final String QUEUE_MAX_DEPTH_BULK = "queue.max-depth.bulk";
    public static final String QUEUE_MAX_WAIT_INTERACTIVE = "queue.max-wait.interactive";
    public static final String QUEUE_MAX_WAIT_STANDARD = "queue.max-wait.standard";
    public static final String QUEUE_MAX_WAIT_BULK = "queue.max-wait.bulk";
    public static final String DEADLINE_INTERACTIVE = "deadline.interactive";
    public static final String DEADLINE_STANDARD = "deadline.standard";
    public static final String DEADLINE_BULK = "deadline.bulk";
    public static final String DEADLINE_ACTION = "deadline.action";
    public static final String DEADLINE_HALT_GRACE = "deadline.halt-grace";
    public static final String QUEUE_MAX_PENDING = "queue.max-pending";
    public static final String INTAKE_HOLD_DISPATCH_LAG = "intake.hold-dispatch-lag";
    public static final String DISPATCH_PARTITIONS = "dispatch.partitions";

    private Keys() {
    }
}

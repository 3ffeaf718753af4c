package io.quotaflow.config;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.Dialect;
import io.quotaflow.settings.GroupMembership;
import io.quotaflow.settings.HttpSettings;
import io.quotaflow.settings.Keys;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RecordLimits;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.DeadlineSettings;
import io.quotaflow.state.BoundedRocksDb;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The rows of {@link ConfigKeys}: each key once, with its type, validator ({@link ConfigRules}), default, flag and
 * meaning, in the order of the configuration reference's table. {@link ConfigKeys} answers questions about them.
 */
final class KeyTable {

    final ConfigDef def = new ConfigDef();
    final Map<String, String> defaults = new LinkedHashMap<>();
    final Map<String, String> flags = new LinkedHashMap<>();
    final Map<String, String> templates = new LinkedHashMap<>();

    private KeyTable() {
    }

    /** Every row, in table order. */
    static KeyTable build() {
        KeyTable t = new KeyTable();
        t.cluster();
        t.model();
        RouteKeys.define(t);
        t.rules();
        return t;
    }

    /** Cluster, topics, state, logs, HTTP, metrics, membership and record limits. */
    private void cluster() {
        RecordLimits l = RecordLimits.ofDefaults();
        add(Keys.BOOTSTRAP_SERVERS, Type.STRING, null, "--bootstrap-servers", "Kafka bootstrap servers (required by every "
                + "command that talks to a cluster)");
        add(Keys.TOPICS_PREFIX, Type.STRING, ConfigRules.pattern("letters, digits, '.', '_' or '-', at most 100 characters", "[A-Za-z0-9._-]{0,100}"),
                "", "--topics-prefix", "prefix of every quotaflow topic name, and of the "
                + "default application id, so several deployments share one cluster (e.g. `team-a.` gives "
                + "`team-a.tickets.standard`)");
        add(Keys.TOPICS_MANAGE, Type.STRING, ConfigRules.oneOf("apply", "verify", "none"),
                "apply", null, "what `run` does with the topics declared in `topics/` at "
                + "start: `apply` creates and updates them (as `topics apply`); `verify` changes nothing and refuses to start "
                + "(exit 2), naming each topic and difference, when the cluster disagrees; `none` neither reads nor changes "
                + "them (topics owned by Terraform, Strimzi or a service account without topic rights)");
        add(Keys.CLUSTER_CHECK_TIMEOUT_MS, Type.LONG, ConfigRules.atLeast("at least 1", 1),
                "10000", null, "how long a command waits for the cluster's first "
                + "answer before it stops with one line naming the servers");
        add(Keys.APPLICATION_ID, Type.STRING, ConfigRules.pattern("letters, digits, '.', '_' or '-'", "[A-Za-z0-9._-]+"),
                "quotaflow", "--application-id", "Kafka Streams application id; instances "
                + "sharing it share work and quota (default: `<topics.prefix>quotaflow`)");
        add(Keys.STATE_DIR, Type.STRING, "~/.quotaflow/state", "--state-dir", "local state (RocksDB stores, restored "
                + "from changelogs)");
        add(Keys.STATE_MEMORY_MB, Type.INT, ConfigRules.atLeast("at least " + BoundedRocksDb.MIN_MEMORY_MB, BoundedRocksDb.MIN_MEMORY_MB),
                Integer.toString(io.quotaflow.state.BoundedRocksDb.DEFAULT_MEMORY_MB), null,
                "off-heap memory of all the instance's RocksDB stores together (one shared block cache, index and filter "
                + "blocks and memtables included; a quarter for memtables); without a bound each store takes up to 98 MiB "
                + "of its own; a `kafka.rocksdb.config.setter` replaces it (docs/design.md, \"Bounds\")");
        add(Keys.LOG_FORMAT, Type.STRING, ConfigRules.oneOf("text", "json"),
                "text", "--log-format", "log lines on stderr: `text` (an ISO-8601 UTC time, level, "
                + "thread, logger, message) or `json` (one object per line: `timestamp`, `level`, `logger`, `thread`, `message`, "
                + "`exception`) for a log shipper (docs/operations.md, \"Logs\")");
        add(Keys.LOG_LEVEL, Type.STRING, ConfigRules.oneOf("error", "warn", "info", "debug", "trace"),
                "info", null, "level of quotaflow's own loggers (`error`, `warn`, `info`, `debug`, "
                + "`trace`); `info` adds state changes that need no one (a circuit closed again, a halt ended) to the warnings "
                + "and errors; Kafka's client loggers stay at `warn` (`--verbose`: `info`)");
        add(Keys.HTTP_PORT, Type.INT, ConfigRules.between("a port in [-1, 65535] (0: any free port, -1: off)", -1, 65_535),
                "8080", "--http-port", "`/metrics`, `/health/live`, `/health/ready`, `/status`, `/tickets/{id}`; "
                + "`-1` turns it off");
        add(Keys.HTTP_BIND, Type.STRING, QuotaflowConfig.DEFAULT_HTTP_BIND, "--http-bind", "address those endpoints listen on: "
                + "every interface (what a container needs, so anyone who reaches the port can read them: set "
                + "`http.auth-token-file`); `127.0.0.1` keeps them local");
        add(Keys.HTTP_AUTH_TOKEN_FILE, Type.STRING, null, null, "file holding a bearer token: `/status` and "
                + "`/tickets/{id}` then require `Authorization: Bearer <token>` (401 otherwise) and peer forwarding "
                + "sends it; probes and `/metrics` stay open (at least 16 visible ASCII characters)");
        add(Keys.HTTP_TOKENS_FILE, Type.STRING, null, null, "file of `TOKEN TENANT` lines (`#` comments; `*` as the tenant: "
                + "an operator token): `/tickets/{id}` then answers a tenant's token for its own tenant's tickets only "
                + "(404 for another's), `/status` operator tokens only (403), no or an unknown token 401; read again when it "
                + "changes; with `http.auth-token-file` both files' tokens count (docs/operations.md, \"Tenants and access\")");
        add(Keys.HTTP_TLS_CERT_FILE, Type.STRING, null, null, "PEM certificate chain (the server's first): with "
                + "`http.tls.key-file`, the endpoints serve HTTPS and forward to the other instances over HTTPS");
        add(Keys.HTTP_TLS_CA_FILE, Type.STRING, null, null, "PEM certificates of the authority the other instances' "
                + "certificates are signed by: peer forwarding trusts it besides the JVM's authorities and this instance's own "
                + "chain (host names verified); read again when it changes, like the certificate and key");
        add(Keys.HTTP_TLS_KEY_FILE, Type.STRING, null, null, "PEM private key of `http.tls.cert-file`, unencrypted "
                + "(`BEGIN PRIVATE KEY` or `BEGIN RSA PRIVATE KEY`)");
        add(Keys.HTTP_TLS_KEYSTORE_FILE, Type.STRING, null, null, "PKCS12 keystore (key and chain) to serve HTTPS "
                + "with, instead of the PEM pair");
        add(Keys.HTTP_TLS_KEYSTORE_PASSWORD_FILE, Type.STRING, null, null, "file holding the password of "
                + "`http.tls.keystore-file` (required with it)");
        add(Keys.HTTP_IDLE_TIMEOUT_MS, Type.LONG, ConfigRules.atLeast("at least 100 (milliseconds)", 100),
                Long.toString(HttpSettings.DEFAULT_IDLE_TIMEOUT.toMillis()), null,
                "a connection that sends or reads nothing for this long is closed (a stalled client holds a connection, "
                + "never a thread)");
        add(Keys.HTTP_FORWARD_TIMEOUT_MS, Type.LONG, ConfigRules.atLeast("at least 100 (milliseconds)", 100),
                Long.toString(HttpSettings.DEFAULT_FORWARD_TIMEOUT.toMillis()), null,
                "how long `GET /tickets/{id}` waits for the other instances, asked all at once, before it answers what "
                + "it knows (`unknown`)");
        add(Keys.HTTP_ADVERTISED_HOST, Type.STRING, null, null, "host name the other instances reach this one's endpoints at "
                + "(Kafka Streams' `application.server`, for `GET /tickets/{id}` forwarding): by default the `http.bind` "
                + "address, or this host's name when it binds every interface; on Kubernetes the pod's DNS name through a "
                + "headless Service (docs/operations.md, \"Kubernetes\")");
        add(Keys.METRICS_KAFKA, Type.STRING, ConfigRules.oneOf("off", "curated"),
                "off", null, "Kafka client and Streams metrics on `/metrics`: `off` serves none "
                + "(quotaflow's own families, the JVM's and `quotaflow_consumer_lag_records` cover the alerts); `curated` adds a "
                + "short allow-list (lag, commit and process rates, producer errors and retries, thread counts) labelled "
                + "without the process UUID (docs/operations.md, \"Metrics\")");
        add(Keys.METRICS_TENANT_LABELS, Type.BOOLEAN, null, "false", null, "`true`: the per-tenant families "
                + "(`quotaflow_tenant_*`) carry each tenant's name (at most 50, the rest as `other`); `false`: one series "
                + "labelled `tenant=\"all\"`, so a scrape does not list the tenants (docs/operations.md, \"Metrics\")");
        add(Keys.OTEL_TRACES_EXPORTER, Type.STRING, null, null, "traces: `otlp`, `console`, `logging-otlp` or `none` "
                + "(OpenTelemetry's `otel.traces.exporter`). The standard `OTEL_TRACES_EXPORTER` variable (or the `-Dotel.traces.exporter` "
                + "system property, which wins over both) wins over this key when set, `none` included; with none of them no SDK "
                + "starts and nothing is sent. The other `OTEL_*` variables (endpoint, protocol, service name, "
                + "resource attributes, sampler) work as in any OpenTelemetry service (docs/operations.md, \"Traces\")");
        add(Keys.OTEL_CAPTURE_CONTENT, Type.BOOLEAN, null, "false", null, "`true`: each model call's span carries the "
                + "prompt's messages (`gen_ai.input.messages`: the tickets' text, customer data); `false` (the default): no "
                + "prompt or answer content in any span (docs/operations.md, \"Traces\")");
        add(Keys.INSTANCE_ID, Type.STRING, "auto", "--instance-id", "static group membership (`group.instance.id`): "
                + "`auto` derives a stable id from the host name and `state.dir`, so an instance restarted after a "
                + "crash takes its tasks back at once; `none` for dynamic membership; or a value unique per instance");
        add(Keys.INSTANCE_SESSION_TIMEOUT_MS, Type.INT, Integer.toString(GroupMembership.DEFAULT_SESSION_TIMEOUT_MS), null,
                "how long the group waits for an instance that stopped heartbeating (Kafka's `session.timeout.ms`) before "
                + "its tasks, and so its quota scopes, move to the others; one restarted within it keeps its tasks. At "
                + "least the broker's `group.min.session.timeout.ms` (6000 by default); a `kafka.session.timeout.ms` wins "
                + "(docs/operations.md, \"Failover\")");
        add(Keys.INSTANCE_HEARTBEAT_INTERVAL_MS, Type.INT, Integer.toString(GroupMembership.DEFAULT_HEARTBEAT_INTERVAL_MS),
                null, "how often an instance tells the group it lives (Kafka's `heartbeat.interval.ms`), below "
                + "`instance.session-timeout-ms`; a `kafka.heartbeat.interval.ms` wins");
        add(Keys.INSTANCE_TRANSACTION_TIMEOUT_MS, Type.INT, Integer.toString(GroupMembership.DEFAULT_TRANSACTION_TIMEOUT_MS),
                null, "how long a transaction may stay open (Kafka's `transaction.timeout.ms`; Kafka Streams' own default "
                + "is 10000): a dead instance's open transaction holds its tasks' changelogs, and so their new owner, until "
                + "the broker aborts it; a `kafka.transaction.timeout.ms` wins");
        add(Keys.INSTANCE_TAKEOVER_CREDIT, Type.STRING, ConfigRules.oneOf("on", "off"),
                "on", null, "`on`: a new owner of a quota scope (a restart, a task "
                + "moved from a dead instance) starts with the refill the provider certainly gave since the scope's last "
                + "recorded call, over at most the session timeout; without a record, the refill since its instance started, "
                + "over the same bound; only to a limit set or recorded (one still to be learned earns its burst), at most the "
                + "local burst; `off`: it earns its burst from empty (docs/design.md, \"Limiter\")");
        add(Keys.RECORDS_MAX_VALUE_BYTES, Type.INT, Integer.toString(l.maxValueBytes()), null, "largest value written "
                + "as it is: a larger input travels as its reduced ticket and is dead-lettered truncated; with "
                + "`records.max-header-bytes` and 24 KiB of overhead it must fit the producer's `max.request.size`");
        add(Keys.RECORDS_MAX_HEADER_BYTES, Type.INT, Integer.toString(l.maxHeaderBytes()), null, "most bytes of a "
                + "producer's own headers carried onto retries and dead letters (the rest are counted in "
                + "`qf.headers.dropped`)");
        add(Keys.BATCH_MAX_BYTES, Type.INT, Integer.toString(l.maxBatchBytes()), null, "most ticket bytes in one model "
                + "call (a single larger ticket goes alone)");
    }

    /** The provider, its quota, batching and retries (the single-route options). */
    private void model() {
        QuotaSettings q = QuotaSettings.ofDefaults();
        BatchSettings b = BatchSettings.ofDefaults();
        RetrySettings r = RetrySettings.ofDefaults();
        add(Keys.LLM_BASE_URL, Type.STRING, ConfigRules.absoluteUrl(),
                null, "--llm-base-url", "API root including the version, e.g. "
                + "`https://api.openai.com/v1` (required by `run`)");
        add(Keys.LLM_MODEL, Type.STRING, "gpt-4o-mini", "--llm-model", "model name");
        add(Keys.LLM_API_KEY_FILE, Type.STRING, null, "--llm-api-key-file", "file holding the API key; else "
                + "`QUOTAFLOW_LLM_API_KEY`");
        add(Keys.LLM_TIMEOUT_MS, Type.LONG, "60000", null, "whole-call deadline: connect, headers and body");
        add(Keys.LLM_CONTEXT_TOKENS, Type.INT, "128000", null, "context window to start with (then learned from the "
                + "provider's 400s); a ticket that cannot fit alone is dead-lettered `too-large`");
        add(Keys.LLM_ENCODING, Type.STRING, null, null, "jtokkit encoding (default by model: `o200k_base` for "
                + "gpt-4o/4.1/5/o-series, else `cl100k_base`)");
        add(Keys.LLM_DIALECT, Type.STRING, ConfigRules.dialect(),
                "openai", "--dialect", "how the provider is spoken to: `openai` (and any "
                + "OpenAI-compatible server), `azure` (Azure OpenAI: `api-key` header, deployment URLs), `anthropic` (its "
                + "OpenAI-compatible endpoint), `gemini` (its OpenAI-compatible endpoint); each with its rate-limit headers and "
                + "errors (docs/configuration.md, \"Provider dialects\")");
        add(Keys.LLM_API_VERSION, Type.STRING, ConfigRules.strippedPattern("letters, digits, '.', '_' or '-'", "[A-Za-z0-9._-]+"),
                null, null, "Azure's `api-version` (default `" + Dialect.DEFAULT_AZURE_API_VERSION
                + "`); only for `llm.dialect=azure`");
        add(Keys.LLM_DEPLOYMENT, Type.STRING, ConfigRules.strippedPattern("letters, digits, '.', '_' or '-'", "[A-Za-z0-9._-]+"),
                null, null, "Azure's deployment name (default: the model); only for "
                + "`llm.dialect=azure`");
        add(Keys.CLASSIFY_CATEGORIES, Type.LIST, String.join(",", ModelSettings.DEFAULT_CATEGORIES), null, "closed set");
        add(Keys.CLASSIFY_URGENCIES, Type.LIST, String.join(",", ModelSettings.DEFAULT_URGENCIES), null, "closed set");
        add(Keys.QUOTA_RPM, Type.STRING, ConfigRules.perMinuteLimit(),
                Integer.toString(q.rpm()), "--rpm", "the provider's requests per minute for this "
                + "key and model: a number is a ceiling (the provider's headers may lower it, never raise it); unset or `auto`, "
                + "the default is a start learned from the provider's headers; `none`: a self-hosted engine, no request limit "
                + "(docs/configuration.md, \"Limits: ceilings and learning\")");
        add(Keys.QUOTA_TPM, Type.STRING, ConfigRules.perMinuteLimit(),
                Integer.toString(q.tpm()), "--tpm", "the provider's tokens per minute for this "
                + "key and model: a number (a ceiling), `auto` (learned, as when unset) or `none` (no token limit)");
        add(Keys.QUOTA_SAFETY_FACTOR, Type.DOUBLE, Double.toString(q.safetyFactor()), null, "fraction of the limits "
                + "to use");
        add(Keys.QUOTA_BURST_SECONDS, Type.DOUBLE, Double.toString(q.burstSeconds()), null, "bucket capacity, in "
                + "seconds of refill (never a full minute)");
        add(Keys.QUOTA_MAX_IN_FLIGHT, Type.STRING, ConfigRules.autoOrPositive(),
                "auto", null, "most calls outstanding: `auto` (Little's law from "
                + "the limits and the measured latency; for a route with `rpm` or `tpm` `none`, or found to look like a self-hosted "
                + "engine (no rate-limit headers, latency rising with calls in flight), also found from the latency: "
                + "raised while calls are not slower, lowered when they are or on an overload, the lower of the two wins) "
                + "or a number");
        add(Keys.QUOTA_MAX_IN_FLIGHT_CEILING, Type.INT, Integer.toString(q.maxInFlightCeiling()), null, "the most "
                + "`auto` may choose");
        add(Keys.QUOTA_RESERVE_FRACTION, Type.DOUBLE, Double.toString(q.reserveFraction()), null, "share of the local "
                + "burst (`quota.burst-seconds` of refill) only interactive work may spend; a bulk backlog's last calls "
                + "spend it when no interactive ticket came in the last five minutes (docs/design.md, \"Limiter\")");
        add(Keys.BATCH_MAX_ITEMS, Type.INT, Integer.toString(b.maxItems()), null, "tickets per call");
        add(Keys.BATCH_MAX_PROMPT_TOKENS, Type.INT, Integer.toString(b.maxPromptTokens()), null, "prompt tokens per "
                + "call (lowered to fit the bucket)");
        add(Keys.BATCH_COMPLETION_TOKENS_PER_ITEM, Type.INT, Integer.toString(b.completionTokensPerItem()), null,
                "`max_tokens` per ticket until the first answer; then learned per batch size (p98 of answers)");
        add(Keys.BATCH_PUNCTUATE_MS, Type.LONG, Long.toString(b.punctuateInterval().toMillis()), null, "dispatcher tick");
        add(Keys.BATCH_STANDARD_LINGER_MS, Type.LONG, Long.toString(b.standardLinger().toMillis()), null, "how long a "
                + "standard batch that is not full may wait to fill up (interactive never waits)");
        add(Keys.BATCH_BULK_LINGER_MS, Type.LONG, Long.toString(b.bulkLinger().toMillis()), null, "the same for bulk");
        add(Keys.RETRY_BASE_MS, Type.LONG, Long.toString(r.base().toMillis()), null, "full-jitter backoff, lower bound");
        add(Keys.RETRY_CAP_MS, Type.LONG, Long.toString(r.cap().toMillis()), null, "full-jitter backoff, upper bound");
        add(Keys.RETRY_MAX_ATTEMPTS, Type.INT, Integer.toString(r.maxAttempts()), null, "attempts before "
                + "`retries-exhausted`");
        add(Keys.RETRY_MAX_AGE_MS, Type.LONG, Long.toString(r.maxAge().toMillis()), null, "age (from intake) after "
                + "which a ticket that has failed, or any ticket while the circuit is open, is dead-lettered "
                + "`retries-exhausted`");
        add(Keys.RETRY_CIRCUIT_OPEN_MS, Type.LONG, Long.toString(r.circuitOpenWait().toMillis()), null, "how long the "
                + "circuit stays open before a half-open probe with one ticket");
        add(Keys.RETRY_HALT_PROBE_MS, Type.LONG, Long.toString(r.haltProbeInterval().toMillis()), null, "how often a "
                + "halted scope probes the provider (a one-token call of its own, no ticket)");
    }

    /** Routing rules, tenants, the cache, statuses, shedding, deadlines and dispatch. */
    private void rules() {
        add(Keys.ROUTING_DEFAULT, Type.STRING, null, null, "route of a ticket no rule below names (default: the first "
                + "of `routes`)");
        for (String p : new String[] {"interactive", "standard", "bulk"}) {
            add(Keys.ROUTING_PRIORITY_PREFIX + p, Type.STRING, null, null, "route of " + p + " tickets");
        }
        template(RouteKeys.TENANT_PREFIX + RouteKeys.TENANT, Type.STRING, null, "route of that tenant's tickets "
                + "(wins over priority)");
        add(Keys.TENANTS_FROM, Type.STRING, ConfigRules.oneOf("key", "topic", "principal", "body"),
                "key", null, "where a ticket's tenant comes from: `key`, the record key's `tenant:` prefix (none: "
                + "`default`), which the body's `tenant` must match; `topic`, the input topic `tickets.<tenant>.<priority>` "
                + "of a tenant of `tenants.allowed`; `principal`, those topics with Kafka ACLs letting only "
                + "`tenant.<name>.principal` write each; `body`, the body's `tenant`, trusting every producer. A ticket whose "
                + "claimed tenant disagrees is dead-lettered `bad-input` (docs/operations.md, \"Tenants and access\")");
        add(Keys.TENANTS_ALLOWED, Type.LIST, ConfigRules.tenantList(), null, null, "the known tenants (`acme,globex`); "
                + "`default` always is; empty: every tenant name is known. Required by `tenants.from=topic|principal`");
        add(Keys.TENANTS_UNKNOWN, Type.STRING, ConfigRules.oneOf("dead-letter", "default"),
                "dead-letter", null, "a ticket of a tenant not in `tenants.allowed`: `dead-letter` (kind `unknown-tenant`) "
                + "or `default` (taken as the `default` tenant's), so invented names never take a share of their own");
        template(TenantKeys.PREFIX + TenantKeys.NAME + ".weight", Type.DOUBLE, ConfigRules.positiveNumber(),
                "1", null, "that tenant's share of "
                + "admitted tokens within a priority class, relative to the others' (docs/design.md, \"Tenants\")");
        template(TenantKeys.PREFIX + TenantKeys.NAME + ".tpm", Type.LONG, ConfigRules.atLeast("at least 1", 1),
                null, "that tenant's own tokens per minute "
                + "(estimated prompt and completion): past it its tickets wait, never rejected (default: no cap)");
        template(TenantKeys.PREFIX + TenantKeys.NAME + ".rpm", Type.LONG, ConfigRules.atLeast("at least 1", 1),
                null, "that tenant's own tickets per minute, "
                + "held the same way; a ticket sent again after a call that did not answer it counts once (default: no cap)");
        template(TenantKeys.PREFIX + TenantKeys.NAME + ".principal", Type.STRING, null, "the Kafka principal "
                + "(`User:alice`) allowed to write that tenant's input topics under `tenants.from=principal` "
                + "(the ACLs: docs/operations.md, \"Tenants and access\")");
        add(Keys.ROUTING_MAX_WAIT_INTERACTIVE, Type.STRING, ConfigRules.durationOrNone(),
                "30s", null, "expected wait beyond which an interactive "
                + "ticket falls back (`none`: never)");
        add(Keys.ROUTING_MAX_WAIT_STANDARD, Type.STRING, ConfigRules.durationOrNone(),
                "10m", null, "the same for standard tickets");
        add(Keys.ROUTING_MAX_WAIT_BULK, Type.STRING, ConfigRules.durationOrNone(),
                null, null, "the same for bulk tickets (default: never)");
        add(Keys.CACHE_TTL, Type.STRING, ConfigRules.duration("; 0 turns the cache off"),
                "24h", null, "how long a classification answers identical tickets "
                + "(`24h`, `30m`, `90s`, milliseconds; `0` turns the cache off)");
        add(Keys.CACHE_STALE_TTL, Type.STRING, ConfigRules.duration("; 0: no stale answers"),
                "7d", null, "how long after `cache.ttl` an answer still answers identical "
                + "tickets, marked `\"stale\": true`, while their route cannot serve (halted, circuit open, out for the day); `0`: never");
        add(Keys.CACHE_SCOPE, Type.STRING, ConfigRules.oneOf("tenant", "global"),
                "tenant", null, "`tenant`: each tenant has its own cache and coalescing "
                + "(identical text of another tenant is asked again); `global`: identical text shares one answer across tenants");
        add(Keys.STATUS_RETENTION, Type.STRING, ConfigRules.duration(", at least 1 s", d -> d.toMillis() >= 1_000),
                "1h", null, "how long a finished ticket's status stays queryable on "
                + "`GET /tickets/{id}` (`1h`, `30m`, `90s`, milliseconds; at least 1 s)");
        add(Keys.QUEUE_MAX_DEPTH_INTERACTIVE, Type.STRING, ConfigRules.positiveOrNone(),
                null, null, "waiting interactive tickets of a route beyond which a new "
                + "one is shed: dead-lettered at once as `shed` (replayable with `dlq replay --kind shed`); default: never");
        add(Keys.QUEUE_MAX_DEPTH_STANDARD, Type.STRING, ConfigRules.positiveOrNone(),
                null, null, "the same for standard tickets");
        add(Keys.QUEUE_MAX_DEPTH_BULK, Type.STRING, ConfigRules.positiveOrNone(),
                null, null, "the same for bulk tickets");
        add(Keys.QUEUE_MAX_WAIT_INTERACTIVE, Type.STRING, ConfigRules.durationOrNone(),
                null, null, "the longest an interactive ticket may be expected to wait "
                + "for its call (`30s`, `5m`, ...); one expected to wait longer is shed: dead-lettered as `shed` (replayable); "
                + "default: never");
        add(Keys.QUEUE_MAX_WAIT_STANDARD, Type.STRING, ConfigRules.durationOrNone(),
                null, null, "the same for standard tickets");
        add(Keys.QUEUE_MAX_WAIT_BULK, Type.STRING, ConfigRules.durationOrNone(),
                null, null, "the same for bulk tickets");
        add(Keys.DEADLINE_INTERACTIVE, Type.STRING, ConfigRules.durationOrNone(),
                null, null, "the deadline of an interactive ticket that carries no `deadline` "
                + "of its own, counted from intake (`30s`, `5m`, ...); default: none");
        add(Keys.DEADLINE_STANDARD, Type.STRING, ConfigRules.durationOrNone(),
                null, null, "the same for standard tickets");
        add(Keys.DEADLINE_BULK, Type.STRING, ConfigRules.durationOrNone(),
                null, null, "the same for bulk tickets");
        add(Keys.DEADLINE_ACTION, Type.STRING, ConfigRules.oneOf("handoff", "shed", "keep"),
                "handoff", null, "what happens to a ticket whose ETA passes its deadline when no "
                + "fallback route can take it: `handoff` (to `tickets.handoff`, the human queue), `shed` (dead-lettered as "
                + "`shed`), `keep` (it waits and is answered late)");
        add(Keys.DEADLINE_HALT_GRACE, Type.STRING, ConfigRules.duration(", from 0 to 1d", d -> d.compareTo(DeadlineSettings.MAX_HALT_GRACE) <= 0),
                "30s", null, "while a route is halted, a ticket with a deadline waits for "
                + "the next halt probe when its ETA from that probe's answer, plus this, is within its deadline; the others "
                + "leave as `deadline.action` says (`30s`, `2m`, ...; 0 to 1d)");
        add(Keys.QUEUE_MAX_PENDING, Type.INT, ConfigRules.atLeast("at least " + DispatcherSettings.MIN_MAX_PENDING, DispatcherSettings.MIN_MAX_PENDING),
                Integer.toString(DispatcherSettings.DEFAULT_MAX_PENDING), null, "waiting "
                + "tickets per quota scope indexed in memory (about 250 bytes of heap each); beyond it they wait on disk "
                + "(the `qf-overflow` store, changelogged) and come back in order as the queue drains, so the heap stays "
                + "bounded whatever the backlog (docs/design.md, \"Bounds\")");
        add(Keys.INTAKE_HOLD_DISPATCH_LAG, Type.INT, ConfigRules.atLeast("an integer, at least 0", 0),
                Long.toString(QuotaflowConfig.DEFAULT_INTAKE_HOLD_LAG), null,
                "records a stream thread's dispatch partitions may lag before it stops taking in new tickets (the "
                + "interactive topic excepted) until its dispatchers have caught up, so that calls start while a backlog is "
                + "still taken in; 0: never hold (docs/design.md, \"Dispatch first\")");
        add(Keys.DISPATCH_PARTITIONS, Type.INT, ConfigRules.between("an integer in [1, "
                + DispatcherSettings.MAX_DISPATCH_PARTITIONS + "]", 1, DispatcherSettings.MAX_DISPATCH_PARTITIONS),
                Integer.toString(DispatcherSettings.DEFAULT_DISPATCH_PARTITIONS), null,
                "partitions of the internal dispatch topics (`<application.id>-dispatch-repartition` and its interactive "
                + "lane): fixed here, not by the input topics, so raising an input topic's partitions never stalls the "
                + "pipeline; each scope is owned by the partition its identity hashes to (more partitions make sharing a task "
                + "rarer); must match the existing "
                + "topic (changing it: docs/operations.md, \"Dispatch partitions\")");
    }


    /** A pattern key: documented and typed like a key, matched by {@link RouteKeys}, never a default of its own. */
    void template(String name, Type type, String inherits, String doc) {
        template(name, type, null, null, inherits, doc);
    }

    /** A pattern key with its validator. */
    void template(String name, Type type, ConfigDef.Validator rule, String inherits, String doc) {
        template(name, type, rule, null, inherits, doc);
    }

    /** A pattern key whose value, when not given, is {@code defaultValue} (shown in the table; read by the loader). */
    void template(String name, Type type, String defaultValue, String inherits, String doc) {
        template(name, type, null, defaultValue, inherits, doc);
    }

    void template(String name, Type type, ConfigDef.Validator rule, String defaultValue, String inherits, String doc) {
        def.define(name, type, defaultValue, rule, Importance.MEDIUM, doc);
        templates.put(name, inherits);
    }

    /** A key whose type is its whole rule. */
    void add(String name, Type type, String defaultValue, String flag, String doc) {
        add(name, type, null, defaultValue, flag, doc);
    }

    /** A key: its type, the rule its value must meet beyond the type (null: none), default, flag and meaning. */
    void add(String name, Type type, ConfigDef.Validator rule, String defaultValue, String flag, String doc) {
        def.define(name, type, defaultValue, rule, Importance.MEDIUM, doc);
        defaults.put(name, defaultValue);
        if (flag != null) {
            flags.put(name, flag);
        }
    }
}

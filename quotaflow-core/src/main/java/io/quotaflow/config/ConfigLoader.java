package io.quotaflow.config;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.ClusterSettings;
import io.quotaflow.settings.Origin;
import io.quotaflow.settings.Keys;
import io.quotaflow.settings.MetricsSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.GroupMembership;
import io.quotaflow.settings.InstanceId;
import io.quotaflow.settings.RecordLimits;
import io.quotaflow.settings.Redactor;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Routing;

/**
 * Builds the configuration of every command from, lowest precedence first: built-in defaults
 * ({@link ConfigKeys}), a properties file ({@code --config}), {@code QUOTAFLOW_*} environment
 * variables ({@code quota.rpm} ⇐ {@code QUOTAFLOW_QUOTA_RPM}), and command-line flags. Any
 * {@code kafka.*} key passes through to the Kafka clients ({@code QUOTAFLOW_KAFKA_SASL_MECHANISM} ⇒
 * {@code sasl.mechanism}).
 *
 * <p>Strict: a key in the file or a {@code QUOTAFLOW_*} variable that quotaflow does not know stops
 * the start ({@link ConfigError}, exit 2) naming it and the closest known one. The variables of
 * {@link ConfigKeys#OTHER_VARIABLES} are read elsewhere by design and accepted, and so are the
 * variables a distribution registers for its own commands ({@code extraVariables}).
 *
 * <p>Routes (docs/design.md, "Routes configuration"): the {@code route.<name>.*} and
 * {@code routing.tenant.<tenant>} keys and their {@code QUOTAFLOW_ROUTE_*} /
 * {@code QUOTAFLOW_ROUTING_TENANT_*} variables are checked against {@code routes} once every
 * source is read ({@link RouteKeys}); {@link RoutingReader} builds the {@link Routing}.
 *
 * <p>The API key is read from {@code QUOTAFLOW_LLM_API_KEY} or the file named by
 * {@code llm.api-key-file} ({@link ApiKeyReader}); {@code llm.api-key} and its close spellings
 * ({@link #isApiKeyName}) are refused in every source, naming the key, never its value.
 */
public final class ConfigLoader {

    public static final String API_KEY_ENV = "QUOTAFLOW_LLM_API_KEY";

    /** Every key understood, with its default ({@code null}: required or optional without default). */
    public static final Map<String, String> DEFAULTS = ConfigKeys.defaults();

    /** How the key must be given, for every refusal. */
    public static final String API_KEY_WAY = "the API key comes from " + API_KEY_ENV
            + " or a file named by --llm-api-key-file (llm.api-key-file), never from a property, variable or flag";

    /** Where a route key given as a flag was, in messages. */
    private static final String FLAG = "given as a flag";

    private ConfigLoader() {
    }

    /** Environment variable name of a key: {@code quota.max-in-flight} ⇒ {@code QUOTAFLOW_QUOTA_MAX_IN_FLIGHT}. */
    public static String envName(String key) {
        return ConfigKeys.envName(key);
    }

    /**
     * Whether {@code key} would carry the API key itself: {@code llm.api-key} and its close spellings
     * ({@code llm.api_key}, {@code api.key}, {@code llm.apikey}, {@code kafka.llm.api-key}, anything
     * ending in {@code api-key}/{@code api_key}/{@code apikey}), and any secret-looking {@code llm.*}
     * key quotaflow does not define ({@code llm.token}, {@code llm.secret}). Kafka's own secrets
     * ({@code kafka.sasl.jaas.config}, {@code kafka.ssl.keystore.password}) are not refused.
     */
    public static boolean isApiKeyName(String key) {
        if (key == null) {
            return false;
        }
        String k = key.strip().toLowerCase(Locale.ROOT);
        String squashed = k.replaceAll("[^a-z0-9]", "");
        if (squashed.endsWith("apikey")) {
            return true;
        }
        boolean known = DEFAULTS.keySet().stream().anyMatch(d -> d.replaceAll("[^a-z0-9]", "").equals(squashed));
        return k.startsWith("llm.") && !known && Redactor.isSecretName(k);
    }

    /**
     * Reads and checks every source. {@code flags} are keyed by configuration key ({@code quota.rpm},
     * {@code kafka.*} for {@code -X}); a null value is not given.
     */
    public static ConfigValues resolve(Path file, Map<String, String> env, Map<String, String> flags) {
        return resolve(file, env, flags, Set.of());
    }

    /** As above, accepting {@code extraVariables}: the variables a distribution's own commands read. */
    public static ConfigValues resolve(Path file, Map<String, String> env, Map<String, String> flags, Set<String> extraVariables) {
        Map<String, Setting> out = new LinkedHashMap<>();
        ConfigKeys.defaults().forEach((k, v) -> {
            if (v != null) {
                out.put(k, new Setting(k, expandHome(k, v), Origin.DEFAULT));
            }
        });
        List<String> unknown = new ArrayList<>();
        Map<String, String> patterned = new LinkedHashMap<>();
        if (file != null) {
            fromFile(file, out, patterned, unknown);
        }
        Map<String, String> routeVariables = fromEnvironment(env, extraVariables, out, unknown);
        fromFlags(flags, out, patterned, unknown);
        List<String> routes = routeNames(out.get(Keys.ROUTES));
        routeVariables.forEach((name, value) -> {
            RouteKeys.Resolution r = RouteKeys.resolve(name, routes);
            if (r instanceof RouteKeys.Unresolved u) {
                unknown.add(u.message());
            } else if (r instanceof RouteKeys.Resolved key && !FLAG.equals(patterned.get(key.key()))) {
                out.put(key.key(), new Setting(key.key(), expandHome(key.key(), value.strip()), Origin.env(name)));
            }
        });
        patterned.forEach((k, where) -> RouteKeys.problem(k, where, routes).ifPresent(unknown::add));
        if (!unknown.isEmpty()) {
            throw new ConfigError(String.join("\n", unknown));
        }
        return new ConfigValues(out);
    }

    /** The {@code --config} file's keys into {@code out}; route keys also into {@code patterned}, checked later. */
    private static void fromFile(Path file, Map<String, Setting> out, Map<String, String> patterned, List<String> unknown) {
        for (Setting s : PropertiesFile.read(file)) {
            refuseApiKey(s.key(), "in the config file");
            if (ConfigKeys.isKnown(s.key()) || s.key().startsWith(ConfigKeys.KAFKA_PREFIX) || RouteKeys.isCandidate(s.key())) {
                out.put(s.key(), new Setting(s.key(), expandHome(s.key(), s.value()), s.origin()));
                if (RouteKeys.isCandidate(s.key())) {
                    patterned.put(s.key(), "in " + s.origin());
                }
            } else {
                unknown.add("unknown key '" + Redactor.scrub(s.key()) + "' in " + s.origin()
                        + ConfigKeys.closestKey(s.key()).map(c -> "; did you mean " + c + "?").orElse(""));
            }
        }
    }

    /** The flags into {@code out} (over every other source); route keys also into {@code patterned}, checked later. */
    private static void fromFlags(Map<String, String> flags, Map<String, Setting> out, Map<String, String> patterned,
                                  List<String> unknown) {
        flags.forEach((k, v) -> {
            refuseApiKey(k, k.startsWith(ConfigKeys.KAFKA_PREFIX) ? "as a Kafka client property (-X)" : "as a flag");
            if (v == null) {
                return;
            }
            if (!ConfigKeys.isKnown(k) && !k.startsWith(ConfigKeys.KAFKA_PREFIX) && !RouteKeys.isCandidate(k)) {
                unknown.add("unknown key '" + Redactor.scrub(k) + "' given as a flag"
                        + ConfigKeys.closestKey(k).map(c -> "; did you mean " + c + "?").orElse(""));
                return;
            }
            if (RouteKeys.isCandidate(k)) {
                patterned.put(k, FLAG);
            }
            Origin origin = k.startsWith(ConfigKeys.KAFKA_PREFIX)
                    ? Origin.flag("-X " + k.substring(ConfigKeys.KAFKA_PREFIX.length()))
                    : Origin.flag(ConfigKeys.flag(k).orElse(k));
            out.put(k, new Setting(k, expandHome(k, v.strip()), origin));
        });
    }

    /** The names {@code routes} lists, checked first: the route keys and variables are read against them. */
    private static List<String> routeNames(Setting routes) {
        if (routes == null || routes.value().isBlank()) {
            return List.of();
        }
        return new ConfigValues(Map.of(Keys.ROUTES, routes)).list(Keys.ROUTES);
    }

    /**
     * The {@code QUOTAFLOW_*} variables: keys into {@code out}, unknown names into {@code unknown};
     * returns the route and tenant variables, read once {@code routes} is known.
     */
    private static Map<String, String> fromEnvironment(Map<String, String> env, Set<String> extraVariables, Map<String, Setting> out,
            List<String> unknown) {
        Map<String, String> routeVariables = new TreeMap<>();
        for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
            String name = e.getKey();
            String value = e.getValue();
            if (!name.startsWith(ConfigKeys.ENV_PREFIX) || ConfigKeys.OTHER_VARIABLES.contains(name) || extraVariables.contains(name)) {
                continue;
            }
            if (isApiKeyName(name.substring(ConfigKeys.ENV_PREFIX.length()).replace('_', '.'))) {
                throw new ConfigError("environment variable " + name + " is refused: " + API_KEY_WAY);
            }
            if (name.startsWith(ConfigKeys.ENV_PREFIX + "KAFKA_")) {
                String key = ConfigKeys.KAFKA_PREFIX + name.substring((ConfigKeys.ENV_PREFIX + "KAFKA_").length())
                        .toLowerCase(Locale.ROOT).replace('_', '.');
                if (value != null) {
                    out.put(key, new Setting(key, value, Origin.env(name)));
                }
                continue;
            }
            var key = ConfigKeys.keyOfEnv(name);
            if (key.isPresent()) {
                if (value != null && !value.isBlank()) {
                    out.put(key.get(), new Setting(key.get(), expandHome(key.get(), value.strip()), Origin.env(name)));
                }
            } else if (RouteKeys.isPatternVariable(name)) {
                if (value != null && !value.isBlank()) {
                    routeVariables.put(name, value);
                }
            } else {
                unknown.add("unknown environment variable " + name
                        + ConfigKeys.closestVariable(name, extraVariables).map(c -> "; did you mean " + c + "?").orElse(""));
            }
        }
        return routeVariables;
    }

    /** Merges every source (later wins) into flat properties: defaults, file, environment, flags. */
    public static Map<String, String> merge(Path file, Map<String, String> env, Map<String, String> flags) {
        ConfigValues values = resolve(file, env, flags);
        Map<String, String> out = new TreeMap<>();
        for (String key : ConfigKeys.names()) {
            values.get(key).ifPresent(v -> out.put(key, v));
        }
        for (String prefix : List.of(RouteKeys.ROUTE_PREFIX, RouteKeys.TENANT_PREFIX, TenantKeys.PREFIX)) {
            values.keysStartingWith(prefix).forEach(k -> values.get(k).ifPresent(v -> out.put(k, v)));
        }
        values.kafka().forEach((k, v) -> out.put(ConfigKeys.KAFKA_PREFIX + k, v));
        return out;
    }

    /** The whole configuration of {@code quotaflow run}. */
    public static QuotaflowConfig load(Path file, Map<String, String> env, Map<String, String> flags) {
        return load(resolve(file, env, flags), env);
    }

    /** The whole configuration of {@code quotaflow run}, from resolved values. */
    public static QuotaflowConfig load(ConfigValues p, Map<String, String> env) {
        try {
            return build(p, env);
        } catch (ConfigError e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigError(p.explain(e.getMessage()));
        }
    }

    private static QuotaflowConfig build(ConfigValues p, Map<String, String> env) {
        Routing routing = RoutingReader.read(p, env);
        BatchSettings batch = new BatchSettings(p.integer(Keys.BATCH_MAX_ITEMS), p.integer(Keys.BATCH_MAX_PROMPT_TOKENS),
                p.millis(Keys.BATCH_PUNCTUATE_MS), p.integer(Keys.BATCH_COMPLETION_TOKENS_PER_ITEM),
                p.millis(Keys.BATCH_STANDARD_LINGER_MS), p.millis(Keys.BATCH_BULK_LINGER_MS));
        RetrySettings retry = new RetrySettings(p.millis(Keys.RETRY_BASE_MS), p.millis(Keys.RETRY_CAP_MS),
                p.integer(Keys.RETRY_MAX_ATTEMPTS), p.millis(Keys.RETRY_MAX_AGE_MS), p.millis(Keys.RETRY_CIRCUIT_OPEN_MS),
                p.millis(Keys.RETRY_HALT_PROBE_MS));
        ClusterSettings cluster = p.cluster();
        Map<String, String> kafka = new GroupMembership(p.integer(Keys.INSTANCE_SESSION_TIMEOUT_MS),
                p.integer(Keys.INSTANCE_HEARTBEAT_INTERVAL_MS), p.integer(Keys.INSTANCE_TRANSACTION_TIMEOUT_MS)).applyTo(cluster.kafka());
        kafka = io.quotaflow.state.BoundedRocksDb.applyTo(kafka, p.integer(Keys.STATE_MEMORY_MB));
        if (p.string(Keys.INSTANCE_TAKEOVER_CREDIT).strip().equalsIgnoreCase("off")) {
            kafka.put(GroupMembership.TAKEOVER_CREDIT_CONFIG, "off");
        }
        String maxRequest = kafka.getOrDefault("producer.max.request.size", kafka.getOrDefault("max.request.size", "1048576"));
        RecordLimits limits;
        try {
            limits = new RecordLimits(p.integer(Keys.RECORDS_MAX_VALUE_BYTES), p.integer(Keys.RECORDS_MAX_HEADER_BYTES),
                    p.integer(Keys.BATCH_MAX_BYTES)).checkAgainst(Long.parseLong(maxRequest.strip()));
        } catch (NumberFormatException e) {
            throw new ConfigError("max.request.size must be an integer, got '" + maxRequest + "'");
        }
        String applicationId = p.applicationId();
        Path stateDir = Path.of(p.string(Keys.STATE_DIR));
        String instanceId = InstanceId.resolve(p.string(Keys.INSTANCE_ID), applicationId, stateDir);
        DispatcherSettings dispatcher = DispatcherSettings.of(routing, batch, retry, limits, cluster.topics())
                .withTenants(TenantReader.read(p))
                .withStatusRetention(ConfigDurations.require(Keys.STATUS_RETENTION, p.string(Keys.STATUS_RETENTION)))
                .withDispatchPartitions(p.integer(Keys.DISPATCH_PARTITIONS))
                .withMaxPending(p.integer(Keys.QUEUE_MAX_PENDING))
                .withMaxDepth(maxDepth(p))
                .withDeadlines(deadlines(p));
        return new QuotaflowConfig(cluster.bootstrapServers(), applicationId, stateDir, p.integer(Keys.HTTP_PORT),
                kafka, dispatcher, kafka.getOrDefault("group.instance.id", instanceId))
                .withHttpBind(p.string(Keys.HTTP_BIND))
                .withHttpSettings(HttpSettingsReader.read(p))
                .withMetrics(new MetricsSettings(MetricsSettings.KafkaMetrics.parse(p.string(Keys.METRICS_KAFKA)),
                        p.bool(Keys.METRICS_TENANT_LABELS), new MetricsSettings.Traces(p.get(Keys.OTEL_TRACES_EXPORTER).orElse(null),
                        p.bool(Keys.OTEL_CAPTURE_CONTENT))))
                .withIntakeHoldLag(p.integer(Keys.INTAKE_HOLD_DISPATCH_LAG));
    }

    /** {@code deadline.<priority>}, {@code deadline.action}, {@code deadline.halt-grace} and {@code queue.max-wait.<priority>}. */
    private static io.quotaflow.settings.DeadlineSettings deadlines(ConfigValues p) {
        return new io.quotaflow.settings.DeadlineSettings(durations(p, Keys.DEADLINE_PREFIX),
                io.quotaflow.settings.DeadlineAction.parse(p.string(Keys.DEADLINE_ACTION)), durations(p, Keys.QUEUE_MAX_WAIT_PREFIX),
                ConfigDurations.require(Keys.DEADLINE_HALT_GRACE, p.string(Keys.DEADLINE_HALT_GRACE)));
    }

    /** {@code <prefix><priority>} for each class that sets one (none: absent). */
    private static Map<io.quotaflow.records.Priority, java.time.Duration> durations(ConfigValues p, String prefix) {
        Map<io.quotaflow.records.Priority, java.time.Duration> out = new java.util.EnumMap<>(io.quotaflow.records.Priority.class);
        for (io.quotaflow.records.Priority priority : io.quotaflow.records.Priority.values()) {
            String key = prefix + priority.wireName();
            p.get(key).filter(v -> !ConfigRules.isNone(v)).ifPresent(v -> out.put(priority, ConfigDurations.require(key, v)));
        }
        return out;
    }

    /** {@code queue.max-depth.<priority>}: the classes that shed, and at which depth. */
    private static Map<io.quotaflow.records.Priority, Integer> maxDepth(ConfigValues p) {
        Map<io.quotaflow.records.Priority, Integer> depth = new java.util.EnumMap<>(io.quotaflow.records.Priority.class);
        for (io.quotaflow.records.Priority priority : io.quotaflow.records.Priority.values()) {
            String key = Keys.QUEUE_MAX_DEPTH_PREFIX + priority.wireName();
            p.get(key).filter(v -> !ConfigRules.isNone(v)).ifPresent(v -> depth.put(priority, Integer.parseInt(v.strip())));
        }
        return depth;
    }

    /** Refuses a key that would carry the API key; names the key and the proper way, never the value. */
    private static void refuseApiKey(String key, String where) {
        if (isApiKeyName(key)) {
            throw new ConfigError("'" + Redactor.scrub(key.strip()) + "' " + where + " is refused: " + API_KEY_WAY);
        }
    }

    /** For the path keys, {@code ~/x} ⇒ the user's home + {@code /x}. */
    private static String expandHome(String key, String value) {
        boolean path = key.equals(Keys.STATE_DIR) || key.equals(Keys.LLM_API_KEY_FILE) || key.endsWith(".api-key-file")
                || key.startsWith("http.") && key.endsWith("-file");
        return path && value.startsWith("~/") ? System.getProperty("user.home") + value.substring(1) : value;
    }
}

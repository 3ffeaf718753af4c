package io.quotaflow.config;


import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Builds a {@link QuotaflowConfig} from, lowest precedence first: built-in defaults, a properties
 * file, {@code QUOTAFLOW_*} environment variables ({@code quota.rpm} ⇐ {@code QUOTAFLOW_QUOTA_RPM}),
 * and command-line flags. Any {@code kafka.*} key passes through to the Kafka clients
 * ({@code QUOTAFLOW_KAFKA_SASL_MECHANISM} ⇒ {@code sasl.mechanism}).
 *
 * <p>The API key is read from {@code QUOTAFLOW_LLM_API_KEY} or the file named by
 * {@code llm.api-key-file}; {@code llm.api-key} and its close spellings ({@link #isApiKeyName}) are
 * refused in every source (file, {@code QUOTAFLOW_*} variables, flags, {@code kafka.*}/{@code -X}),
 * naming the key, never its value.
 */
public final class ConfigLoader {

    public static final String API_KEY_ENV = "QUOTAFLOW_LLM_API_KEY";

    /** Every key understood, with its default ({@code null}: required or optional without default). */
    public static final Map<String, String> DEFAULTS;

    static {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("bootstrap.servers", null);
        d.put("application.id", "quotaflow");
        d.put("state.dir", System.getProperty("user.home") + "/.quotaflow/state");
        d.put("http.port", "8080");
        d.put("http.bind", QuotaflowConfig.DEFAULT_HTTP_BIND);
        d.put("instance.id", "auto");
        d.put("llm.base-url", null);
        d.put("llm.model", "gpt-4o-mini");
        d.put("llm.api-key-file", null);
        d.put("llm.timeout-ms", "60000");
        d.put("llm.context-tokens", "128000");
        d.put("llm.encoding", null);
        d.put("classify.categories", String.join(",", ModelSettings.DEFAULT_CATEGORIES));
        d.put("classify.urgencies", String.join(",", ModelSettings.DEFAULT_URGENCIES));
        QuotaSettings q = QuotaSettings.ofDefaults();
        d.put("quota.rpm", Integer.toString(q.rpm()));
        d.put("quota.tpm", Integer.toString(q.tpm()));
        d.put("quota.safety-factor", Double.toString(q.safetyFactor()));
        d.put("quota.burst-seconds", Double.toString(q.burstSeconds()));
        d.put("quota.max-in-flight", "auto");
        d.put("quota.max-in-flight-ceiling", Integer.toString(q.maxInFlightCeiling()));
        d.put("quota.reserve-fraction", Double.toString(q.reserveFraction()));
        BatchSettings b = BatchSettings.ofDefaults();
        d.put("batch.max-items", Integer.toString(b.maxItems()));
        d.put("batch.max-prompt-tokens", Integer.toString(b.maxPromptTokens()));
        d.put("batch.completion-tokens-per-item", Integer.toString(b.completionTokensPerItem()));
        d.put("batch.punctuate-ms", Long.toString(b.punctuateInterval().toMillis()));
        d.put("batch.standard-linger-ms", Long.toString(b.standardLinger().toMillis()));
        d.put("batch.bulk-linger-ms", Long.toString(b.bulkLinger().toMillis()));
        RecordLimits l = RecordLimits.ofDefaults();
        d.put("batch.max-bytes", Integer.toString(l.maxBatchBytes()));
        d.put("records.max-value-bytes", Integer.toString(l.maxValueBytes()));
        d.put("records.max-header-bytes", Integer.toString(l.maxHeaderBytes()));
        RetrySettings r = RetrySettings.ofDefaults();
        d.put("retry.base-ms", Long.toString(r.base().toMillis()));
        d.put("retry.cap-ms", Long.toString(r.cap().toMillis()));
        d.put("retry.max-attempts", Integer.toString(r.maxAttempts()));
        d.put("retry.max-age-ms", Long.toString(r.maxAge().toMillis()));
        d.put("retry.circuit-open-ms", Long.toString(r.circuitOpenWait().toMillis()));
        d.put("retry.halt-probe-ms", Long.toString(r.haltProbeInterval().toMillis()));
        DEFAULTS = java.util.Collections.unmodifiableMap(d);
    }

    /** How the key must be given, for every refusal. */
    public static final String API_KEY_WAY = "the API key comes from " + API_KEY_ENV
            + " or a file named by --llm-api-key-file (llm.api-key-file), never from a property, variable or flag";

    private static final String KEY_FILE = "the API key file (--llm-api-key-file / llm.api-key-file)";
    private static final String NOT_SHOWN = " (its name is not shown: it may be the key itself)";

    private ConfigLoader() {
    }

    /** Environment variable name of a key: {@code quota.max-in-flight} ⇒ {@code QUOTAFLOW_QUOTA_MAX_IN_FLIGHT}. */
    public static String envName(String key) {
        return "QUOTAFLOW_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
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

    /** Merges file, environment and flags (later wins) into flat properties. */
    public static Map<String, String> merge(Path file, Map<String, String> env, Map<String, String> flags) {
        Map<String, String> out = new TreeMap<>();
        DEFAULTS.forEach((k, v) -> {
            if (v != null) {
                out.put(k, v);
            }
        });
        if (file != null) {
            Properties p = new Properties();
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(reader);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read config file " + file + ": " + e.getMessage());
            }
            for (String k : p.stringPropertyNames()) {
                refuseApiKey(k, "in the config file");
                out.put(k.strip(), p.getProperty(k).strip());
            }
        }
        env.keySet().forEach(name -> {
            if (name.startsWith("QUOTAFLOW_") && !name.equals(API_KEY_ENV)
                    && isApiKeyName(name.substring("QUOTAFLOW_".length()).replace('_', '.'))) {
                throw new IllegalArgumentException("environment variable " + name + " is refused: " + API_KEY_WAY);
            }
        });
        for (String key : DEFAULTS.keySet()) {
            String v = env.get(envName(key));
            if (v != null && !v.isBlank()) {
                out.put(key, v.strip());
            }
        }
        env.forEach((name, value) -> {
            if (name.startsWith("QUOTAFLOW_KAFKA_") && value != null) {
                out.put("kafka." + name.substring("QUOTAFLOW_KAFKA_".length()).toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        flags.forEach((k, v) -> {
            refuseApiKey(k, k.startsWith("kafka.") ? "as a Kafka client property (-X)" : "as a flag");
            if (v != null) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** Refuses a key that would carry the API key; names the key and the proper way, never the value. */
    private static void refuseApiKey(String key, String where) {
        if (isApiKeyName(key)) {
            throw new IllegalArgumentException("'" + Redactor.scrub(key.strip()) + "' " + where + " is refused: " + API_KEY_WAY);
        }
    }

    public static QuotaflowConfig load(Path file, Map<String, String> env, Map<String, String> flags) {
        Map<String, String> p = merge(file, env, flags);
        Secret key = apiKey(p, env);
        URI baseUrl = uri(p, "llm.base-url");
        ModelSettings model = new ModelSettings(baseUrl, p.get("llm.model"), key,
                Duration.ofMillis(longValue(p, "llm.timeout-ms")), p.get("llm.encoding"), intValue(p, "llm.context-tokens"),
                list(p.get("classify.categories")), list(p.get("classify.urgencies")));
        String inFlight = p.getOrDefault("quota.max-in-flight", "auto").strip();
        QuotaSettings quota = new QuotaSettings(intValue(p, "quota.rpm"), intValue(p, "quota.tpm"),
                doubleValue(p, "quota.safety-factor"), doubleValue(p, "quota.burst-seconds"),
                inFlight.equalsIgnoreCase("auto") ? QuotaSettings.AUTO : positive(p, "quota.max-in-flight"),
                doubleValue(p, "quota.reserve-fraction"), intValue(p, "quota.max-in-flight-ceiling"));
        BatchSettings batch = new BatchSettings(intValue(p, "batch.max-items"), intValue(p, "batch.max-prompt-tokens"),
                Duration.ofMillis(longValue(p, "batch.punctuate-ms")), intValue(p, "batch.completion-tokens-per-item"),
                Duration.ofMillis(longValue(p, "batch.standard-linger-ms")), Duration.ofMillis(longValue(p, "batch.bulk-linger-ms")));
        RetrySettings retry = new RetrySettings(Duration.ofMillis(longValue(p, "retry.base-ms")),
                Duration.ofMillis(longValue(p, "retry.cap-ms")), intValue(p, "retry.max-attempts"),
                Duration.ofMillis(longValue(p, "retry.max-age-ms")), Duration.ofMillis(longValue(p, "retry.circuit-open-ms")),
                Duration.ofMillis(longValue(p, "retry.halt-probe-ms")));
        Map<String, String> kafka = new TreeMap<>();
        p.forEach((k, v) -> {
            if (k.startsWith("kafka.")) {
                kafka.put(k.substring("kafka.".length()), v);
            }
        });
        String maxRequest = kafka.getOrDefault("producer.max.request.size", kafka.getOrDefault("max.request.size", "1048576"));
        RecordLimits limits;
        try {
            limits = new RecordLimits(intValue(p, "records.max-value-bytes"), intValue(p, "records.max-header-bytes"),
                    intValue(p, "batch.max-bytes")).checkAgainst(Long.parseLong(maxRequest.strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("max.request.size must be an integer, got '" + maxRequest + "'");
        }
        String instanceId = InstanceId.resolve(p.get("instance.id"), p.get("application.id"), Path.of(p.get("state.dir")));
        String bootstrap = p.getOrDefault("bootstrap.servers", kafka.get("bootstrap.servers"));
        return new QuotaflowConfig(bootstrap, p.get("application.id"), Path.of(p.get("state.dir")), intValue(p, "http.port"),
                kafka, new DispatcherSettings(model, quota, batch, retry, limits), kafka.getOrDefault("group.instance.id", instanceId))
                .withHttpBind(p.get("http.bind"));
    }

    private static Secret apiKey(Map<String, String> p, Map<String, String> env) {
        String file = p.get("llm.api-key-file");
        if (file != null && !file.isBlank()) {
            // the value given is never named: a user may have pasted the key itself there
            Path path;
            try {
                path = Path.of(file.strip());
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException(KEY_FILE + " is not a valid path" + NOT_SHOWN);
            }
            if (!Files.exists(path)) {
                throw new IllegalArgumentException(KEY_FILE + ": no such file" + NOT_SHOWN);
            }
            if (Files.isDirectory(path)) {
                throw new IllegalArgumentException(KEY_FILE + " is a directory, not a file" + NOT_SHOWN);
            }
            if (!Files.isReadable(path)) {
                throw new IllegalArgumentException(KEY_FILE + " is not readable" + NOT_SHOWN);
            }
            String value;
            try {
                value = Files.readString(path, StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                throw new IllegalArgumentException(KEY_FILE + " cannot be read (" + e.getClass().getSimpleName() + ")" + NOT_SHOWN);
            }
            if (value.isEmpty()) {
                throw new IllegalArgumentException(KEY_FILE + " is empty" + NOT_SHOWN);
            }
            return Secret.of(value);
        }
        String value = env.get(API_KEY_ENV);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("the LLM API key is missing: set " + API_KEY_ENV + " or pass --llm-api-key-file");
        }
        return Secret.of(value);
    }

    private static URI uri(Map<String, String> p, String key) {
        String v = p.get(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(key + " is required (--llm-base-url, e.g. https://api.openai.com/v1)");
        }
        try {
            URI uri = new URI(v.strip());
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new URISyntaxException(v, "not an absolute URL");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(key + " is not a valid URL: " + Redactor.scrub(v));
        }
    }

    private static List<String> list(String v) {
        return v == null ? List.of() : Arrays.stream(v.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private static String required(Map<String, String> p, String key) {
        String v = p.get(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(key + " is required");
        }
        return v.strip();
    }

    private static int intValue(Map<String, String> p, String key) {
        try {
            return Integer.parseInt(required(p, key));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an integer, got '" + p.get(key) + "'");
        }
    }

    private static int positive(Map<String, String> p, String key) {
        try {
            int v = Integer.parseInt(required(p, key));
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(key + " must be auto or a positive integer, got '" + p.get(key) + "'");
    }

    private static long longValue(Map<String, String> p, String key) {
        try {
            return Long.parseLong(required(p, key));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an integer, got '" + p.get(key) + "'");
        }
    }

    private static double doubleValue(Map<String, String> p, String key) {
        try {
            return Double.parseDouble(required(p, key));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, got '" + p.get(key) + "'");
        }
    }
}

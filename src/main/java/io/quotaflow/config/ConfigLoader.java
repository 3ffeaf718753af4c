package io.quotaflow.config;

import io.quotaflow.topology.DispatcherSettings;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds a {@link QuotaflowConfig} from, lowest precedence first: built-in defaults, a properties
 * file, {@code QUOTAFLOW_*} environment variables ({@code quota.rpm} ⇐ {@code QUOTAFLOW_QUOTA_RPM}),
 * and command-line flags. Any {@code kafka.*} key passes through to the Kafka clients
 * ({@code QUOTAFLOW_KAFKA_SASL_MECHANISM} ⇒ {@code sasl.mechanism}).
 *
 * <p>The API key is read from {@code QUOTAFLOW_LLM_API_KEY} or the file named by
 * {@code llm.api-key-file}; it is never accepted as a property or flag value.
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
        d.put("quota.max-in-flight", Integer.toString(q.maxInFlight()));
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

    private static final Set<String> FORBIDDEN = Set.of("llm.api-key", "llm.api_key", "api-key", "api.key");

    private ConfigLoader() {
    }

    /** Environment variable name of a key: {@code quota.max-in-flight} ⇒ {@code QUOTAFLOW_QUOTA_MAX_IN_FLIGHT}. */
    public static String envName(String key) {
        return "QUOTAFLOW_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
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
            p.stringPropertyNames().forEach(k -> out.put(k.strip(), p.getProperty(k).strip()));
        }
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
            if (v != null) {
                out.put(k, v);
            }
        });
        for (String k : out.keySet()) {
            if (FORBIDDEN.contains(k.toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("'" + k + "' is not accepted: the API key comes from " + API_KEY_ENV
                        + " or llm.api-key-file, never from a property or flag");
            }
        }
        return out;
    }

    public static QuotaflowConfig load(Path file, Map<String, String> env, Map<String, String> flags) {
        Map<String, String> p = merge(file, env, flags);
        Secret key = apiKey(p, env);
        URI baseUrl = uri(p, "llm.base-url");
        ModelSettings model = new ModelSettings(baseUrl, p.get("llm.model"), key,
                Duration.ofMillis(longValue(p, "llm.timeout-ms")), p.get("llm.encoding"), intValue(p, "llm.context-tokens"),
                list(p.get("classify.categories")), list(p.get("classify.urgencies")));
        QuotaSettings quota = new QuotaSettings(intValue(p, "quota.rpm"), intValue(p, "quota.tpm"),
                doubleValue(p, "quota.safety-factor"), doubleValue(p, "quota.burst-seconds"), intValue(p, "quota.max-in-flight"),
                doubleValue(p, "quota.reserve-fraction"));
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
                kafka, new DispatcherSettings(model, quota, batch, retry, limits), kafka.getOrDefault("group.instance.id", instanceId));
    }

    private static Secret apiKey(Map<String, String> p, Map<String, String> env) {
        String file = p.get("llm.api-key-file");
        if (file != null && !file.isBlank()) {
            try {
                String value = Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
                if (value.isEmpty()) {
                    throw new IllegalArgumentException("the API key file " + file + " is empty");
                }
                return Secret.of(value);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read the API key file " + file + ": " + e.getClass().getSimpleName());
            }
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
            throw new IllegalArgumentException(key + " is not a valid URL: " + v);
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

package io.quotaflow.config;

import io.quotaflow.settings.ClusterSettings;
import io.quotaflow.settings.Origin;
import io.quotaflow.settings.Keys;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.ConfigException;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import io.quotaflow.settings.Redactor;
import io.quotaflow.settings.TopicNames;

/**
 * The merged configuration of one command: every known key with its value and origin (defaults
 * included) and the {@code kafka.*} pass-through properties. Typed getters explain a bad value by
 * key, value and origin ({@code quota.rpm must be an integer, got 'lots' (environment variable
 * QUOTAFLOW_QUOTA_RPM)}).
 */
public final class ConfigValues {

    private final Map<String, Setting> settings;

    ConfigValues(Map<String, Setting> settings) {
        this.settings = Map.copyOf(settings);
        for (Setting s : this.settings.values()) {
            if (ConfigKeys.isDefined(s.key())) {
                parsed(s.key());
            }
        }
    }

    /** The value of {@code key}, if set by any source or by default. */
    public Optional<String> get(String key) {
        Setting s = settings.get(key);
        return s == null || s.value().isEmpty() && !key.equals(Keys.TOPICS_PREFIX) ? Optional.empty() : Optional.of(s.value());
    }

    /** Where the value of {@code key} came from. */
    public Origin origin(String key) {
        Setting s = settings.get(key);
        return s == null ? Origin.DEFAULT : s.origin();
    }

    /** Whether {@code key} was given by a source rather than left at its default. */
    public boolean isGiven(String key) {
        return origin(key) != Origin.DEFAULT;
    }

    public String string(String key) {
        return get(key).orElseThrow(() -> missing(key));
    }

    public int integer(String key) {
        return ((Number) required(key)).intValue();
    }

    public long longValue(String key) {
        return ((Number) required(key)).longValue();
    }

    public boolean bool(String key) {
        return (Boolean) required(key);
    }

    public double number(String key) {
        return ((Number) required(key)).doubleValue();
    }

    public Duration millis(String key) {
        return Duration.ofMillis(longValue(key));
    }

    @SuppressWarnings("unchecked")
    public List<String> list(String key) {
        return ((List<String>) required(key)).stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /** The {@code kafka.*} properties with the prefix removed, for every Kafka client. */
    public Map<String, String> kafka() {
        Map<String, String> out = new TreeMap<>();
        settings.forEach((k, s) -> {
            if (k.startsWith(ConfigKeys.KAFKA_PREFIX)) {
                out.put(k.substring(ConfigKeys.KAFKA_PREFIX.length()), s.value());
            }
        });
        return out;
    }

    /** The given keys that start with {@code prefix} ({@code route.primary.}, {@code routing.tenant.}), in name order. */
    public List<String> keysStartingWith(String prefix) {
        return settings.keySet().stream().filter(k -> k.startsWith(prefix)).sorted().toList();
    }

    public TopicNames topics() {
        return new TopicNames(get(Keys.TOPICS_PREFIX).orElse(""));
    }

    /** The application id: as configured, else {@code <topics.prefix>quotaflow}. */
    public String applicationId() {
        return isGiven(Keys.APPLICATION_ID) ? string(Keys.APPLICATION_ID) : topics().defaultApplicationId();
    }

    /** What a command needs to talk to the cluster; bootstrap servers are required from some source. */
    public ClusterSettings cluster() {
        Optional<String> bootstrap = get(Keys.BOOTSTRAP_SERVERS);
        Origin origin = origin(Keys.BOOTSTRAP_SERVERS);
        Map<String, String> kafka = kafka();
        if (bootstrap.isEmpty() && kafka.containsKey(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)) {
            bootstrap = Optional.of(kafka.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
            origin = settings.get(ConfigKeys.KAFKA_PREFIX + CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG).origin();
        }
        if (bootstrap.isEmpty()) {
            throw new ConfigError("Kafka bootstrap servers are required: pass --bootstrap-servers, set "
                    + ConfigKeys.envName(Keys.BOOTSTRAP_SERVERS) + ", or put bootstrap.servers in the --config file");
        }
        return new ClusterSettings(bootstrap.get(), origin, kafka, topics(), millis(Keys.CLUSTER_CHECK_TIMEOUT_MS));
    }

    /**
     * {@code message} (from a settings record) with the value and origin of every key it names, so
     * {@code quota.safety-factor must be in (0, 1]} says where the 1.5 came from.
     */
    String explain(String message) {
        StringBuilder sb = new StringBuilder(message);
        List<String> keys = new java.util.ArrayList<>(ConfigKeys.names());
        settings.keySet().stream().filter(k -> !ConfigKeys.isKnown(k) && ConfigKeys.isDefined(k)).sorted().forEach(keys::add);
        for (String key : keys) {
            if (message.contains(key) && settings.containsKey(key) && isGiven(key)) {
                sb.append(" (").append(key).append('=').append(shown(key)).append(" from ").append(origin(key)).append(')');
            }
        }
        return sb.toString();
    }

    private Object required(String key) {
        get(key).orElseThrow(() -> missing(key));
        return parsed(key);
    }

    private Object parsed(String key) {
        Setting s = settings.get(key);
        if (s == null || s.value().isEmpty() && !key.equals(Keys.TOPICS_PREFIX)) {
            return null;
        }
        try {
            return ConfigKeys.parse(key, s.value());
        } catch (ConfigException e) {
            var validator = ConfigKeys.key(key).validator;
            boolean typeOk = isType(key, s.value());
            String rule = typeOk && validator != null ? validator.toString() : ConfigKeys.describeType(key);
            throw new ConfigError(key + " must be " + rule + ", got " + shown(key) + " (" + s.origin() + ")");
        }
    }

    private static boolean isType(String key, String value) {
        try {
            org.apache.kafka.common.config.ConfigDef.parseType(key, value, ConfigKeys.key(key).type);
            return true;
        } catch (ConfigException e) {
            return false;
        }
    }

    /** The value quoted, or a note that it is not shown when the key may hold a secret. */
    private String shown(String key) {
        if (Redactor.isSecretName(key)) {
            return "a value not shown";
        }
        return "'" + Redactor.scrub(settings.get(key).value()) + "'";
    }

    private ConfigError missing(String key) {
        String flag = ConfigKeys.flag(key).map(f -> f + ", ").orElse("");
        return new ConfigError(key + " is required: pass " + flag + "set " + ConfigKeys.envName(key)
                + ", or put " + key + " in the --config file");
    }

    /** Where tenants come from and which exist ({@code tenants.*}, {@code tenant.<name>.principal}). */
    public io.quotaflow.settings.TenantAccess tenantAccess() {
        return TenantReader.read(this).access();
    }
}

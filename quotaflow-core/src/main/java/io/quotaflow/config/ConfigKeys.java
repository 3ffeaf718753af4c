package io.quotaflow.config;


import org.apache.commons.text.similarity.LevenshteinDistance;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

import java.util.Collection;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one table of configuration keys: name, type, validator, default, flag and meaning, as a Kafka
 * {@link ConfigDef}; each key is one row ({@link KeyTable}, the route pattern keys' rows in {@link RouteKeys}),
 * named by its constant in {@link io.quotaflow.settings.Keys}. The loader, the {@code QUOTAFLOW_*} variable names,
 * the "did you mean" suggestions and the configuration reference's table (docs/configuration.md)
 * ({@link #markdownTable()}) all come from it.
 */
public final class ConfigKeys {

    /** Keys with this prefix pass through to every Kafka client, prefix removed. */
    public static final String KAFKA_PREFIX = "kafka.";

    /** Prefix of every variable quotaflow reads. */
    public static final String ENV_PREFIX = "QUOTAFLOW_";

    /**
     * {@code QUOTAFLOW_*} variables that are not configuration keys but are read by design. A
     * distribution with commands of its own registers the variables those commands read beside these
     * (the {@code extraVariables} of {@link #isKnownVariable(String, Set)} and of the command line).
     */
    public static final Set<String> OTHER_VARIABLES = Set.of(
            "QUOTAFLOW_LLM_API_KEY",   // the pipeline's API key (never a property)
            "QUOTAFLOW_JAVA_OPTS",     // JVM options, read by a launcher script
            "QUOTAFLOW_CANCEL_TENANT", // cancel's --tenant
            "QUOTAFLOW_STATUS_TENANT"); // status's --tenant

    /** The definition: every key, typed, with its default and validator. */
    public static final ConfigDef DEFINITION;

    private static final Map<String, String> DEFAULTS;
    private static final Map<String, String> FLAGS;
    /** Pattern keys ({@code route.<name>.rpm}) with the key each one falls back to (null: none). */
    private static final Map<String, String> TEMPLATES;
    private static final LevenshteinDistance DISTANCE = LevenshteinDistance.getDefaultInstance();

    static {
        KeyTable t = KeyTable.build();
        DEFINITION = t.def;
        DEFAULTS = Collections.unmodifiableMap(t.defaults);
        FLAGS = Collections.unmodifiableMap(t.flags);
        TEMPLATES = Collections.unmodifiableMap(t.templates);
    }

    private ConfigKeys() {
    }

    /** Every key, in table order. */
    public static Set<String> names() {
        return DEFAULTS.keySet();
    }

    /** Every key with its default as written ({@code null}: required or optional without default). */
    public static Map<String, String> defaults() {
        return DEFAULTS;
    }

    public static boolean isKnown(String key) {
        return DEFAULTS.containsKey(key);
    }

    /** The pattern keys, in table order: {@code route.<name>.rpm}, {@code routing.tenant.<tenant>}, ... */
    public static Set<String> templates() {
        return TEMPLATES.keySet();
    }

    /** The single-route key a route key falls back to ({@code route.<name>.rpm} ⇒ {@code quota.rpm}), if any. */
    public static Optional<String> inherited(String template) {
        return Optional.ofNullable(TEMPLATES.get(template));
    }

    /** Whether {@code key} is a key or an instance of a pattern key ({@code route.primary.rpm}). */
    public static boolean isDefined(String key) {
        return isKnown(key) || RouteKeys.templateOf(key).isPresent();
    }

    /** The definition of a key or of the pattern a key is an instance of. */
    public static ConfigDef.ConfigKey key(String name) {
        ConfigDef.ConfigKey key = DEFINITION.configKeys().get(RouteKeys.templateOf(name).orElse(name));
        if (key == null) {
            throw new IllegalArgumentException("unknown configuration key " + name);
        }
        return key;
    }

    /** The flag that sets {@code key}, if a command has one. */
    public static Optional<String> flag(String key) {
        return Optional.ofNullable(FLAGS.get(key));
    }

    /** Environment variable name of a key: {@code quota.max-in-flight} ⇒ {@code QUOTAFLOW_QUOTA_MAX_IN_FLIGHT}. */
    public static String envName(String key) {
        return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The key a {@code QUOTAFLOW_*} variable sets, if any. */
    public static Optional<String> keyOfEnv(String variable) {
        return DEFAULTS.keySet().stream().filter(k -> envName(k).equals(variable)).findFirst();
    }

    /**
     * Whether quotaflow knows {@code variable}: not a {@code QUOTAFLOW_*} name at all, a key's
     * variable, a {@code QUOTAFLOW_KAFKA_*} pass-through, or one of {@link #OTHER_VARIABLES}.
     */
    public static boolean isKnownVariable(String variable) {
        return isKnownVariable(variable, Set.of());
    }

    /** As {@link #isKnownVariable(String)}, with {@code extraVariables} (a distribution's own) known too. */
    public static boolean isKnownVariable(String variable, Set<String> extraVariables) {
        return !variable.startsWith(ENV_PREFIX) || OTHER_VARIABLES.contains(variable) || extraVariables.contains(variable)
                || variable.startsWith(ENV_PREFIX + "KAFKA_") || keyOfEnv(variable).isPresent()
                || RouteKeys.isPatternVariable(variable);
    }

    /**
     * "unknown environment variable NAME; did you mean CLOSEST?" for the first {@code QUOTAFLOW_*}
     * name in {@code env} (in name order) that quotaflow does not know, if any.
     */
    public static Optional<String> unknownVariable(Map<String, String> env) {
        return unknownVariable(env, Set.of());
    }

    /** As {@link #unknownVariable(Map)}, with {@code extraVariables} (a distribution's own) known too. */
    public static Optional<String> unknownVariable(Map<String, String> env, Set<String> extraVariables) {
        return env.keySet().stream().filter(n -> !isKnownVariable(n, extraVariables)).sorted().findFirst()
                .map(n -> "unknown environment variable " + n
                        + closestVariable(n, extraVariables).map(c -> "; did you mean " + c + "?").orElse(""));
    }

    /** The closest of {@code candidates} to {@code word} when it is close enough to be a typo. */
    public static Optional<String> closest(String word, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = DISTANCE.apply(word.toLowerCase(Locale.ROOT), c.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        int allowed = Math.max(2, word.length() / 4);
        return bestDistance <= allowed ? Optional.ofNullable(best) : Optional.empty();
    }

    /** The closest known key to {@code key}. */
    public static Optional<String> closestKey(String key) {
        return closest(key, DEFAULTS.keySet());
    }

    /** The closest known variable to {@code variable}. */
    public static Optional<String> closestVariable(String variable) {
        return closestVariable(variable, Set.of());
    }

    /** The closest known variable to {@code variable}, {@code extraVariables} included. */
    public static Optional<String> closestVariable(String variable, Set<String> extraVariables) {
        java.util.List<String> known = new java.util.ArrayList<>(OTHER_VARIABLES);
        known.addAll(new java.util.TreeSet<>(extraVariables));
        DEFAULTS.keySet().forEach(k -> known.add(envName(k)));
        return closest(variable, known);
    }

    /** Parses {@code value} as {@code key}'s type and checks its rule; a {@link ConfigException} says why not. */
    static Object parse(String key, String value) {
        ConfigDef.ConfigKey k = key(key);
        Object parsed = ConfigDef.parseType(key, value, k.type);
        if (k.validator != null) {
            k.validator.ensureValid(key, parsed);
        }
        return parsed;
    }

    /** "an integer", "a number", ... for error messages. */
    static String describeType(String key) {
        Type type = key(key).type;
        if (type == Type.INT || type == Type.LONG) {
            return "an integer";
        }
        if (type == Type.DOUBLE) {
            return "a number";
        }
        return type == Type.LIST ? "a comma-separated list" : "a string";
    }

    /** The configuration reference's table (docs/configuration.md), generated from this one. */
    public static String markdownTable() {
        StringBuilder sb = new StringBuilder("| key | default | flag | meaning |\n|---|---|---|---|\n");
        for (ConfigDef.ConfigKey k : DEFINITION.configKeys().values()) {
            String d = DEFAULTS.get(k.name);
            String shown = d == null ? "(none)" : d.isEmpty() ? "(empty)" : "`" + d + "`";
            if (TEMPLATES.get(k.name) != null) {
                shown = "as `" + TEMPLATES.get(k.name) + "`";
            } else if (k.defaultValue != null) {
                shown = "`" + k.defaultValue + "`";
            }
            sb.append("| `").append(k.name).append("` | ").append(shown).append(" | ")
                    .append(flag(k.name).map(f -> "`" + f + "`").orElse("")).append(" | ")
                    .append(k.documentation).append(" |\n");
        }
        return sb.toString();
    }
}

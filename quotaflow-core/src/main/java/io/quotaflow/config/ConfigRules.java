package io.quotaflow.config;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.function.Predicate;

/**
 * The rules of the keys that need more than their type ({@link ConfigKeys}); the settings records
 * check the rest (ranges that depend on each other) and the loader names the source of the value.
 */
final class ConfigRules {

    /** What a route name is made of. */
    static final String ROUTE_NAME = "[a-z0-9][a-z0-9-]*";

    private ConfigRules() {
    }

    /** The validator of {@code key}, or null when its type is the whole rule. */
    static ConfigDef.Validator of(String key) {
        switch (key) {
            case "topics.prefix":
                return rule("letters, digits, '.', '_' or '-', at most 100 characters",
                        v -> v.toString().matches("[A-Za-z0-9._-]{0,100}"));
            case "application.id":
                return rule("letters, digits, '.', '_' or '-'", v -> v.toString().matches("[A-Za-z0-9._-]+"));
            case "http.port":
                return rule("a port in [-1, 65535] (0: any free port, -1: off)", v -> (Integer) v >= -1 && (Integer) v <= 65535);
            case "dispatch.partitions":
                return rule("an integer in [1, " + DispatcherSettings.MAX_DISPATCH_PARTITIONS + "]",
                        v -> (Integer) v >= 1 && (Integer) v <= DispatcherSettings.MAX_DISPATCH_PARTITIONS);
            case "http.idle-timeout-ms":
            case "http.forward-timeout-ms":
                return rule("at least 100 (milliseconds)", v -> (Long) v >= 100);
            case "cluster.check-timeout-ms":
                return rule("at least 1", v -> (Long) v >= 1);
            case "queue.max-depth.interactive":
            case "queue.max-depth.standard":
            case "queue.max-depth.bulk":
                return rule("a positive integer, or none", v -> isNone(v.toString()) || v.toString().strip().matches("[1-9][0-9]{0,8}"));
            case "queue.max-wait.interactive":
            case "queue.max-wait.standard":
            case "queue.max-wait.bulk":
            case "deadline.interactive":
            case "deadline.standard":
            case "deadline.bulk":
                return rule(ConfigDurations.SHAPE + ", above 0; or none", v -> isMaxWait(v.toString()));
            case "deadline.action":
                return rule("handoff, shed or keep", v -> v.toString().strip().matches("(?i)handoff|shed|keep"));
            case "deadline.halt-grace":
                return rule(ConfigDurations.SHAPE + ", from 0 to 1d", v -> ConfigDurations.parse(v.toString())
                        .filter(d -> d.compareTo(io.quotaflow.deadline.DeadlineSettings.MAX_HALT_GRACE) <= 0).isPresent());
            case "instance.takeover-credit":
                return rule("on or off", v -> v.toString().strip().matches("(?i)on|off"));
            case "intake.hold-dispatch-lag":
                return rule("an integer, at least 0", v -> (Integer) v >= 0);
            case "state.memory-mb":
                return rule("at least " + io.quotaflow.state.BoundedRocksDb.MIN_MEMORY_MB,
                        v -> (Integer) v >= io.quotaflow.state.BoundedRocksDb.MIN_MEMORY_MB);
            case "queue.max-pending":
                return rule("at least " + DispatcherSettings.MIN_MAX_PENDING, v -> (Integer) v >= DispatcherSettings.MIN_MAX_PENDING);
            case "quota.max-in-flight":
                return rule("auto or a positive integer", v -> isAutoOrPositive(v.toString()));
            case "llm.dialect":
            case "route.<name>.dialect":
                return rule(io.quotaflow.settings.Dialect.names().replace("|", ", "), v -> isDialect(v.toString()));
            case "llm.api-version":
            case "route.<name>.api-version":
            case "llm.deployment":
            case "route.<name>.deployment":
                return rule("letters, digits, '.', '_' or '-'", v -> v.toString().strip().matches("[A-Za-z0-9._-]+"));
            case "llm.base-url":
                return rule("an absolute URL such as https://api.openai.com/v1", v -> isAbsoluteUrl(v.toString()));
            case "route.<name>.base-url":
                return rule("an http(s) URL such as https://api.openai.com/v1", v -> isAbsoluteUrl(v.toString())
                        && v.toString().strip().matches("(?i)https?:.*"));
            case "routes":
                return rule("route names: lower-case letters, digits and '-', each once", v -> isRouteList((List<?>) v));
            case "route.<name>.api-key-env":
                return rule("the name of the variable holding the key (letters, digits, '_'; not a QUOTAFLOW_* name "
                        + "other than QUOTAFLOW_LLM_API_KEY)", v -> isKeyVariable(v.toString().strip()));
            case "quota.rpm":
            case "quota.tpm":
            case "route.<name>.rpm":
            case "route.<name>.tpm":
                return rule("a positive integer, auto or none", v -> isNone(v.toString()) || isAuto(v.toString())
                        || v.toString().strip().matches("[1-9][0-9]{0,9}")
                        && Long.parseLong(v.toString().strip()) <= Integer.MAX_VALUE);
            case "route.<name>.timeout-ms":
                return rule("at least 1", v -> ((Number) v).longValue() >= 1);
            case "route.<name>.context-tokens":
                return rule("at least 1024", v -> (Integer) v >= 1024);
            case "route.<name>.rpd":
            case "route.<name>.tpd":
            case "route.<name>.input-tpm":
            case "route.<name>.output-tpm":
                return rule("at least 0 (0: none)", v -> ((Number) v).longValue() >= 0);
            case "route.<name>.price.input-per-mtok":
            case "route.<name>.price.output-per-mtok":
                return rule("a price of at least 0", v -> Double.isFinite((Double) v) && (Double) v >= 0);
            case "route.<name>.mode":
                return rule("online or batch", v -> List.of("online", "batch").contains(v.toString().strip().toLowerCase(
                        java.util.Locale.ROOT)));
            case "route.<name>.batch.max-requests":
                return rule("an integer in [1, 50000]", v -> (Integer) v >= 1 && (Integer) v <= 50_000);
            case "route.<name>.batch.max-file-bytes":
                return rule("at least 1024", v -> (Long) v >= 1024);
            case "route.<name>.batch.max-enqueued-tokens":
            case "route.<name>.batch.poll-ms":
                return rule("at least 1", v -> (Long) v >= 1);
            case "route.<name>.batch.collect-ms":
            case "route.<name>.batch.expiry-grace-ms":
                return rule("at least 0", v -> (Long) v >= 0);
            case "route.<name>.price.batch-factor":
                return rule("a share in [0, 1]", v -> Double.isFinite((Double) v) && (Double) v >= 0 && (Double) v <= 1);
            case "route.<name>.daily-reset-hour-utc":
                return rule("an hour in [0, 23]", v -> (Integer) v >= 0 && (Integer) v <= 23);
            case "routing.max-wait.interactive":
            case "routing.max-wait.standard":
            case "routing.max-wait.bulk":
                return rule(ConfigDurations.SHAPE + ", above 0; or none", v -> isMaxWait(v.toString()));
            case "tenant.<name>.weight":
                return rule("a number above 0", v -> Double.isFinite((Double) v) && (Double) v > 0);
            case "tenant.<name>.tpm":
            case "tenant.<name>.rpm":
                return rule("at least 1", v -> ((Number) v).longValue() >= 1);
            case "cache.ttl":
                return rule(ConfigDurations.SHAPE + "; 0 turns the cache off", v -> ConfigDurations.parse(v.toString()).isPresent());
            case "cache.stale-ttl":
                return rule(ConfigDurations.SHAPE + "; 0: no stale answers", v -> ConfigDurations.parse(v.toString()).isPresent());
            case "topics.manage":
                return rule("apply, verify or none", v -> List.of("apply", "verify", "none").contains(v.toString().strip().toLowerCase(
                        java.util.Locale.ROOT)));
            case "log.format":
                return rule("text or json", v -> List.of("text", "json").contains(v.toString().strip().toLowerCase(java.util.Locale.ROOT)));
            case "log.level":
                return rule("error, warn, info, debug or trace", v -> List.of("error", "warn", "info", "debug", "trace")
                        .contains(v.toString().strip().toLowerCase(java.util.Locale.ROOT)));
            case "metrics.kafka":
                return rule("off or curated", v -> v.toString().strip().equalsIgnoreCase("off")
                        || v.toString().strip().equalsIgnoreCase("curated"));
            case "cache.scope":
                return rule("tenant or global", v -> v.toString().strip().equalsIgnoreCase("tenant")
                        || v.toString().strip().equalsIgnoreCase("global"));
            case "status.retention":
                return rule(ConfigDurations.SHAPE + ", at least 1 s",
                        v -> ConfigDurations.parse(v.toString()).filter(d -> d.toMillis() >= 1_000).isPresent());
            default:
                return null;
        }
    }

    /** A per-minute limit as configured: its number, or {@link io.quotaflow.settings.QuotaSettings#NONE} for {@code none}. */
    static int limit(String v) {
        return isNone(v) ? io.quotaflow.settings.QuotaSettings.NONE : Integer.parseInt(v.strip());
    }

    /** A per-minute limit ({@code quota.rpm}, {@code route.<name>.tpm}): {@code auto} is {@code whenAuto}, the built-in default. */
    static int limit(String v, int whenAuto) {
        return isAuto(v) ? whenAuto : limit(v);
    }

    /**
     * Where the per-minute limit read from {@code key} comes from: {@code auto} learns as the default does; any other
     * value a source gave is a ceiling (docs/configuration.md, "Limits: ceilings and learning").
     */
    static io.quotaflow.settings.LimitOrigin limitOrigin(ConfigValues values, String key) {
        if (isAuto(values.string(key))) {
            return io.quotaflow.settings.LimitOrigin.AUTO;
        }
        return values.isGiven(key) ? io.quotaflow.settings.LimitOrigin.SET : io.quotaflow.settings.LimitOrigin.DEFAULT;
    }

    static boolean isAuto(String v) {
        return v.strip().equalsIgnoreCase("auto");
    }

    /** {@code routing.max-wait.<p>=none}: that class never falls back for its wait. */
    static boolean isNone(String v) {
        return v.strip().equalsIgnoreCase("none");
    }

    private static boolean isMaxWait(String v) {
        return isNone(v) || ConfigDurations.parse(v).filter(d -> !d.isZero()).isPresent();
    }

    private static boolean isDialect(String v) {
        try {
            io.quotaflow.settings.Dialect.parse(v);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isRouteList(List<?> names) {
        List<String> stripped = names.stream().map(n -> n.toString().strip()).filter(n -> !n.isEmpty()).toList();
        return stripped.stream().allMatch(n -> n.matches(ROUTE_NAME)) && stripped.stream().distinct().count() == stripped.size();
    }

    private static boolean isKeyVariable(String v) {
        return v.matches("[A-Za-z_][A-Za-z0-9_]*")
                && (!v.startsWith(ConfigKeys.ENV_PREFIX) || v.equals(ConfigLoader.API_KEY_ENV));
    }

    private static ConfigDef.Validator rule(String description, Predicate<Object> test) {
        return ConfigDef.LambdaValidator.with((name, value) -> {
            if (value != null && !test.test(value)) {
                throw new ConfigException(name, value, "must be " + description);
            }
        }, () -> description);
    }

    private static boolean isAutoOrPositive(String v) {
        if (v.strip().equalsIgnoreCase("auto")) {
            return true;
        }
        try {
            return Integer.parseInt(v.strip()) > 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean isAbsoluteUrl(String v) {
        try {
            URI uri = new URI(v.strip());
            return uri.getScheme() != null && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}

package io.quotaflow.config;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.function.Predicate;

/**
 * The validators a key of {@link ConfigKeys} may carry beyond its type, as Kafka's {@code ConfigDef.Range}
 * and {@code ValidString} are: each row of the key table names its own; the settings records check the
 * rest (ranges that depend on each other) and the loader names the source of the value.
 */
final class ConfigRules {

    /** What a route name is made of. */
    static final String ROUTE_NAME = "[a-z0-9][a-z0-9-]*";

    private ConfigRules() {
    }

    /** A value matching {@code regex} as written. */
    static ConfigDef.Validator pattern(String description, String regex) {
        return rule(description, v -> v.toString().matches(regex));
    }

    /** A value matching {@code regex} once stripped. */
    static ConfigDef.Validator strippedPattern(String description, String regex) {
        return rule(description, v -> v.toString().strip().matches(regex));
    }

    /** A number of at least {@code min}. */
    static ConfigDef.Validator atLeast(String description, long min) {
        return rule(description, v -> ((Number) v).longValue() >= min);
    }

    /** A number in {@code [min, max]}. */
    static ConfigDef.Validator between(String description, long min, long max) {
        return rule(description, v -> ((Number) v).longValue() >= min && ((Number) v).longValue() <= max);
    }

    /** A finite number in {@code [min, max]}. */
    static ConfigDef.Validator share(String description, double min, double max) {
        return rule(description, v -> Double.isFinite((Double) v) && (Double) v >= min && (Double) v <= max);
    }

    /** A finite number above 0. */
    static ConfigDef.Validator positiveNumber() {
        return rule("a number above 0", v -> Double.isFinite((Double) v) && (Double) v > 0);
    }

    /** One of {@code options}, stripped, in any ASCII case; described as "a, b or c". */
    static ConfigDef.Validator oneOf(String... options) {
        List<String> allowed = List.of(options);
        String description = String.join(", ", allowed.subList(0, allowed.size() - 1)) + " or " + allowed.get(allowed.size() - 1);
        String regex = "(?i)" + allowed.stream().map(Pattern::quote).collect(Collectors.joining("|"));
        return rule(description, v -> v.toString().strip().matches(regex));
    }

    /** A duration, or {@code none}: above 0 ({@code routing.max-wait.*}, {@code queue.max-wait.*}, {@code deadline.<p>}). */
    static ConfigDef.Validator durationOrNone() {
        return rule(ConfigDurations.SHAPE + ", above 0; or none", v -> isMaxWait(v.toString()));
    }

    /** A duration; {@code suffix} completes the description. */
    static ConfigDef.Validator duration(String suffix) {
        return rule(ConfigDurations.SHAPE + suffix, v -> ConfigDurations.parse(v.toString()).isPresent());
    }

    /** A duration that {@code within} accepts; {@code suffix} completes the description. */
    static ConfigDef.Validator duration(String suffix, Predicate<Duration> within) {
        return rule(ConfigDurations.SHAPE + suffix, v -> ConfigDurations.parse(v.toString()).filter(within).isPresent());
    }

    /** A positive integer or {@code none} ({@code queue.max-depth.*}). */
    static ConfigDef.Validator positiveOrNone() {
        return rule("a positive integer, or none", v -> isNone(v.toString()) || v.toString().strip().matches("[1-9][0-9]{0,8}"));
    }

    /** {@code auto} or a positive integer ({@code quota.max-in-flight}). */
    static ConfigDef.Validator autoOrPositive() {
        return rule("auto or a positive integer", v -> isAutoOrPositive(v.toString()));
    }

    /** A per-minute limit: a positive integer, {@code auto} or {@code none} ({@code quota.rpm}, {@code route.<name>.tpm}). */
    static ConfigDef.Validator perMinuteLimit() {
        return rule("a positive integer, auto or none", v -> isNone(v.toString()) || isAuto(v.toString())
                || v.toString().strip().matches("[1-9][0-9]{0,9}")
                && Long.parseLong(v.toString().strip()) <= Integer.MAX_VALUE);
    }

    /** A provider dialect's name. */
    static ConfigDef.Validator dialect() {
        return rule(io.quotaflow.settings.Dialect.names().replace("|", ", "), v -> isDialect(v.toString()));
    }

    /** An absolute URL. */
    static ConfigDef.Validator absoluteUrl() {
        return rule("an absolute URL such as https://api.openai.com/v1", v -> isAbsoluteUrl(v.toString()));
    }

    /** An absolute http(s) URL. */
    static ConfigDef.Validator httpUrl() {
        return rule("an http(s) URL such as https://api.openai.com/v1", v -> isAbsoluteUrl(v.toString())
                && v.toString().strip().matches("(?i)https?:.*"));
    }

    /** Route names, each once ({@code routes}). */
    static ConfigDef.Validator routeList() {
        return rule("route names: lower-case letters, digits and '-', each once", v -> isRouteList((List<?>) v));
    }

    /** Tenant names, each once ({@code tenants.allowed}). */
    static ConfigDef.Validator tenantList() {
        return rule("tenant names (no ':' or control characters, at most 128 characters), each once",
                v -> isTenantList((List<?>) v));
    }

    /** The name of the variable holding a route's key ({@code route.<name>.api-key-env}). */
    static ConfigDef.Validator keyVariable() {
        return rule("the name of the variable holding the key (letters, digits, '_'; not a QUOTAFLOW_* name "
                + "other than QUOTAFLOW_LLM_API_KEY)", v -> isKeyVariable(v.toString().strip()));
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

    private static boolean isTenantList(List<?> names) {
        List<String> stripped = names.stream().map(n -> n.toString().strip()).filter(n -> !n.isEmpty()).toList();
        return stripped.stream().allMatch(io.quotaflow.records.TicketKey::validTenant)
                && stripped.stream().distinct().count() == stripped.size();
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

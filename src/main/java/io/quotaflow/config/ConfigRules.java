package io.quotaflow.config;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.function.Predicate;

/**
 * The rules of the keys that need more than their type ({@link ConfigKeys}); the settings records
 * check the rest (ranges that depend on each other) and the loader names the source of the value.
 */
final class ConfigRules {

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
            case "cluster.check-timeout-ms":
                return rule("at least 1", v -> (Long) v >= 1);
            case "quota.max-in-flight":
                return rule("auto or a positive integer", v -> isAutoOrPositive(v.toString()));
            case "llm.base-url":
                return rule("an absolute URL such as https://api.openai.com/v1", v -> isAbsoluteUrl(v.toString()));
            default:
                return null;
        }
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

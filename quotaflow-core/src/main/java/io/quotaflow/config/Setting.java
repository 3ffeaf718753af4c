package io.quotaflow.config;

import io.quotaflow.settings.Origin;
import java.util.Objects;

/**
 * One configuration value as given, with its origin.
 *
 * @param key    the key ({@code quota.rpm}, {@code kafka.security.protocol})
 * @param value  the value as written, stripped
 * @param origin where it came from
 */
public record Setting(String key, String value, Origin origin) {

    public Setting {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(origin, "origin");
    }
}

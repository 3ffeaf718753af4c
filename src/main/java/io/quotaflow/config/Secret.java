package io.quotaflow.config;

import java.util.Objects;

/** A secret value (an API key) that never prints itself. */
public final class Secret {

    private final String value;

    private Secret(String value) {
        this.value = Objects.requireNonNull(value);
    }

    public static Secret of(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("secret must not be blank");
        }
        return new Secret(value.strip());
    }

    /** The raw value: only for the Authorization header. */
    public String reveal() {
        return value;
    }

    /** Replaces every occurrence of the secret in {@code text} with {@code ***}. */
    public String redact(String text) {
        return text == null ? null : text.replace(value, "***");
    }

    @Override
    public String toString() {
        return "***";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Secret s && s.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }
}

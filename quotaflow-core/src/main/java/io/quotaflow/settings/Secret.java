package io.quotaflow.settings;

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

    /**
     * Removes the secret from {@code text}: exact, in any letter case, masked ({@code sk-abcd****wxyz})
     * or partly (8 or more consecutive characters of it), then anything else shaped like a key
     * ({@link Redactor#scrub}). Null-safe.
     */
    public String redact(String text) {
        return Redactor.redact(text, value);
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

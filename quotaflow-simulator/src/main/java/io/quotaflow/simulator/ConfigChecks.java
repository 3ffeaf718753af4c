package io.quotaflow.simulator;

import java.util.Objects;

/** The argument checks of the simulator's configuration records: each throws {@link IllegalArgumentException}. */
final class ConfigChecks {

    private ConfigChecks() {
    }

    /** Throws with {@code message} unless {@code ok}. */
    static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Non-null ({@link NullPointerException} naming {@code name}) and not blank. */
    static String notBlank(String value, String name) {
        Objects.requireNonNull(value, name);
        require(!value.isBlank(), name + " must not be blank");
        return value;
    }
}

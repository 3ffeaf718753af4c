package io.quotaflow.settings;

/**
 * Where a per-minute limit of a route comes from, which decides how the provider's rate-limit
 * headers may move it (docs/configuration.md, "Limits: ceilings and learning").
 */
public enum LimitOrigin {
    /** Nothing set: the built-in default, a starting point the provider's headers move up or down. */
    DEFAULT("default"),
    /** Set to {@code auto}: the built-in default as a starting point, learned from the provider as a default is. */
    AUTO("auto"),
    /** Set by a flag, the file or a variable: a ceiling the provider's headers may lower, never raise. */
    SET("set");

    private final String label;

    LimitOrigin(String label) {
        this.label = label;
    }

    /** Whether the provider's headers may raise the limit above its configured value. */
    public boolean learnsUp() {
        return this != SET;
    }

    /** {@code default}, {@code auto} or {@code set}, as the start-up line names it. */
    public String label() {
        return label;
    }
}

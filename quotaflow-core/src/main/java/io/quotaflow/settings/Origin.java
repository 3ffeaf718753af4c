package io.quotaflow.settings;

import java.nio.file.Path;

/**
 * Where a configuration value came from, for error messages: the built-in default, a line of the
 * {@code --config} file, a {@code QUOTAFLOW_*} variable, or a flag.
 *
 * @param description e.g. {@code q.properties line 3}, {@code environment variable QUOTAFLOW_QUOTA_RPM}
 */
public record Origin(String description) {

    public static final Origin DEFAULT = new Origin("built-in default");

    public static Origin file(Path file, int line) {
        return new Origin(file + (line > 0 ? " line " + line : ""));
    }

    public static Origin env(String variable) {
        return new Origin("environment variable " + variable);
    }

    public static Origin flag(String flag) {
        return new Origin("flag " + flag);
    }

    @Override
    public String toString() {
        return description;
    }
}

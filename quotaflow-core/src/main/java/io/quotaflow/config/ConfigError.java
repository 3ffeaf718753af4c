package io.quotaflow.config;

/**
 * A configuration that cannot start: an unknown key, a value of the wrong type or out of range, a
 * missing required setting or file. The message names the key, the value (unless it may be a
 * secret) and where it came from. The command line maps it to exit code 2.
 */
public final class ConfigError extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public ConfigError(String message) {
        super(message);
    }
}

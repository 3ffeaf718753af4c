package io.quotaflow.cli;

import io.quotaflow.settings.Keys;
import io.quotaflow.config.ConfigValues;
import io.quotaflow.logging.LogSetup;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.Optional;

/**
 * The global {@code --log-format text|json} option and the {@code log.format} / {@code log.level}
 * settings: applied once from the flag and the environment before anything logs, then again from
 * the command's whole settings ({@code --config FILE} included) before it runs.
 */
final class LogOptions {

    static final String FLAG = "--log-format";
    static final List<String> FORMATS = List.of("text", "json");
    static final List<String> LEVELS = List.of("error", "warn", "info", "debug", "trace");
    /** {@code log.format}'s and {@code log.level}'s variables ({@code LogOptionsTest} checks them against the loader's names). */
    static final String FORMAT_VARIABLE = "QUOTAFLOW_LOG_FORMAT";
    static final String LEVEL_VARIABLE = "QUOTAFLOW_LOG_LEVEL";

    private LogOptions() {
    }

    /** The value of {@code --log-format} in {@code args} (last one wins), if given. */
    static Optional<String> format(String... args) {
        String found = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(FLAG)) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(FLAG + " needs a value: text or json");
                }
                found = args[++i];
            } else if (args[i].startsWith(FLAG + "=")) {
                found = args[i].substring(FLAG.length() + 1);
            }
        }
        if (found != null && !FORMATS.contains(found.strip().toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException(FLAG + " must be text or json, not '" + found + "'");
        }
        return Optional.ofNullable(found).map(f -> f.strip().toLowerCase(Locale.ROOT));
    }

    /** {@code args} without {@code --log-format} and its value. */
    static String[] without(String... args) {
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(FLAG)) {
                i++;
            } else if (!args[i].startsWith(FLAG + "=")) {
                rest.add(args[i]);
            }
        }
        return rest.toArray(String[]::new);
    }

    /** Before anything logs: the flag, else the {@code QUOTAFLOW_LOG_*} variables when they are valid. */
    static void applyEarly(Optional<String> flag, Map<String, String> env, boolean verbose) {
        // literal names: nothing that may log (and so start logging) runs before the properties are set
        LogSetup.apply(flag.orElseGet(() -> valid(env.get(FORMAT_VARIABLE), FORMATS)), valid(env.get(LEVEL_VARIABLE), LEVELS), verbose);
    }

    /**
     * Before the command runs: {@code log.format} and {@code log.level} from every source of a command
     * that reads settings (the flag still wins). A settings problem is left to the command to report.
     */
    static void applySettings(ParseResult parseResult, Map<String, String> env, Set<String> extraVariables, Optional<String> flag,
            boolean verbose) {
        ParseResult last = parseResult;
        while (last.hasSubcommand()) {
            last = last.subcommand();
        }
        for (CommandSpec mixin : last.commandSpec().mixins().values()) {
            if (mixin.userObject() instanceof KafkaConnectionOptions options) {
                options.environment(env, extraVariables);
                ConfigValues values;
                try {
                    values = options.settings(Map.of());
                } catch (RuntimeException e) {
                    return;
                }
                // only what a source gave: the defaults are logback.xml's own, and nothing needs reloading for them
                LogSetup.apply(flag.orElseGet(() -> given(values, Keys.LOG_FORMAT)), given(values, Keys.LOG_LEVEL), verbose);
                return;
            }
        }
    }

    private static String given(ConfigValues values, String key) {
        return values.isGiven(key) ? values.get(key).orElse(null) : null;
    }

    private static String valid(String value, List<String> allowed) {
        return value != null && allowed.contains(value.strip().toLowerCase(Locale.ROOT)) ? value : null;
    }
}

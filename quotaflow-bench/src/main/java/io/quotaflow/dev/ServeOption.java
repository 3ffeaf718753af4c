package io.quotaflow.dev;

import io.quotaflow.simulator.ModelSpec;
import io.quotaflow.simulator.SimTokenizer;

import java.math.BigDecimal;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The value of {@code quotaflow sim --serve}: one more model the simulator serves, as
 * {@code NAME[:key=value,...]} with the keys {@code rpm}, {@code tpm}, {@code burst-seconds},
 * {@code context-tokens}, {@code tokenizer} and {@code key-env} (the name of an environment variable
 * holding the model's own comma-separated keys: a key itself never goes on the command line). Keys
 * left out take the simulator's defaults (RPM 500, TPM 200 000, burst 5 s, context 128 000, the
 * model's own tokenizer, the simulator's keys), not the default model's flags.
 */
final class ServeOption {

    static final List<String> KEYS = List.of("rpm", "tpm", "burst-seconds", "context-tokens", "tokenizer", "key-env");
    static final String SYNTAX = "NAME[:rpm=R,tpm=T,burst-seconds=S,context-tokens=N,tokenizer=NAME,key-env=VAR]";

    private ServeOption() {
    }

    /**
     * The model {@code text} describes, its keys read from {@code env}.
     *
     * @throws IllegalArgumentException naming the model and the key at fault (never echoing a value
     *                                  that might be a misplaced secret)
     */
    static ModelSpec parse(String text, Map<String, String> env) {
        String value = text == null ? "" : text.strip();
        int colon = value.indexOf(':');
        String name = (colon < 0 ? value : value.substring(0, colon)).strip();
        if (name.isEmpty() || name.contains("=") || name.contains(",")) {
            throw new IllegalArgumentException("--serve must be " + SYNTAX + ", starting with the model's name, e.g. "
                    + "--serve gpt-4o:rpm=500,tpm=30000,context-tokens=128000");
        }
        ModelSpec spec = ModelSpec.of(name);
        if (colon < 0) {
            return spec;
        }
        Set<String> seen = new LinkedHashSet<>();
        for (String pair : value.substring(colon + 1).split(",", -1)) {
            int eq = pair.indexOf('=');
            String key = checkedKey(name, eq < 0 ? "" : pair.substring(0, eq).strip(), seen);
            spec = with(spec, key, pair.substring(eq + 1).strip(), env);
        }
        return spec;
    }

    /** {@code key} when it is known and new, added to {@code seen}. */
    private static String checkedKey(String name, String key, Set<String> seen) {
        if (key.isEmpty()) {
            throw new IllegalArgumentException("--serve " + name + ": expected key=value pairs separated by commas ("
                    + String.join(", ", KEYS) + ")");
        }
        if (!KEYS.contains(key)) {
            throw new IllegalArgumentException("--serve " + name + ": unknown key '" + key + "'; known keys: "
                    + String.join(", ", KEYS));
        }
        if (!seen.add(key)) {
            throw new IllegalArgumentException("--serve " + name + ": " + key + " is given twice");
        }
        return key;
    }

    private static ModelSpec with(ModelSpec spec, String key, String value, Map<String, String> env) {
        switch (key) {
            case "rpm":
                return spec.withLimits(positive(spec, key, value), spec.tpm());
            case "tpm":
                return spec.withLimits(spec.rpm(), positive(spec, key, value));
            case "burst-seconds":
                return spec.withBurstSeconds(decimal(spec, key, value));
            case "context-tokens":
                long tokens = positive(spec, key, value);
                if (tokens > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("--serve " + spec.name() + ": context-tokens is too large");
                }
                return spec.withContextTokens((int) tokens);
            case "tokenizer":
                try {
                    return spec.withTokenizer(SimTokenizer.parse(value));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--serve " + spec.name() + ": tokenizer must be one of "
                            + SimTokenizer.choices(), e);
                }
            default:
                return spec.withApiKeys(keys(spec, value, env));
        }
    }

    private static long positive(ModelSpec spec, String key, String value) {
        try {
            long n = Long.parseLong(value.replace("_", ""));
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--serve " + spec.name() + ": " + key + " must be a positive whole number");
    }

    private static double decimal(ModelSpec spec, String key, String value) {
        try {
            return new BigDecimal(value).doubleValue();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--serve " + spec.name() + ": " + key + " must be a number of seconds in (0, 60]",
                    e);
        }
    }

    private static Set<String> keys(ModelSpec spec, String variable, Map<String, String> env) {
        if (!variable.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("--serve " + spec.name() + ": key-env must name an environment variable "
                    + "(letters, digits and '_')");
        }
        Set<String> keys = SimApiKeys.split(env.get(variable));
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("--serve " + spec.name() + ": the variable " + variable
                    + " (key-env) is not set or holds no key");
        }
        return keys;
    }
}

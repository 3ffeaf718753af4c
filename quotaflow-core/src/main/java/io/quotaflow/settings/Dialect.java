package io.quotaflow.settings;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a route's provider is spoken to ({@code route.<name>.dialect}): the wire shape of its URL,
 * credentials, rate-limit headers and errors. Each value's behaviour lives in one class of
 * {@code io.quotaflow.llm} ({@code ProviderDialect.of}).
 */
public enum Dialect {

    /** OpenAI and every OpenAI-compatible server: {@code Authorization: Bearer}, {@code {base}/chat/completions}. */
    OPENAI("openai"),
    /** Azure OpenAI: {@code api-key} header, {@code {base}/openai/deployments/{deployment}/chat/completions?api-version=…}. */
    AZURE("azure"),
    /** Anthropic's OpenAI-compatible endpoint ({@code https://api.anthropic.com/v1}). */
    ANTHROPIC("anthropic"),
    /** Gemini's OpenAI-compatible endpoint ({@code https://generativelanguage.googleapis.com/v1beta/openai}). */
    GEMINI("gemini");

    /** The Azure OpenAI {@code api-version} used when a route names none (the latest GA data-plane version). */
    public static final String DEFAULT_AZURE_API_VERSION = "2024-10-21";

    private final String wire;

    Dialect(String wire) {
        this.wire = wire;
    }

    /** The configuration value. */
    public String wire() {
        return wire;
    }

    /** The dialect a configuration value names (any case); refused with the accepted values otherwise. */
    public static Dialect parse(String value) {
        String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(d -> d.wire.equals(v)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("dialect must be one of " + names() + ": '" + value + "'"));
    }

    /** {@code openai|azure|anthropic|gemini}. */
    public static String names() {
        return Arrays.stream(values()).map(Dialect::wire).collect(Collectors.joining("|"));
    }

    @Override
    public String toString() {
        return wire;
    }
}

package io.quotaflow.cli;

import io.quotaflow.settings.Keys;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Map;

/**
 * The single-route provider options of {@code run} and {@code check} ({@code @Mixin}): base URL, model,
 * key file, dialect, RPM and TPM. Each is also read from {@code --config FILE} and the {@code QUOTAFLOW_*}
 * environment; the key itself only from {@code QUOTAFLOW_LLM_API_KEY} or the key file.
 */
public final class LlmOptions {

    @Option(names = "--llm-base-url", description = "API root including its version, e.g. https://api.openai.com/v1.")
    String baseUrl;

    @Option(names = "--llm-model", description = "Model name (default: gpt-4o-mini).")
    String model;

    @Option(names = "--llm-api-key-file", description = "File holding the API key (else QUOTAFLOW_LLM_API_KEY).")
    Path apiKeyFile;

    @Option(names = "--dialect", description = "How the provider is spoken to: openai (default), azure, anthropic or gemini.")
    String dialect;

    @Option(names = "--rpm", description = "The provider's requests-per-minute limit for this key and model, or none "
            + "(a self-hosted engine).")
    String rpm;

    @Option(names = "--tpm", description = "The provider's tokens-per-minute limit for this key and model, or none.")
    String tpm;

    /** Puts the options given into {@code flags}, keyed by configuration key. */
    void putInto(Map<String, String> flags) {
        put(flags, Keys.LLM_BASE_URL, baseUrl);
        put(flags, Keys.LLM_MODEL, model);
        put(flags, Keys.LLM_API_KEY_FILE, apiKeyFile);
        put(flags, Keys.LLM_DIALECT, dialect);
        put(flags, Keys.QUOTA_RPM, rpm);
        put(flags, Keys.QUOTA_TPM, tpm);
    }

    private static void put(Map<String, String> flags, String key, Object value) {
        if (value != null) {
            flags.put(key, value.toString());
        }
    }
}

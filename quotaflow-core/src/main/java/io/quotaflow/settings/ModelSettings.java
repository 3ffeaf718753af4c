package io.quotaflow.settings;

import io.quotaflow.tokens.TokenCounter;

import java.util.Locale;


import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * The model endpoint and the classification contract.
 *
 * @param baseUrl       API root including its version, e.g. {@code https://api.openai.com/v1}
 * @param model         model name sent in each request
 * @param apiKey        bearer key (never printed)
 * @param timeout       whole-call deadline of a call (connect, headers and body)
 * @param encoding      jtokkit encoding name used to count prompt tokens
 * @param contextTokens the model's context window; a ticket that cannot fit alone is {@code too-large}
 * @param categories    closed set of categories
 * @param urgencies     closed set of urgencies
 * @param dialect       how the provider is spoken to (URL, credentials, headers, errors)
 * @param apiVersion    Azure's {@code api-version} (default {@link Dialect#DEFAULT_AZURE_API_VERSION}); unused by the others
 * @param deployment    Azure's deployment name (default: the model); unused by the others
 */
public record ModelSettings(URI baseUrl, String model, Secret apiKey, Duration timeout, String encoding,
                            int contextTokens, List<String> categories, List<String> urgencies, Dialect dialect,
                            String apiVersion, String deployment) {

    public static final List<String> DEFAULT_CATEGORIES = List.of("billing", "technical", "account", "shipping", "other");
    public static final List<String> DEFAULT_URGENCIES = List.of("low", "medium", "high", "critical");

    public ModelSettings {
        QuotaSettings.require(baseUrl != null && baseUrl.getScheme() != null
                && (baseUrl.getScheme().equals("http") || baseUrl.getScheme().equals("https")),
                "llm.base-url must be an http(s) URL");
        QuotaSettings.require(model != null && !model.isBlank(), "llm.model must not be blank");
        QuotaSettings.require(apiKey != null, "the LLM API key is missing: set QUOTAFLOW_LLM_API_KEY or --llm-api-key-file");
        QuotaSettings.require(timeout != null && timeout.toMillis() > 0, "llm.timeout must be > 0");
        if (encoding == null || encoding.isBlank()) {
            encoding = defaultEncoding(model);
        }
        QuotaSettings.require(contextTokens >= 1024, "llm.context-tokens must be >= 1024");
        categories = normalise(categories, "categories");
        urgencies = normalise(urgencies, "urgencies");
        String base = baseUrl.toString();
        if (base.endsWith("/")) {
            baseUrl = URI.create(base.substring(0, base.length() - 1));
        }
        dialect = dialect == null ? Dialect.OPENAI : dialect;
        apiVersion = azurePart(dialect, apiVersion, Dialect.DEFAULT_AZURE_API_VERSION, "api-version");
        deployment = azurePart(dialect, deployment, model.strip(), "deployment");
    }

    /** An Azure URL part: {@code value}, else {@code otherwise} for Azure (null for the other dialects); URL-safe. */
    private static String azurePart(Dialect dialect, String value, String otherwise, String what) {
        String v = value == null || value.isBlank() ? (dialect == Dialect.AZURE ? otherwise : null) : value.strip();
        QuotaSettings.require(v == null || v.matches("[A-Za-z0-9._-]+"), what + " may only hold letters, digits, '.', '_' and '-'");
        return v;
    }

    /** An OpenAI-dialect endpoint. */
    public ModelSettings(URI baseUrl, String model, Secret apiKey, Duration timeout, String encoding, int contextTokens,
                         List<String> categories, List<String> urgencies) {
        this(baseUrl, model, apiKey, timeout, encoding, contextTokens, categories, urgencies, Dialect.OPENAI, null, null);
    }

    private static List<String> normalise(List<String> values, String what) {
        QuotaSettings.require(values != null && !values.isEmpty(), what + " must not be empty");
        List<String> out = values.stream().map(v -> v.strip().toLowerCase(Locale.ROOT)).filter(v -> !v.isEmpty()).distinct().toList();
        QuotaSettings.require(!out.isEmpty(), what + " must not be empty");
        return out;
    }

    public static ModelSettings of(URI baseUrl, String model, Secret apiKey) {
        return new ModelSettings(baseUrl, model, apiKey, Duration.ofSeconds(60), null, 128_000,
                DEFAULT_CATEGORIES, DEFAULT_URGENCIES);
    }

    public ModelSettings withTimeout(Duration value) {
        return new ModelSettings(baseUrl, model, apiKey, value, encoding, contextTokens, categories, urgencies, dialect, apiVersion,
                deployment);
    }

    public ModelSettings withContextTokens(int value) {
        return new ModelSettings(baseUrl, model, apiKey, timeout, encoding, value, categories, urgencies, dialect, apiVersion,
                deployment);
    }

    /** The same endpoint spoken to in {@code value} (with its api-version and deployment, defaulted when null). */
    public ModelSettings withDialect(Dialect value, String version, String deploymentName) {
        return new ModelSettings(baseUrl, model, apiKey, timeout, encoding, contextTokens, categories, urgencies, value, version,
                deploymentName);
    }

    /** The OpenAI-shaped chat-completions endpoint, {@code {baseUrl}/chat/completions} (a dialect's own: {@code ProviderDialect#chatUri}). */
    public URI chatCompletionsUri() {
        return URI.create(baseUrl + "/chat/completions");
    }

    /** {@code o200k_base} for gpt-4o, gpt-4.1, gpt-5, o1/o3/o4 families; {@code cl100k_base} otherwise. */
    public static String defaultEncoding(String model) {
        return TokenCounter.encodingNameFor(model);
    }
}

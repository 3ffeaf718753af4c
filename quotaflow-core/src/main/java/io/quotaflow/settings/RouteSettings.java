package io.quotaflow.settings;

import java.util.List;
import java.util.Objects;

/**
 * One route: one model behind one key at one base URL, with its own limits (docs/design.md, "Routes").
 * Routes with the same base URL, key and model share one quota scope ({@link #scope()}).
 *
 * @param name            the route's name ({@code routes=a,b}): lower-case letters, digits and '-'
 * @param model           endpoint, model, key, context window, encoding
 * @param quota           its RPM / TPM and how hard to drive them
 * @param fallback        routes to move waiting tickets to, in order, when this one cannot serve them
 * @param contextFallback the route a ticket too large for this one goes to, or null
 * @param prices          its prices, {@link Prices#NONE} when not configured
 * @param daily           its daily limits, {@link DailyLimits#NONE} when not configured
 * @param inputTpm        separate prompt-token limit per minute, 0 for none
 * @param outputTpm       separate completion-token limit per minute, 0 for none
 * @param batchApi        how it uses the Batch API ({@code mode=batch}), {@link BatchApiSettings#ONLINE} for none
 */
public record RouteSettings(String name, ModelSettings model, QuotaSettings quota, List<String> fallback,
                            String contextFallback, Prices prices, DailyLimits daily, int inputTpm, int outputTpm,
                            BatchApiSettings batchApi) {

    /** An online route (it calls the chat endpoint directly). */
    public RouteSettings(String name, ModelSettings model, QuotaSettings quota, List<String> fallback,
                         String contextFallback, Prices prices, DailyLimits daily, int inputTpm, int outputTpm) {
        this(name, model, quota, fallback, contextFallback, prices, daily, inputTpm, outputTpm, BatchApiSettings.ONLINE);
    }

    /** The name of the route the single-route options define. */
    public static final String DEFAULT_NAME = "default";

    public RouteSettings {
        QuotaSettings.require(name != null && name.matches("[a-z0-9][a-z0-9-]*"),
                "route name must be lower-case letters, digits and '-', got '" + name + "'");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(quota, "quota");
        fallback = fallback == null ? List.of() : List.copyOf(fallback);
        QuotaSettings.require(!fallback.contains(name), "route." + name + ".fallback must not name the route itself");
        QuotaSettings.require(contextFallback == null || !contextFallback.equals(name),
                "route." + name + ".context-fallback must not name the route itself");
        prices = prices == null ? Prices.NONE : prices;
        daily = daily == null ? DailyLimits.NONE : daily;
        QuotaSettings.require(inputTpm >= 0, "route." + name + ".input-tpm must be >= 0 (0: none)");
        QuotaSettings.require(outputTpm >= 0, "route." + name + ".output-tpm must be >= 0 (0: none)");
        batchApi = batchApi == null ? BatchApiSettings.ONLINE : batchApi;
        // the Batch API client speaks only OpenAI's paths (/files, /batches) and bearer auth: refused at load, not at the first job
        QuotaSettings.require(!batchApi.enabled() || model.dialect() == Dialect.OPENAI, "route " + name + ": mode=batch needs the "
                + "openai dialect, and its dialect is " + model.dialect().wire() + " (the Batch API client speaks only OpenAI's "
                + "/files and /batches paths with bearer auth); set route." + name + ".mode=online, or route." + name
                + ".dialect=openai for an OpenAI Batch API endpoint");
    }

    /** This route with {@code value} as its Batch API settings. */
    public RouteSettings withBatchApi(BatchApiSettings value) {
        return new RouteSettings(name, model, quota, fallback, contextFallback, prices, daily, inputTpm, outputTpm, value);
    }

    /** Whether its calls go through the Batch API ({@code mode=batch}). */
    public boolean batchMode() {
        return batchApi.enabled();
    }

    /** What its calls cost per million tokens: {@link #prices()}, at the batch price on a batch route. */
    public Prices callPrices() {
        return batchApi.prices(prices);
    }

    /** A route with only a model and a quota: no fallback, prices or extra limits. */
    public static RouteSettings of(String name, ModelSettings model, QuotaSettings quota) {
        return new RouteSettings(name, model, quota, List.of(), null, Prices.NONE, DailyLimits.NONE, 0, 0);
    }

    /**
     * The quota scope it belongs to (a hash of base URL, key and model: never the key); a batch route's
     * is its own ({@code -batch}): the Batch API has its own limits, and its tickets their own queue.
     */
    public String scope() {
        return batchApi.enabled() ? QuotaScope.of(model) + BATCH_SCOPE_SUFFIX : QuotaScope.of(model);
    }

    /** What a batch route's scope ends with. */
    public static final String BATCH_SCOPE_SUFFIX = "-batch";

    /** The configured context window in tokens. */
    public int contextTokens() {
        return model.contextTokens();
    }
}

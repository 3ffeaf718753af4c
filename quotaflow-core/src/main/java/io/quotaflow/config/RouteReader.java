package io.quotaflow.config;

import io.quotaflow.settings.Keys;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.quotaflow.settings.BatchApiSettings;
import io.quotaflow.settings.DailyLimits;
import io.quotaflow.settings.Dialect;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Prices;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Secret;

/**
 * Reads one route of {@code routes} from the merged values (docs/design.md, "Routes configuration"):
 * every {@code route.<name>.*} field the route does not set is the single-route option's
 * ({@code llm.base-url}, {@code llm.model}, {@code quota.rpm}, ...; the other {@code quota.*} knobs
 * apply to every route). Its API key comes from the variable named by {@code .api-key-env} or the
 * file {@code .api-key-file}, else from {@code QUOTAFLOW_LLM_API_KEY} / {@code llm.api-key-file}; an
 * error names the route and where the key was expected, never a key.
 */
final class RouteReader {

    private final ConfigValues values;
    private final Map<String, String> env;
    private final QuotaSettings baseQuota;

    RouteReader(ConfigValues values, Map<String, String> env, QuotaSettings baseQuota) {
        this.values = values;
        this.env = env;
        this.baseQuota = baseQuota;
    }

    /** The route {@code name}. */
    RouteSettings read(String name) {
        Secret key = key(name);
        String baseUrl = values.get(source(name, "base-url")).orElseThrow(() -> new ConfigError("route " + name
                + " has no base URL: set " + RouteKeys.key(name, "base-url") + ", or llm.base-url (--llm-base-url, "
                + ConfigKeys.envName(Keys.LLM_BASE_URL) + ") for every route"));
        ModelSettings model = new ModelSettings(URI.create(baseUrl.strip()), values.string(source(name, "model")), key,
                Duration.ofMillis(values.longValue(source(name, "timeout-ms"))), values.get(source(name, "encoding")).orElse(null),
                values.integer(source(name, "context-tokens")), values.list(Keys.CLASSIFY_CATEGORIES), values.list(Keys.CLASSIFY_URGENCIES));
        model = model.withDialect(Dialect.parse(values.string(source(name, "dialect"))), values.get(source(name, "api-version")).orElse(null),
                values.get(source(name, "deployment")).orElse(null));
        QuotaSettings defaults = QuotaSettings.ofDefaults();
        String rpm = source(name, "rpm");
        String tpm = source(name, "tpm");
        QuotaSettings quota = baseQuota.withRpm(ConfigRules.limit(values.string(rpm), defaults.rpm()), ConfigRules.limitOrigin(values, rpm))
                .withTpm(ConfigRules.limit(values.string(tpm), defaults.tpm()), ConfigRules.limitOrigin(values, tpm));
        String fallbackKey = RouteKeys.key(name, "fallback");
        List<String> fallback = values.get(fallbackKey).isPresent() ? values.list(fallbackKey) : List.of();
        String contextFallback = values.get(RouteKeys.key(name, "context-fallback")).map(String::strip).orElse(null);
        Prices prices = new Prices(number(name, "price.input-per-mtok"), number(name, "price.output-per-mtok"));
        DailyLimits daily = new DailyLimits(whole(name, "rpd"), whole(name, "tpd"), (int) whole(name, "daily-reset-hour-utc"));
        return new RouteSettings(name, model, quota, fallback, contextFallback, prices, daily,
                (int) whole(name, "input-tpm"), (int) whole(name, "output-tpm"), batchApi(name));
    }

    /** How route {@code name} uses the Batch API ({@code route.<name>.mode}, {@code .batch.*}). */
    private BatchApiSettings batchApi(String name) {
        BatchApiSettings d = BatchApiSettings.ONLINE;
        boolean batch = values.get(RouteKeys.key(name, "mode")).map(m -> m.strip().equalsIgnoreCase("batch")).orElse(false);
        String factor = RouteKeys.key(name, "price.batch-factor");
        return new BatchApiSettings(batch, (int) whole(name, "batch.max-requests", d.maxRequests()),
                whole(name, "batch.max-file-bytes", d.maxFileBytes()), whole(name, "batch.max-enqueued-tokens", d.maxEnqueuedTokens()),
                Duration.ofMillis(whole(name, "batch.collect-ms", d.collect().toMillis())),
                Duration.ofMillis(whole(name, "batch.poll-ms", d.poll().toMillis())),
                values.get(factor).isPresent() ? values.number(factor) : d.priceFactor(),
                Duration.ofMillis(whole(name, "batch.expiry-grace-ms", d.expiryGrace().toMillis())));
    }

    private long whole(String name, String sub, long otherwise) {
        String key = RouteKeys.key(name, sub);
        return values.get(key).isPresent() ? values.longValue(key) : otherwise;
    }

    /** The key to read {@code sub} of route {@code name} from: the route's own when given, else the one it inherits. */
    private String source(String name, String sub) {
        String own = RouteKeys.key(name, sub);
        if (values.get(own).isPresent()) {
            return own;
        }
        return ConfigKeys.inherited(RouteKeys.ROUTE_PREFIX + RouteKeys.NAME + "." + sub).orElse(own);
    }

    private double number(String name, String sub) {
        String key = RouteKeys.key(name, sub);
        return values.get(key).isPresent() ? values.number(key) : 0;
    }

    private long whole(String name, String sub) {
        String key = RouteKeys.key(name, sub);
        return values.get(key).isPresent() ? values.longValue(key) : 0;
    }

    /** A variable's name as an error may show it: not at all when it may be a key pasted in its place. */
    static String shownVariable(String name) {
        boolean nameLike = name.matches("[A-Za-z_][A-Za-z0-9_]{0,63}") && !name.matches(".*[A-Za-z0-9]{16}.*");
        return nameLike ? name : "named there (not shown: it does not look like a variable name, and may be the key itself)";
    }

    private Secret key(String name) {
        String envKey = RouteKeys.key(name, "api-key-env");
        String fileKey = RouteKeys.key(name, "api-key-file");
        Optional<String> variable = values.get(envKey).map(String::strip);
        Optional<String> file = values.get(fileKey);
        if (variable.isPresent() && file.isPresent()) {
            throw new ConfigError("route " + name + " has two sources for its API key: set " + envKey + " or "
                    + fileKey + ", not both");
        }
        if (variable.isPresent()) {
            String value = env.get(variable.get());
            if (value == null || value.isBlank()) {
                throw new ConfigError("the API key of route " + name + " is missing: the variable "
                        + shownVariable(variable.get()) + " (named by " + envKey + ", " + values.origin(envKey) + ") is not set");
            }
            return Secret.of(value);
        }
        if (file.isPresent()) {
            return ApiKeyReader.fromFile(file.get(), "the API key file of route " + name + " (" + fileKey + ")");
        }
        Optional<String> sharedFile = values.get(Keys.LLM_API_KEY_FILE);
        String sharedValue = env.get(ConfigLoader.API_KEY_ENV);
        if (sharedFile.isEmpty() && (sharedValue == null || sharedValue.isBlank())) {
            throw new ConfigError("the API key of route " + name + " is missing: set " + envKey + " to the name of the "
                    + "variable holding it, or " + fileKey + ", or " + ConfigLoader.API_KEY_ENV + " / --llm-api-key-file "
                    + "for every route without its own");
        }
        return ApiKeyReader.read(sharedFile.orElse(null), sharedValue);
    }
}

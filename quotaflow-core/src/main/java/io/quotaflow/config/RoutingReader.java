package io.quotaflow.config;

import io.quotaflow.settings.Keys;
import io.quotaflow.records.Priority;

import java.net.URI;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.quotaflow.settings.Dialect;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.settings.Secret;

/**
 * Reads the {@link Routing} from the merged values (docs/design.md, "Routes configuration"). Without
 * {@code routes}, the single-route options define one route named {@code default}, as they always
 * have; with it, each listed route is read by {@link RouteReader}. Then the rules:
 * {@code routing.default} (default: the first route), {@code routing.priority.<p>},
 * {@code routing.tenant.<t>}, {@code routing.max-wait.<p>} and {@code cache.ttl}, checked against the
 * routes by {@link Routing} itself.
 */
final class RoutingReader {

    private RoutingReader() {
    }

    static Routing read(ConfigValues values, Map<String, String> env) {
        QuotaSettings quota = quota(values);
        List<String> names = values.get(Keys.ROUTES).isPresent() ? values.list(Keys.ROUTES) : List.of();
        Map<String, RouteSettings> routes = new LinkedHashMap<>();
        if (names.isEmpty()) {
            routes.put(RouteSettings.DEFAULT_NAME, RouteSettings.of(RouteSettings.DEFAULT_NAME, singleModel(values, env), quota));
        } else {
            RouteReader reader = new RouteReader(values, env, quota);
            names.forEach(n -> routes.put(n, reader.read(n)));
        }
        String defaultRoute = values.get(Keys.ROUTING_DEFAULT).map(String::strip).orElse(routes.keySet().iterator().next());
        Map<Priority, String> byPriority = new EnumMap<>(Priority.class);
        Map<Priority, Duration> maxWait = new EnumMap<>(Priority.class);
        for (Priority p : Priority.values()) {
            values.get(Keys.ROUTING_PRIORITY_PREFIX + p.wireName()).ifPresent(r -> byPriority.put(p, r.strip()));
            String waitKey = Keys.ROUTING_MAX_WAIT_PREFIX + p.wireName();
            values.get(waitKey).filter(w -> !ConfigRules.isNone(w)).ifPresent(w -> maxWait.put(p, ConfigDurations.require(waitKey, w)));
        }
        Map<String, String> byTenant = new LinkedHashMap<>();
        for (String key : values.keysStartingWith(RouteKeys.TENANT_PREFIX)) {
            values.get(key).ifPresent(r -> byTenant.put(key.substring(RouteKeys.TENANT_PREFIX.length()), r.strip()));
        }
        Duration ttl = ConfigDurations.require(Keys.CACHE_TTL, values.string(Keys.CACHE_TTL));
        String cacheScope = values.string(Keys.CACHE_SCOPE).strip().toLowerCase(java.util.Locale.ROOT);
        Duration stale = ConfigDurations.require(Keys.CACHE_STALE_TTL, values.string(Keys.CACHE_STALE_TTL));
        return new Routing(routes, defaultRoute, byPriority, byTenant, maxWait, ttl, "global".equals(cacheScope), stale);
    }

    /** {@code quota.*}: the single route's quota, and every route's knobs. */
    static QuotaSettings quota(ConfigValues p) {
        String inFlight = p.string(Keys.QUOTA_MAX_IN_FLIGHT).strip();
        QuotaSettings defaults = QuotaSettings.ofDefaults();
        return new QuotaSettings(ConfigRules.limit(p.string(Keys.QUOTA_RPM), defaults.rpm()),
                ConfigRules.limit(p.string(Keys.QUOTA_TPM), defaults.tpm()),
                p.number(Keys.QUOTA_SAFETY_FACTOR), p.number(Keys.QUOTA_BURST_SECONDS),
                inFlight.equalsIgnoreCase("auto") ? QuotaSettings.AUTO : Integer.parseInt(inFlight),
                p.number(Keys.QUOTA_RESERVE_FRACTION), p.integer(Keys.QUOTA_MAX_IN_FLIGHT_CEILING),
                ConfigRules.limitOrigin(p, Keys.QUOTA_RPM), ConfigRules.limitOrigin(p, Keys.QUOTA_TPM));
    }

    /** {@code llm.*} and {@code QUOTAFLOW_LLM_API_KEY} / {@code llm.api-key-file}: the route named {@code default}. */
    private static ModelSettings singleModel(ConfigValues p, Map<String, String> env) {
        Secret key = ApiKeyReader.read(p.get(Keys.LLM_API_KEY_FILE).orElse(null), env.get(ConfigLoader.API_KEY_ENV));
        return new ModelSettings(URI.create(p.string(Keys.LLM_BASE_URL).strip()), p.string(Keys.LLM_MODEL),
                key, p.millis(Keys.LLM_TIMEOUT_MS), p.get(Keys.LLM_ENCODING).orElse(null), p.integer(Keys.LLM_CONTEXT_TOKENS),
                p.list(Keys.CLASSIFY_CATEGORIES), p.list(Keys.CLASSIFY_URGENCIES))
                .withDialect(Dialect.parse(p.string(Keys.LLM_DIALECT)), p.get(Keys.LLM_API_VERSION).orElse(null),
                        p.get(Keys.LLM_DEPLOYMENT).orElse(null));
    }
}

package io.quotaflow.config;

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
import io.quotaflow.routing.RouteSettings;
import io.quotaflow.routing.Routing;
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
        List<String> names = values.get("routes").isPresent() ? values.list("routes") : List.of();
        Map<String, RouteSettings> routes = new LinkedHashMap<>();
        if (names.isEmpty()) {
            routes.put(RouteSettings.DEFAULT_NAME, RouteSettings.of(RouteSettings.DEFAULT_NAME, singleModel(values, env), quota));
        } else {
            RouteReader reader = new RouteReader(values, env, quota);
            names.forEach(n -> routes.put(n, reader.read(n)));
        }
        String defaultRoute = values.get("routing.default").map(String::strip).orElse(routes.keySet().iterator().next());
        Map<Priority, String> byPriority = new EnumMap<>(Priority.class);
        Map<Priority, Duration> maxWait = new EnumMap<>(Priority.class);
        for (Priority p : Priority.values()) {
            values.get("routing.priority." + p.wireName()).ifPresent(r -> byPriority.put(p, r.strip()));
            String waitKey = "routing.max-wait." + p.wireName();
            values.get(waitKey).filter(w -> !ConfigRules.isNone(w)).ifPresent(w -> maxWait.put(p, ConfigDurations.require(waitKey, w)));
        }
        Map<String, String> byTenant = new LinkedHashMap<>();
        for (String key : values.keysStartingWith(RouteKeys.TENANT_PREFIX)) {
            values.get(key).ifPresent(r -> byTenant.put(key.substring(RouteKeys.TENANT_PREFIX.length()), r.strip()));
        }
        Duration ttl = ConfigDurations.require("cache.ttl", values.string("cache.ttl"));
        String cacheScope = values.string("cache.scope").strip().toLowerCase(java.util.Locale.ROOT);
        Duration stale = ConfigDurations.require("cache.stale-ttl", values.string("cache.stale-ttl"));
        return new Routing(routes, defaultRoute, byPriority, byTenant, maxWait, ttl, "global".equals(cacheScope), stale);
    }

    /** {@code quota.*}: the single route's quota, and every route's knobs. */
    static QuotaSettings quota(ConfigValues p) {
        String inFlight = p.string("quota.max-in-flight").strip();
        QuotaSettings defaults = QuotaSettings.ofDefaults();
        return new QuotaSettings(ConfigRules.limit(p.string("quota.rpm"), defaults.rpm()),
                ConfigRules.limit(p.string("quota.tpm"), defaults.tpm()),
                p.number("quota.safety-factor"), p.number("quota.burst-seconds"),
                inFlight.equalsIgnoreCase("auto") ? QuotaSettings.AUTO : Integer.parseInt(inFlight),
                p.number("quota.reserve-fraction"), p.integer("quota.max-in-flight-ceiling"),
                ConfigRules.limitOrigin(p, "quota.rpm"), ConfigRules.limitOrigin(p, "quota.tpm"));
    }

    /** {@code llm.*} and {@code QUOTAFLOW_LLM_API_KEY} / {@code llm.api-key-file}: the route named {@code default}. */
    private static ModelSettings singleModel(ConfigValues p, Map<String, String> env) {
        Secret key = ApiKeyReader.read(p.get("llm.api-key-file").orElse(null), env.get(ConfigLoader.API_KEY_ENV));
        return new ModelSettings(URI.create(p.string("llm.base-url").strip()), p.string("llm.model"),
                key, p.millis("llm.timeout-ms"), p.get("llm.encoding").orElse(null), p.integer("llm.context-tokens"),
                p.list("classify.categories"), p.list("classify.urgencies"))
                .withDialect(Dialect.parse(p.string("llm.dialect")), p.get("llm.api-version").orElse(null),
                        p.get("llm.deployment").orElse(null));
    }
}

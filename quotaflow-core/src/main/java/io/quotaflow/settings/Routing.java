package io.quotaflow.settings;

import io.quotaflow.records.Priority;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Every route and which tickets go where (docs/design.md, "Routes"): {@code routes},
 * {@code route.<name>.*}, {@code routing.default}, {@code routing.priority.<p>},
 * {@code routing.tenant.<t>} (wins over priority), {@code routing.max-wait.<p>}.
 *
 * @param routes       every route by name, in configuration order
 * @param defaultRoute the route of a ticket no other rule names
 * @param byPriority   route per priority class (optional rules)
 * @param byTenant     route per tenant (optional rules; win over priority)
 * @param maxWait      expected wait beyond which a waiting ticket of that class falls back (absent: never)
 * @param cacheTtl     how long a classification answers identical tickets ({@code cache.ttl}; zero: no cache)
 * @param cacheShared  {@code cache.scope=global}: identical text of two tenants shares the cache and one call
 *                     (default {@code tenant}: each tenant has its own)
 * @param cacheStaleTtl how long after its {@code cache.ttl} an answer may still answer, marked stale, while the
 *                     ticket's route cannot serve ({@code cache.stale-ttl}; zero: never)
 */
public record Routing(Map<String, RouteSettings> routes, String defaultRoute, Map<Priority, String> byPriority,
                      Map<String, String> byTenant, Map<Priority, Duration> maxWait, Duration cacheTtl, boolean cacheShared,
                      Duration cacheStaleTtl) {

    /** {@code cache.stale-ttl}'s default. */
    public static final Duration DEFAULT_CACHE_STALE_TTL = Duration.ofDays(7);

    /** Routing with stale answers kept for {@link #DEFAULT_CACHE_STALE_TTL}. */
    public Routing(Map<String, RouteSettings> routes, String defaultRoute, Map<Priority, String> byPriority,
                   Map<String, String> byTenant, Map<Priority, Duration> maxWait, Duration cacheTtl, boolean cacheShared) {
        this(routes, defaultRoute, byPriority, byTenant, maxWait, cacheTtl, cacheShared, DEFAULT_CACHE_STALE_TTL);
    }

    /** The same routing with {@code cache.stale-ttl} {@code value}. */
    public Routing withCacheStaleTtl(Duration value) {
        return new Routing(routes, defaultRoute, byPriority, byTenant, maxWait, cacheTtl, cacheShared, value);
    }

    /** Routing with a cache of its own per tenant. */
    public Routing(Map<String, RouteSettings> routes, String defaultRoute, Map<Priority, String> byPriority,
                   Map<String, String> byTenant, Map<Priority, Duration> maxWait, Duration cacheTtl) {
        this(routes, defaultRoute, byPriority, byTenant, maxWait, cacheTtl, false);
    }

    /** {@code cache.ttl}'s default. */
    public static final Duration DEFAULT_CACHE_TTL = Duration.ofHours(24);

    /** {@code routing.max-wait.<p>}'s defaults: interactive 30 s, standard 10 min, bulk never. */
    public static final Map<Priority, Duration> DEFAULT_MAX_WAIT = java.util.Collections.unmodifiableMap(new EnumMap<>(
            Map.of(Priority.INTERACTIVE, Duration.ofSeconds(30), Priority.STANDARD, Duration.ofMinutes(10))));

    public Routing {
        QuotaSettings.require(routes != null && !routes.isEmpty(), "at least one route is required");
        routes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(routes));
        for (Map.Entry<String, RouteSettings> e : routes.entrySet()) {
            QuotaSettings.require(e.getKey().equals(e.getValue().name()), "route '" + e.getKey() + "' is named '" + e.getValue().name() + "'");
        }
        Map<String, RouteSettings> all = routes;
        QuotaSettings.require(defaultRoute != null && all.containsKey(defaultRoute),
                "routing.default names an unknown route '" + defaultRoute + "' (routes: " + String.join(",", all.keySet()) + ")");
        byPriority = byPriority == null || byPriority.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new EnumMap<>(byPriority));
        byTenant = byTenant == null ? Map.of() : Map.copyOf(byTenant);
        maxWait = maxWait == null || maxWait.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new EnumMap<>(maxWait));
        byPriority.forEach((p, r) -> QuotaSettings.require(all.containsKey(r),
                Keys.ROUTING_PRIORITY_PREFIX + p.wireName() + " names an unknown route '" + r + "'"));
        byTenant.forEach((t, r) -> QuotaSettings.require(all.containsKey(r), "routing.tenant." + t + " names an unknown route '" + r + "'"));
        for (RouteSettings r : all.values()) {
            r.fallback().forEach(f -> QuotaSettings.require(all.containsKey(f),
                    "route." + r.name() + ".fallback names an unknown route '" + f + "'"));
            QuotaSettings.require(r.contextFallback() == null || all.containsKey(r.contextFallback()),
                    "route." + r.name() + ".context-fallback names an unknown route '" + r.contextFallback() + "'");
        }
        maxWait.values().forEach(d -> QuotaSettings.require(!d.isNegative() && !d.isZero(), "routing.max-wait must be > 0"));
        Objects.requireNonNull(cacheTtl, "cacheTtl");
        QuotaSettings.require(!cacheTtl.isNegative(), "cache.ttl must be >= 0 (0: no cache)");
        Objects.requireNonNull(cacheStaleTtl, "cacheStaleTtl");
        QuotaSettings.require(!cacheStaleTtl.isNegative(), "cache.stale-ttl must be >= 0 (0: no stale answers)");
        requireOneQuotaPerScope(all);
    }

    /** Routes sharing a base URL, key and model share one limiter, so every limit of theirs must agree. */
    private static void requireOneQuotaPerScope(Map<String, RouteSettings> routes) {
        Map<String, RouteSettings> firstOfScope = new LinkedHashMap<>();
        for (RouteSettings r : routes.values()) {
            RouteSettings first = firstOfScope.putIfAbsent(r.scope(), r);
            if (first != null) {
                requireOneQuota(first, r);
            }
        }
    }

    /** Two routes of one scope share one limiter, so they must state the same limits. */
    private static void requireOneQuota(RouteSettings first, RouteSettings r) {
        QuotaSettings.require(first.quota().rpm() == r.quota().rpm() && first.quota().tpm() == r.quota().tpm(),
                "routes " + first.name() + " and " + r.name() + " share a base URL, key and model (one quota), so their "
                        + "rpm and tpm must agree (" + QuotaSettings.limitText(first.quota().rpm()) + " rpm, "
                        + QuotaSettings.limitText(first.quota().tpm()) + " tpm against " + QuotaSettings.limitText(r.quota().rpm())
                        + " rpm, " + QuotaSettings.limitText(r.quota().tpm()) + " tpm)");
        QuotaSettings.require(first.daily().equals(r.daily()) && first.inputTpm() == r.inputTpm() && first.outputTpm() == r.outputTpm(),
                "routes " + first.name() + " and " + r.name() + " share a base URL, key and model (one quota), so their "
                        + "rpd, tpd, daily-reset-hour-utc, input-tpm and output-tpm must agree");
    }

    /** One route named {@code default}: what the single-route options define. */
    public static Routing single(ModelSettings model, QuotaSettings quota) {
        RouteSettings route = RouteSettings.of(RouteSettings.DEFAULT_NAME, model, quota);
        return new Routing(Map.of(route.name(), route), route.name(), Map.of(), Map.of(), DEFAULT_MAX_WAIT, DEFAULT_CACHE_TTL);
    }

    /** The route named {@code name}. */
    public Optional<RouteSettings> route(String name) {
        return Optional.ofNullable(name == null ? null : routes.get(name));
    }

    /** The default route. */
    public RouteSettings defaultRouteSettings() {
        return routes.get(defaultRoute);
    }

    /** Where a new ticket goes: its tenant's rule, else its priority's, else the default. */
    public RouteSettings routeFor(Priority priority, String tenant) {
        String name = tenant == null ? null : byTenant.get(tenant);
        if (name == null) {
            name = byPriority.getOrDefault(priority, defaultRoute);
        }
        return routes.get(name);
    }

    /** Every quota scope, in the order its first route is configured (its dispatch partition is {@link QuotaScope#dispatchPartition}). */
    public List<String> scopes() {
        List<String> out = new ArrayList<>();
        for (RouteSettings r : routes.values()) {
            if (!out.contains(r.scope())) {
                out.add(r.scope());
            }
        }
        return out;
    }

    /** The routes of one scope, in configuration order. */
    public List<RouteSettings> routesOf(String scope) {
        return routes.values().stream().filter(r -> r.scope().equals(scope)).toList();
    }

    /** Whether the cache is on. */
    public boolean cacheEnabled() {
        return !cacheTtl.isZero();
    }
}

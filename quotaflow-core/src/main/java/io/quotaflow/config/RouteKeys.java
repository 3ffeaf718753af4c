package io.quotaflow.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import io.quotaflow.settings.Redactor;

/**
 * The pattern keys of routes (docs/design.md, "Routes configuration"): {@code route.<name>.<sub-key>}
 * for a name listed in {@code routes}, {@code routing.tenant.<tenant>}, and their variables
 * {@code QUOTAFLOW_ROUTE_<NAME>_<SUB_KEY>} (the name upper-cased, {@code -} read as {@code _}, resolved
 * against the names in {@code routes}) and {@code QUOTAFLOW_ROUTING_TENANT_<TENANT>} (lower-cased,
 * {@code _} read as {@code -}). The sub-keys, their types and rules are rows of {@link ConfigKeys}.
 * Strict like every key: a name {@code routes} does not list, or an unknown sub-key, is refused
 * with the closest known key.
 */
final class RouteKeys {

    static final String ROUTE_PREFIX = "route.";
    static final String TENANT_PREFIX = "routing.tenant.";
    static final String NAME = "<name>";
    static final String TENANT = "<tenant>";
    static final String ENV_ROUTE = ConfigKeys.ENV_PREFIX + "ROUTE_";
    static final String ENV_TENANT = ConfigKeys.ENV_PREFIX + "ROUTING_TENANT_";

    /** Where a route or tenant variable leads: a key, or why it leads nowhere. */
    sealed interface Resolution permits Resolved, Unresolved {
    }

    /** The variable sets {@code key}. */
    record Resolved(String key) implements Resolution {
    }

    /** The variable names nothing; {@code message} says why and what was probably meant. */
    record Unresolved(String message) implements Resolution {
    }

    private RouteKeys() {
    }

    /** Every sub-key of {@code route.<name>.}, in table order. */
    static List<String> subKeys() {
        String prefix = ROUTE_PREFIX + NAME + ".";
        return ConfigKeys.templates().stream().filter(t -> t.startsWith(prefix)).map(t -> t.substring(prefix.length())).toList();
    }

    /** {@code route.primary.rpm} ⇒ {@code route.<name>.rpm}; {@code routing.tenant.acme} ⇒ {@code routing.tenant.<tenant>}. */
    static Optional<String> templateOf(String key) {
        if (key == null || ConfigKeys.isKnown(key)) {
            return Optional.empty();
        }
        if (key.startsWith(TenantKeys.PREFIX)) {
            return TenantKeys.templateOf(key);
        }
        if (key.startsWith(TENANT_PREFIX) && key.length() > TENANT_PREFIX.length()) {
            return Optional.of(TENANT_PREFIX + TENANT);
        }
        String name = routeName(key);
        if (name.isEmpty()) {
            return Optional.empty();
        }
        String sub = key.substring(ROUTE_PREFIX.length() + name.length() + 1);
        return subKeys().contains(sub) ? Optional.of(ROUTE_PREFIX + NAME + "." + sub) : Optional.empty();
    }

    /** Whether {@code key} looks like a pattern key, to be checked once the routes are known. */
    static boolean isCandidate(String key) {
        return !ConfigKeys.isKnown(key) && (key.startsWith(ROUTE_PREFIX) || key.startsWith(TENANT_PREFIX))
                || TenantKeys.isCandidate(key);
    }

    /** Whether {@code variable} has the shape of a route or tenant variable. */
    static boolean isPatternVariable(String variable) {
        return variable.startsWith(ENV_ROUTE) && variable.length() > ENV_ROUTE.length()
                || variable.startsWith(ENV_TENANT) && variable.length() > ENV_TENANT.length()
                || TenantKeys.isPatternVariable(variable);
    }

    /** {@code route.<route>.<sub>}. */
    static String key(String route, String sub) {
        return ROUTE_PREFIX + route + "." + sub;
    }

    /**
     * Why the candidate {@code key} (given {@code where}: {@code in q.properties line 3}, {@code given
     * as a flag}) is refused with these {@code routes}, or empty when it is a route's key.
     */
    static Optional<String> problem(String key, String where, List<String> routes) {
        if (key.startsWith(TenantKeys.PREFIX)) {
            return TenantKeys.problem(key, where);
        }
        String shown = "'" + Redactor.scrub(key) + "' " + where;
        if (key.startsWith(TENANT_PREFIX)) {
            return key.length() > TENANT_PREFIX.length() ? Optional.empty()
                    : Optional.of("unknown key " + shown + "; a tenant rule is routing.tenant.<tenant>=<route>");
        }
        String name = routeName(key);
        if (name.isEmpty()) {
            return Optional.of("unknown key " + shown + suggestion(key, routes));
        }
        if (!routes.contains(name)) {
            return Optional.of(shown + " names route '" + name + "', which " + listed(routes) + suggestion(key, routes));
        }
        String sub = key.substring(ROUTE_PREFIX.length() + name.length() + 1);
        if (!subKeys().contains(sub)) {
            return Optional.of("unknown key " + shown + suggestion(key, routes));
        }
        return Optional.empty();
    }

    /** The key a {@code QUOTAFLOW_ROUTE_*} or {@code QUOTAFLOW_ROUTING_TENANT_*} variable sets with these {@code routes}. */
    static Resolution resolve(String variable, List<String> routes) {
        if (TenantKeys.isPatternVariable(variable)) {
            return TenantKeys.resolve(variable);
        }
        if (variable.startsWith(ENV_TENANT)) {
            String tenant = variable.substring(ENV_TENANT.length()).toLowerCase(Locale.ROOT).replace('_', '-');
            return new Resolved(TENANT_PREFIX + tenant);
        }
        List<String> longestFirst = new ArrayList<>(routes);
        longestFirst.sort(Comparator.comparingInt(String::length).reversed());
        for (String route : longestFirst) {
            String prefix = ENV_ROUTE + envPart(route) + "_";
            if (variable.startsWith(prefix)) {
                String rest = variable.substring(prefix.length());
                Optional<String> sub = subKeys().stream().filter(s -> envPart(s).equals(rest)).findFirst();
                if (sub.isPresent()) {
                    return new Resolved(key(route, sub.get()));
                }
            }
        }
        String message = "unknown environment variable " + variable;
        if (longestFirst.stream().noneMatch(r -> variable.startsWith(ENV_ROUTE + envPart(r) + "_"))) {
            message += routes.isEmpty() ? ": routes is not set, so no route variable applies (the single-route options "
                    + "define one route, default)" : ": it names no route of routes=" + String.join(",", routes);
        }
        List<String> known = new ArrayList<>();
        routes.forEach(r -> subKeys().forEach(s -> known.add(ConfigKeys.envName(key(r, s)))));
        return new Unresolved(message + ConfigKeys.closest(variable, known).map(c -> "; did you mean " + c + "?").orElse(""));
    }

    /** The route name of {@code route.<name>.<sub>}, empty when {@code key} has no such shape. */
    private static String routeName(String key) {
        if (!key.startsWith(ROUTE_PREFIX)) {
            return "";
        }
        int dot = key.indexOf('.', ROUTE_PREFIX.length());
        return dot <= ROUTE_PREFIX.length() || dot == key.length() - 1 ? "" : key.substring(ROUTE_PREFIX.length(), dot);
    }

    private static String listed(List<String> routes) {
        return routes.isEmpty() ? "is not listed: routes is not set (the single-route options define one route, default)"
                : "routes does not list (routes=" + String.join(",", routes) + ")";
    }

    private static String suggestion(String key, List<String> routes) {
        List<String> known = new ArrayList<>();
        routes.forEach(r -> subKeys().forEach(s -> known.add(key(r, s))));
        return ConfigKeys.closest(key, known).map(c -> "; did you mean " + c + "?").orElse("");
    }

    private static String envPart(String s) {
        return s.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }
}

package io.quotaflow.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import io.quotaflow.settings.BatchApiSettings;
import io.quotaflow.settings.Keys;
import io.quotaflow.settings.Redactor;
import org.apache.kafka.common.config.ConfigDef.Type;

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

    /** The rows of {@code routes} and of the route pattern keys ({@code route.<name>.rpm}, ...) in the key table. */
    static void define(KeyTable t) {
        t.add(Keys.ROUTES, Type.LIST, ConfigRules.routeList(),
                null, null, "route names, comma-separated (lower-case letters, digits, `-`); "
                + "unset: the single-route options above define one route, `default` (docs/configuration.md, \"Routes\")");
        String n = RouteKeys.ROUTE_PREFIX + RouteKeys.NAME + ".";
        t.template(n + "base-url", Type.STRING, ConfigRules.httpUrl(),
                Keys.LLM_BASE_URL, "the route's API root");
        t.template(n + "model", Type.STRING, Keys.LLM_MODEL, "the route's model");
        t.template(n + "api-key-env", Type.STRING, ConfigRules.keyVariable(),
                null, "name of the variable holding the route's key (e.g. "
                + "`OPENAI_API_KEY`); else `.api-key-file`; else `QUOTAFLOW_LLM_API_KEY` / `llm.api-key-file`");
        t.template(n + "api-key-file", Type.STRING, null, "file holding the route's key");
        t.template(n + "rpm", Type.STRING, ConfigRules.perMinuteLimit(),
                Keys.QUOTA_RPM, "the route's requests per minute: a number (a "
                + "ceiling), `auto` or `none` (the other `quota.*` knobs apply to every route)");
        t.template(n + "tpm", Type.STRING, ConfigRules.perMinuteLimit(),
                Keys.QUOTA_TPM, "the route's tokens per minute: a number (a ceiling), `auto` or `none`");
        t.template(n + "context-tokens", Type.INT, ConfigRules.atLeast("at least 1024", 1024),
                Keys.LLM_CONTEXT_TOKENS, "the route's context window to start with");
        t.template(n + "encoding", Type.STRING, Keys.LLM_ENCODING, "the route's jtokkit encoding");
        t.template(n + "timeout-ms", Type.LONG, ConfigRules.atLeast("at least 1", 1),
                Keys.LLM_TIMEOUT_MS, "the route's whole-call deadline");
        t.template(n + "dialect", Type.STRING, ConfigRules.dialect(),
                Keys.LLM_DIALECT, "the route's dialect: `openai`, `azure`, `anthropic` or `gemini`");
        t.template(n + "api-version", Type.STRING, ConfigRules.strippedPattern("letters, digits, '.', '_' or '-'", "[A-Za-z0-9._-]+"),
                Keys.LLM_API_VERSION, "the route's Azure `api-version`");
        t.template(n + "deployment", Type.STRING, ConfigRules.strippedPattern("letters, digits, '.', '_' or '-'", "[A-Za-z0-9._-]+"),
                Keys.LLM_DEPLOYMENT, "the route's Azure deployment (default: its model)");
        t.template(n + "fallback", Type.LIST, null, "routes a waiting ticket moves to, in order, when this one is "
                + "halted, its circuit is open or the wait exceeds `routing.max-wait`");
        t.template(n + "context-fallback", Type.STRING, null, "the route a ticket too large for this one goes to");
        t.template(n + "price.input-per-mtok", Type.DOUBLE, ConfigRules.share("a price of at least 0", 0, Double.MAX_VALUE),
                null, "US dollars per million prompt tokens (cost metric)");
        t.template(n + "price.output-per-mtok", Type.DOUBLE, ConfigRules.share("a price of at least 0", 0, Double.MAX_VALUE),
                null, "US dollars per million completion tokens");
        BatchApiSettings ba = BatchApiSettings.ONLINE;
        t.template(n + "mode", Type.STRING, ConfigRules.oneOf("online", "batch"),
                "online", null, "`online` calls the chat endpoint; `batch` sends the route's calls "
                + "through the provider's Batch API (`/v1/files`, `/v1/batches`; results within 24 h, at the batch price), "
                + "a route for bulk work (docs/configuration.md, \"Batch routes\")");
        t.template(n + "batch.max-requests", Type.INT, ConfigRules.between("an integer in [1, 50000]", 1, 50_000),
                Integer.toString(ba.maxRequests()), null, "most calls in one batch job "
                + "(the provider's requests per batch)");
        t.template(n + "batch.max-file-bytes", Type.LONG, ConfigRules.atLeast("at least 1024", 1024),
                Long.toString(ba.maxFileBytes()), null, "most bytes of one batch "
                + "job's input file (the provider's file size limit)");
        t.template(n + "batch.max-enqueued-tokens", Type.LONG, ConfigRules.atLeast("at least 1", 1),
                Long.toString(ba.maxEnqueuedTokens()), null, "most tokens "
                + "(prompt + `max_tokens`) of the route's unfinished batch jobs: the provider's enqueued-token limit for the "
                + "model; more calls wait until a job finishes");
        t.template(n + "batch.collect-ms", Type.LONG, ConfigRules.atLeast("at least 0", 0),
                Long.toString(ba.collect().toMillis()), null, "how long a batch job "
                + "collects calls before it is submitted (at once when full)");
        t.template(n + "batch.poll-ms", Type.LONG, ConfigRules.atLeast("at least 1", 1),
                Long.toString(ba.poll().toMillis()), null, "how often a submitted batch "
                + "job's status is asked for");
        t.template(n + "batch.expiry-grace-ms", Type.LONG, ConfigRules.atLeast("at least 0", 0),
                Long.toString(ba.expiryGrace().toMillis()), null, "how long past its "
                + "24 h completion window a batch job whose status cannot be read (or is unknown) is waited for before it "
                + "ends as expired (its tickets to the fallback)");
        t.template(n + "price.batch-factor", Type.DOUBLE, ConfigRules.share("a share in [0, 1]", 0, 1),
                Double.toString(ba.priceFactor()), null, "a batch route's price as "
                + "a share of its `price.*` (the Batch API's discount)");
        t.template(n + "rpd", Type.LONG, ConfigRules.atLeast("at least 0 (0: none)", 0),
                null, "requests per day");
        t.template(n + "tpd", Type.LONG, ConfigRules.atLeast("at least 0 (0: none)", 0),
                null, "tokens per day");
        t.template(n + "daily-reset-hour-utc", Type.INT, ConfigRules.between("an hour in [0, 23]", 0, 23),
                "0", null, "hour of the day (UTC, 0-23) at which `rpd` and `tpd` "
                + "start again");
        t.template(n + "input-tpm", Type.INT, ConfigRules.atLeast("at least 0 (0: none)", 0),
                null, "separate prompt-token limit per minute");
        t.template(n + "output-tpm", Type.INT, ConfigRules.atLeast("at least 0 (0: none)", 0),
                null, "separate completion-token limit per minute");
    }
}

package io.quotaflow.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;

import static io.quotaflow.config.RoutesFixture.CANARY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The route keys are as strict as every other key: a route {@code routes} does not list, an unknown
 * sub-key, a variable naming no route, a rule or fallback to an unknown route, two routes of one
 * quota disagreeing on it, a bad value: each stops the start naming the key, where it was and the
 * closest known key.
 */
class RouteKeysStrictnessTest {

    private static final Map<String, String> SHARED_KEY = Map.of("QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0004");

    @Test
    void shouldRefuseAKeyOfARouteThatRoutesDoesNotList(@TempDir Path dir) {
        Path file = RoutesFixture.file(dir, "routes=primary,backup\nroute.primary.rpm=10\nroute.backpu.rpm=5\n");

        assertThatThrownBy(() -> ConfigLoader.resolve(file, Map.of(), Map.of()))
                .isInstanceOf(ConfigError.class)
                .hasMessage("'route.backpu.rpm' in " + file + " line 3 names route 'backpu', which routes does not list "
                        + "(routes=primary,backup); did you mean route.backup.rpm?");
        Path single = RoutesFixture.file(dir, "route.default.rpm=5\n");
        assertThatThrownBy(() -> ConfigLoader.resolve(single, Map.of(), Map.of()))
                .hasMessage("'route.default.rpm' in " + single + " line 1 names route 'default', which is not listed: "
                        + "routes is not set (the single-route options define one route, default)");
    }

    @Test
    void shouldSuggestTheClosestSubKeyOfAnUnknownOne(@TempDir Path dir) {
        Path file = RoutesFixture.file(dir, "routes=primary\nroute.primary.rmp=10\nroute.primary.context-fallbak=x\n");

        assertThatThrownBy(() -> ConfigLoader.resolve(file, Map.of(), Map.of("route.primary.price.input-per-tok", "1")))
                .hasMessageContaining("unknown key 'route.primary.rmp' in " + file + " line 2; did you mean route.primary.rpm?")
                .hasMessageContaining("unknown key 'route.primary.context-fallbak' in " + file
                        + " line 3; did you mean route.primary.context-fallback?")
                .hasMessageContaining("unknown key 'route.primary.price.input-per-tok' given as a flag; did you mean "
                        + "route.primary.price.input-per-mtok?");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of(), Map.of("routing.priority.bulky", "a")))
                .hasMessage("unknown key 'routing.priority.bulky' given as a flag; did you mean routing.priority.bulk?");
    }

    @Test
    void shouldResolveTheVariablesOfHyphenatedRouteNamesAgainstRoutes() {
        Map<String, String> env = Map.of("QUOTAFLOW_ROUTES", "eu,eu-west", "QUOTAFLOW_ROUTE_EU_WEST_RPM", "60",
                "QUOTAFLOW_ROUTE_EU_RPM", "70", "QUOTAFLOW_ROUTE_EU_WEST_CONTEXT_FALLBACK", "eu");

        ConfigValues values = ConfigLoader.resolve(null, env, Map.of());

        assertThat(values.string("route.eu-west.rpm")).isEqualTo("60");
        assertThat(values.string("route.eu.rpm")).isEqualTo("70");
        assertThat(values.string("route.eu-west.context-fallback")).isEqualTo("eu");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, with(env, "QUOTAFLOW_ROUTE_EU_WEST_RMP", "1"), Map.of()))
                .hasMessage("unknown environment variable QUOTAFLOW_ROUTE_EU_WEST_RMP; did you mean QUOTAFLOW_ROUTE_EU_WEST_RPM?");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, with(env, "QUOTAFLOW_ROUTE_US_RPM", "1"), Map.of()))
                .hasMessage("unknown environment variable QUOTAFLOW_ROUTE_US_RPM: it names no route of routes=eu,eu-west; "
                        + "did you mean QUOTAFLOW_ROUTE_EU_RPM?");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of("QUOTAFLOW_ROUTE_EU_RPM", "1"), Map.of()))
                .hasMessageStartingWith("unknown environment variable QUOTAFLOW_ROUTE_EU_RPM: routes is not set");
        assertThat(ConfigKeys.isKnownVariable("QUOTAFLOW_ROUTE_EU_WEST_RPM")).as("a shape sim accepts").isTrue();
        assertThat(ConfigKeys.isKnownVariable("QUOTAFLOW_ROUTING_TENANT_ACME")).isTrue();
        assertThat(ConfigKeys.isKnownVariable("QUOTAFLOW_ROUTING_PRIORITY_BULKY")).isFalse();
    }

    @Test
    void shouldRefuseRoutingRulesAndFallbacksToUnknownRoutesNamingTheSource(@TempDir Path dir) {
        String routes = "routes=a,b\n";
        assertThatThrownBy(() -> load(dir, routes + "routing.tenant.acme=c\n"))
                .hasMessage("routing.tenant.acme names an unknown route 'c' (routing.tenant.acme='c' from " + dir.resolve("q.properties")
                        + " line 2)");
        assertThatThrownBy(() -> load(dir, routes + "routing.priority.bulk=c\n")).hasMessageStartingWith(
                "routing.priority.bulk names an unknown route 'c' (routing.priority.bulk='c' from ");
        assertThatThrownBy(() -> load(dir, routes + "routing.default=c\n")).hasMessageStartingWith(
                "routing.default names an unknown route 'c' (routes: a,b)");
        assertThatThrownBy(() -> load(dir, routes + "route.a.fallback=b,c\n")).hasMessageStartingWith(
                "route.a.fallback names an unknown route 'c' (route.a.fallback='b,c' from ");
        assertThatThrownBy(() -> load(dir, routes + "route.a.context-fallback=a\n")).hasMessageStartingWith(
                "route.a.context-fallback must not name the route itself");
    }

    @Test
    void shouldRefuseRoutesOfOneQuotaWithDifferentLimits(@TempDir Path dir) {
        assertThatThrownBy(() -> load(dir, "routes=a,b\nroute.b.rpm=100\n"))
                .hasMessageStartingWith("routes a and b share a base URL, key and model (one quota), so their rpm and tpm "
                        + "must agree (500 rpm, 200000 tpm against 100 rpm, 200000 tpm)");

        Routing agreeing = load(dir, "routes=a,b\nroute.b.fallback=a\n").dispatcher().routing();
        assertThat(agreeing.scopes()).hasSize(1);
        assertThat(agreeing.routesOf(agreeing.scopes().get(0))).extracting(RouteSettings::name).containsExactly("a", "b");
    }

    @ParameterizedTest
    @CsvSource({"24h,86400000", "30m,1800000", "90s,90000", "0,0", "1500,1500", "250ms,250", "2d,172800000", " 10 M ,600000"})
    void shouldParseTheCacheTtl(String value, long millis) {
        Routing routing = RoutesFixture.routing(null, with(SHARED_KEY, "QUOTAFLOW_CACHE_TTL", value), RoutesFixture.base());

        assertThat(routing.cacheTtl()).isEqualTo(Duration.ofMillis(millis));
        assertThat(routing.cacheEnabled()).isEqualTo(millis > 0);
    }

    @Test
    void shouldDefaultTheCacheTtlAndTheMaxWaitsAndRefuseBadDurations() {
        Routing routing = RoutesFixture.routing(null, SHARED_KEY, RoutesFixture.base());
        assertThat(routing.cacheTtl()).isEqualTo(Duration.ofHours(24));
        assertThat(routing.maxWait()).isEqualTo(Routing.DEFAULT_MAX_WAIT).hasSize(2);

        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of("QUOTAFLOW_CACHE_TTL", "soon"), Map.of()))
                .hasMessage("cache.ttl must be a duration such as 90s, 30m, 24h or 2d, or milliseconds; 0 turns the cache "
                        + "off, got 'soon' (environment variable QUOTAFLOW_CACHE_TTL)");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of("QUOTAFLOW_ROUTING_MAX_WAIT_BULK", "0"), Map.of()))
                .hasMessageStartingWith("routing.max-wait.bulk must be a duration").hasMessageContaining("above 0; or none");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of("QUOTAFLOW_CACHE_TTL", "-5m"), Map.of()))
                .hasMessageStartingWith("cache.ttl must be a duration");
    }

    @Test
    void shouldNameTheKeyValueAndSourceOfABadRouteValue(@TempDir Path dir) {
        Map<String, String> env = Map.of("QUOTAFLOW_ROUTES", "primary", "QUOTAFLOW_ROUTE_PRIMARY_RPM", "lots");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, env, Map.of()))
                .hasMessage("route.primary.rpm must be a positive integer, auto or none, got 'lots' (environment variable QUOTAFLOW_ROUTE_PRIMARY_RPM)");
        Path file = RoutesFixture.file(dir, "routes=primary\nroute.primary.context-tokens=512\n");
        assertThatThrownBy(() -> ConfigLoader.resolve(file, Map.of(), Map.of()))
                .hasMessage("route.primary.context-tokens must be at least 1024, got '512' (" + file + " line 2)");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of("QUOTAFLOW_ROUTES", "primary,Backup"), Map.of()))
                .hasMessage("routes must be route names: lower-case letters, digits and '-', each once, got 'primary,Backup' "
                        + "(environment variable QUOTAFLOW_ROUTES)");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of("QUOTAFLOW_ROUTES", "a,a"), Map.of()))
                .hasMessageStartingWith("routes must be route names");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of(), Map.of("routes", "a", "route.a.base-url", "ftp://h/v1")))
                .hasMessage("route.a.base-url must be an http(s) URL such as https://api.openai.com/v1, got 'ftp://h/v1' "
                        + "(flag route.a.base-url)");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of(), Map.of("routes", "a", "route.a.daily-reset-hour-utc", "24")))
                .hasMessage("route.a.daily-reset-hour-utc must be an hour in [0, 23], got '24' (flag route.a.daily-reset-hour-utc)");
    }

    @Test
    void shouldRefuseARouteApiKeyAsAValueInEverySourceNamingTheKeyNotTheValue(@TempDir Path dir) {
        Path file = RoutesFixture.file(dir, "routes=primary\nroute.primary.api-key=" + CANARY + "\n");
        assertThatThrownBy(() -> ConfigLoader.resolve(file, Map.of(), Map.of()))
                .hasMessageContaining("'route.primary.api-key' in the config file is refused")
                .hasMessageNotContaining("LEAKCANARY");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of("QUOTAFLOW_ROUTES", "primary",
                "QUOTAFLOW_ROUTE_PRIMARY_API_KEY", CANARY), Map.of()))
                .hasMessageContaining("environment variable QUOTAFLOW_ROUTE_PRIMARY_API_KEY is refused")
                .hasMessageNotContaining("LEAKCANARY");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of(), Map.of("routes", "primary", "route.primary.api-key", CANARY)))
                .hasMessageContaining("'route.primary.api-key' as a flag is refused").hasMessageNotContaining("LEAKCANARY");
    }

    @Test
    void shouldRefuseAKeyPastedWhereTheNameOfItsVariableBelongsWithoutShowingIt() {
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of(), Map.of("routes", "p", "route.p.api-key-env", CANARY)))
                .hasMessageStartingWith("route.p.api-key-env must be the name of the variable holding the key")
                .hasMessageContaining("a value not shown").hasMessageNotContaining("LEAKCANARY");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of(), Map.of("routes", "p", "route.p.api-key-env", "QUOTAFLOW_P_KEY")))
                .hasMessageContaining("not a QUOTAFLOW_* name other than QUOTAFLOW_LLM_API_KEY");
    }

    private static QuotaflowConfig load(Path dir, String properties) {
        return RoutesFixture.load(RoutesFixture.file(dir, properties), SHARED_KEY, RoutesFixture.base());
    }

    private static Map<String, String> with(Map<String, String> env, String name, String value) {
        Map<String, String> out = new HashMap<>(env);
        out.put(name, value);
        return out;
    }
}

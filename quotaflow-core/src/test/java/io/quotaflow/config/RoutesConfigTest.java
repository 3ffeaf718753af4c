package io.quotaflow.config;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.settings.DailyLimits;
import io.quotaflow.settings.LimitOrigin;
import io.quotaflow.settings.Prices;
import io.quotaflow.settings.QuotaSettings;

import static io.quotaflow.config.RoutesFixture.CANARY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code routes} and {@code route.<name>.*} read into {@link Routing}: every field, its sources, its inheritance, its key. */
class RoutesConfigTest {

    @Test
    void shouldReadEveryRouteAndRuleFromAFile(@TempDir Path dir) {
        QuotaflowConfig config = RoutesFixture.load(RoutesFixture.threeRoutes(dir), RoutesFixture.keys(), Map.of());
        Routing routing = config.dispatcher().routing();

        assertThat(routing.routes()).containsOnlyKeys("primary", "backup", "long");
        assertThat(List.copyOf(routing.routes().keySet())).containsExactly("primary", "backup", "long");
        RouteSettings primary = routing.route("primary").orElseThrow();
        assertThat(primary.model().baseUrl()).hasToString("https://api.openai.com/v1");
        assertThat(primary.model().model()).isEqualTo("gpt-4o-mini");
        assertThat(primary.model().apiKey().reveal()).isEqualTo("sk-openai-primary-0001");
        assertThat(primary.quota().rpm()).isEqualTo(500);
        assertThat(primary.quota().tpm()).isEqualTo(200_000);
        assertThat(primary.contextTokens()).isEqualTo(128_000);
        assertThat(primary.fallback()).containsExactly("backup");
        assertThat(primary.contextFallback()).isEqualTo("long");
        assertThat(primary.prices()).isEqualTo(new Prices(0.15, 0.60));
        assertThat(primary.prices().cost(1_000_000, 1_000_000)).isEqualTo(0.75);
        RouteSettings backup = routing.route("backup").orElseThrow();
        assertThat(backup.quota().rpm()).isEqualTo(30);
        assertThat(backup.daily()).isEqualTo(new DailyLimits(14_400, 0, 7));
        assertThat(backup.model().encoding()).as("by model").isEqualTo("cl100k_base");
        RouteSettings longRoute = routing.route("long").orElseThrow();
        assertThat(longRoute.model().apiKey().reveal()).isEqualTo("sk-ant-long-0003");
        assertThat(longRoute.inputTpm()).isEqualTo(40_000);
        assertThat(longRoute.outputTpm()).isEqualTo(8_000);
        assertThat(longRoute.fallback()).isEmpty();
        assertThat(longRoute.contextFallback()).isNull();
        assertThat(longRoute.prices().configured()).isFalse();

        assertThat(routing.defaultRoute()).isEqualTo("primary");
        assertThat(routing.routeFor(Priority.BULK, "other").name()).isEqualTo("backup");
        assertThat(routing.routeFor(Priority.INTERACTIVE, "acme").name()).as("tenant wins over priority").isEqualTo("backup");
        assertThat(routing.routeFor(Priority.STANDARD, "other").name()).isEqualTo("primary");
        assertThat(routing.maxWait()).containsEntry(Priority.INTERACTIVE, Duration.ofSeconds(45))
                .containsEntry(Priority.STANDARD, Duration.ofMinutes(10)).doesNotContainKey(Priority.BULK);
        assertThat(routing.cacheTtl()).isEqualTo(Duration.ofMinutes(30));
        assertThat(routing.scopes()).hasSize(3);
        assertThat(config.dispatcher().model()).as("the default route's").isEqualTo(primary.model());
        assertThat(config.dispatcher().scope()).isEqualTo(primary.scope());
    }

    @Test
    void shouldReadRoutesAndRulesFromTheEnvironment() {
        Map<String, String> env = new HashMap<>(Map.of("QUOTAFLOW_BOOTSTRAP_SERVERS", "b:9092",
                "QUOTAFLOW_ROUTES", "primary,eu-west", "QUOTAFLOW_LLM_BASE_URL", "https://api.openai.com/v1",
                "QUOTAFLOW_ROUTE_PRIMARY_API_KEY_ENV", "OPENAI_API_KEY", "OPENAI_API_KEY", "sk-openai-primary-0001",
                "QUOTAFLOW_ROUTE_EU_WEST_BASE_URL", "https://eu.example/v1", "QUOTAFLOW_ROUTE_EU_WEST_RPM", "60",
                "QUOTAFLOW_ROUTE_EU_WEST_PRICE_INPUT_PER_MTOK", "0.5", "QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0004"));
        env.putAll(Map.of("QUOTAFLOW_ROUTE_PRIMARY_FALLBACK", "eu-west", "QUOTAFLOW_ROUTING_TENANT_BIG_CO", "eu-west",
                "QUOTAFLOW_ROUTING_PRIORITY_BULK", "eu-west", "QUOTAFLOW_ROUTING_MAX_WAIT_STANDARD", "5m",
                "QUOTAFLOW_ROUTING_MAX_WAIT_INTERACTIVE", "none", "QUOTAFLOW_CACHE_TTL", "0"));

        ConfigValues values = ConfigLoader.resolve(null, env, Map.of());
        Routing routing = ConfigLoader.load(values, env).dispatcher().routing();

        assertThat(values.origin("route.eu-west.rpm")).hasToString("environment variable QUOTAFLOW_ROUTE_EU_WEST_RPM");
        assertThat(routing.routes()).containsOnlyKeys("primary", "eu-west");
        assertThat(routing.route("eu-west").orElseThrow().quota().rpm()).isEqualTo(60);
        assertThat(routing.route("eu-west").orElseThrow().model().baseUrl()).hasToString("https://eu.example/v1");
        assertThat(routing.route("eu-west").orElseThrow().model().apiKey().reveal()).as("the shared key").isEqualTo("sk-shared-key-0004");
        assertThat(routing.route("eu-west").orElseThrow().prices().inputPerMtok()).isEqualTo(0.5);
        assertThat(routing.route("primary").orElseThrow().model().apiKey().reveal()).isEqualTo("sk-openai-primary-0001");
        assertThat(routing.route("primary").orElseThrow().fallback()).containsExactly("eu-west");
        assertThat(routing.byTenant()).containsExactly(Map.entry("big-co", "eu-west"));
        assertThat(routing.routeFor(Priority.BULK, "x").name()).isEqualTo("eu-west");
        assertThat(routing.defaultRoute()).as("the first of routes").isEqualTo("primary");
        assertThat(routing.maxWait()).containsOnly(Map.entry(Priority.STANDARD, Duration.ofMinutes(5)));
        assertThat(routing.cacheEnabled()).isFalse();
    }

    @Test
    void shouldTakeARouteKeyFromTheHighestSource(@TempDir Path dir) {
        Path file = RoutesFixture.file(dir, "routes=a\nroute.a.rpm=100\nroute.a.tpm=1000\nroute.a.model=m-file\n");
        Map<String, String> env = Map.of("QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0004", "QUOTAFLOW_ROUTE_A_RPM", "200",
                "QUOTAFLOW_ROUTE_A_TPM", "2000");
        Map<String, String> flags = RoutesFixture.base();
        flags.put("route.a.rpm", "300");
        flags.put("llm.model", "m-flag");

        ConfigValues values = ConfigLoader.resolve(file, env, flags);
        RouteSettings a = ConfigLoader.load(values, env).dispatcher().routing().route("a").orElseThrow();

        assertThat(a.quota().rpm()).isEqualTo(300);
        assertThat(values.origin("route.a.rpm")).hasToString("flag route.a.rpm");
        assertThat(a.quota().tpm()).isEqualTo(2000);
        assertThat(a.model().model()).as("the route's own key over the inherited flag").isEqualTo("m-file");
    }

    @Test
    void shouldInheritEveryFieldARouteDoesNotSetFromTheSingleRouteOptions(@TempDir Path dir) {
        Path file = RoutesFixture.file(dir, """
                routes=a,b
                llm.model=gpt-4.1-mini
                llm.timeout-ms=7000
                llm.context-tokens=32000
                llm.encoding=cl100k_base
                quota.safety-factor=0.9
                quota.burst-seconds=3
                quota.max-in-flight=4
                route.b.model=other-model
                route.b.rpm=50
                route.b.timeout-ms=9000
                """);
        Map<String, String> flags = RoutesFixture.base();
        flags.put("quota.rpm", "120");
        flags.put("quota.tpm", "90000");

        Routing routing = RoutesFixture.routing(file, Map.of("QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0004"), flags);

        RouteSettings a = routing.route("a").orElseThrow();
        assertThat(a.model().baseUrl()).hasToString("http://localhost:8089/v1");
        assertThat(a.model().model()).isEqualTo("gpt-4.1-mini");
        assertThat(a.model().timeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(a.contextTokens()).isEqualTo(32_000);
        assertThat(a.model().encoding()).isEqualTo("cl100k_base");
        assertThat(a.quota()).isEqualTo(new QuotaSettings(120, 90_000, 0.9, 3, 4, 0.25, QuotaSettings.DEFAULT_IN_FLIGHT_CEILING,
                LimitOrigin.SET, LimitOrigin.SET));
        RouteSettings b = routing.route("b").orElseThrow();
        assertThat(b.model().model()).isEqualTo("other-model");
        assertThat(b.model().timeout()).isEqualTo(Duration.ofSeconds(9));
        assertThat(b.quota()).isEqualTo(a.quota().withRpm(50));
        assertThat(b.daily()).isEqualTo(DailyLimits.NONE);
        assertThat(routing.scopes()).as("another model: another quota").hasSize(2);
    }

    @Test
    void shouldReadEachRoutesKeyFromItsVariableItsFileOrTheSharedKey(@TempDir Path dir) throws Exception {
        Path keyFile = Files.writeString(dir.resolve("b.key"), "sk-route-b-file-0005\n");
        Path file = RoutesFixture.file(dir, "routes=a,b,c\nroute.a.api-key-env=A_KEY\nroute.b.api-key-file=" + keyFile + "\n");
        Map<String, String> env = Map.of("A_KEY", "sk-route-a-env-0006", "QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0004");

        Routing routing = RoutesFixture.routing(file, env, RoutesFixture.base());

        assertThat(routing.route("a").orElseThrow().model().apiKey().reveal()).isEqualTo("sk-route-a-env-0006");
        assertThat(routing.route("b").orElseThrow().model().apiKey().reveal()).isEqualTo("sk-route-b-file-0005");
        assertThat(routing.route("c").orElseThrow().model().apiKey().reveal()).isEqualTo("sk-shared-key-0004");
        assertThat(routing.scopes()).as("same URL and model, three keys: three quotas").hasSize(3);
        assertThat(routing.toString()).doesNotContain("sk-route", "sk-shared");
    }

    @Test
    void shouldNameTheRouteAndTheExpectedVariableWhenAKeyIsMissing(@TempDir Path dir) {
        Map<String, String> env = new HashMap<>(Map.of("GROQ_API_KEY", CANARY, "UNRELATED", CANARY));
        Path file = RoutesFixture.file(dir, "routes=primary,backup\nroute.primary.api-key-env=OPENAI_API_KEY\n"
                + "route.backup.api-key-env=GROQ_API_KEY\n");

        assertThatThrownBy(() -> RoutesFixture.load(file, env, RoutesFixture.base()))
                .isInstanceOf(ConfigError.class)
                .hasMessage("the API key of route primary is missing: the variable OPENAI_API_KEY (named by "
                        + "route.primary.api-key-env, " + file + " line 2) is not set");

        Path noKey = RoutesFixture.file(dir, "routes=primary\n");
        assertThatThrownBy(() -> RoutesFixture.load(noKey, env, RoutesFixture.base()))
                .hasMessageStartingWith("the API key of route primary is missing: set route.primary.api-key-env")
                .hasMessageContaining("route.primary.api-key-file").hasMessageContaining("QUOTAFLOW_LLM_API_KEY")
                .hasMessageNotContaining("LEAKCANARY");

        Path both = RoutesFixture.file(dir, "routes=primary\nroute.primary.api-key-env=GROQ_API_KEY\n"
                + "route.primary.api-key-file=/run/secrets/k\n");
        assertThatThrownBy(() -> RoutesFixture.load(both, env, RoutesFixture.base()))
                .hasMessage("route primary has two sources for its API key: set route.primary.api-key-env or "
                        + "route.primary.api-key-file, not both");

        Path missingFile = RoutesFixture.file(dir, "routes=primary\nroute.primary.api-key-file=" + dir.resolve(CANARY) + "\n");
        assertThatThrownBy(() -> RoutesFixture.load(missingFile, env, RoutesFixture.base()))
                .hasMessageStartingWith("the API key file of route primary (route.primary.api-key-file): no such file")
                .hasMessageNotContaining("LEAKCANARY");
    }

    @Test
    void shouldNotEchoAKeyPastedWhereAVariableNameBelongs(@TempDir Path dir) {
        String pasted = "SKPROJ7F3A9C2D81B4E6F0A5C3D9E7B1";
        Path file = RoutesFixture.file(dir, "routes=primary\nroute.primary.api-key-env=" + pasted + "\n");

        assertThatThrownBy(() -> RoutesFixture.load(file, Map.of(), RoutesFixture.base()))
                .isInstanceOf(ConfigError.class)
                .hasMessageStartingWith("the API key of route primary is missing")
                .hasMessageContaining("route.primary.api-key-env")
                .hasMessageNotContaining(pasted).hasMessageNotContaining(pasted.substring(0, 12));
        assertThat(RouteReader.shownVariable("OPENAI_API_KEY")).isEqualTo("OPENAI_API_KEY");
        assertThat(RouteReader.shownVariable("sk-abc")).doesNotContain("sk-abc");
    }

    @Test
    void shouldLeaveAByteOrderMarkOutOfAKeyReadFromAFile(@TempDir Path dir) throws Exception {
        Path keyFile = Files.writeString(dir.resolve("bom.key"), "\uFEFFsk-route-bom-0007\r\n");
        Path file = RoutesFixture.file(dir, "routes=a\nroute.a.api-key-file=" + keyFile + "\n");

        Routing routing = RoutesFixture.routing(file, Map.of(), RoutesFixture.base());

        assertThat(routing.route("a").orElseThrow().model().apiKey().reveal()).isEqualTo("sk-route-bom-0007");
    }

    @Test
    void shouldKeepTheSingleRouteConfigurationAsOneRouteNamedDefault() {
        Map<String, String> flags = RoutesFixture.base();
        flags.put("quota.rpm", "60");
        QuotaflowConfig config = RoutesFixture.load(null, Map.of("QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0004"), flags);
        DispatcherSettings dispatcher = config.dispatcher();

        assertThat(dispatcher.routing().routes()).containsOnlyKeys(RouteSettings.DEFAULT_NAME);
        assertThat(dispatcher.routing()).isEqualTo(Routing.single(dispatcher.model(), dispatcher.quota()));
        assertThat(dispatcher.quota().rpm()).isEqualTo(60);
        assertThat(dispatcher.model().apiKey().reveal()).isEqualTo("sk-shared-key-0004");
        assertThat(dispatcher.routing().routeFor(Priority.BULK, "acme").name()).isEqualTo("default");
        assertThat(dispatcher.scope()).isEqualTo(dispatcher.routing().defaultRouteSettings().scope());
    }

    @Test
    void shouldApplyRulesAndTheCacheTtlToTheSingleRouteToo() {
        Map<String, String> flags = RoutesFixture.base();
        Map<String, String> env = Map.of("QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0004", "QUOTAFLOW_CACHE_TTL", "90s",
                "QUOTAFLOW_ROUTING_TENANT_ACME", "default");

        Routing routing = RoutesFixture.routing(null, env, flags);

        assertThat(routing.cacheTtl()).isEqualTo(Duration.ofSeconds(90));
        assertThat(routing.byTenant()).containsExactly(Map.entry("acme", "default"));
    }

    @Test
    void shouldReadARouteWithoutRateLimits(@TempDir Path dir) {
        Path file = RoutesFixture.file(dir, "routes=local,cloud\nroute.local.base-url=http://gpu-box:8000/v1\nroute.local.rpm=none\nroute.local.tpm=None\nroute.cloud.rpm=100\n"
                + "route.cloud.tpm=1000\nquota.max-in-flight=auto\n");
        Map<String, String> env = Map.of("QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0004");
        ConfigValues values = ConfigLoader.resolve(file, env, RoutesFixture.base());
        var routing = ConfigLoader.load(values, env).dispatcher().routing();
        RouteSettings local = routing.route("local").orElseThrow();
        assertThat(local.quota().limitsRequests()).isFalse();
        assertThat(local.quota().limitsTokens()).isFalse();
        assertThat(local.quota().selfHosted()).isTrue();
        assertThat(local.quota().requestsPerSecond()).isInfinite();
        RouteSettings cloud = routing.route("cloud").orElseThrow();
        assertThat(cloud.quota().selfHosted()).isFalse();
        assertThat(cloud.quota().rpm()).isEqualTo(100);

        Map<String, String> single = RoutesFixture.base();
        single.put("quota.rpm", "none");
        assertThat(ConfigLoader.load(ConfigLoader.resolve(null, env, single), env).dispatcher().quota().limitsRequests()).isFalse();
        single.put("quota.tpm", "0");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, env, single)).hasMessageContaining("quota.tpm must be a positive integer, auto or none");
    }
}

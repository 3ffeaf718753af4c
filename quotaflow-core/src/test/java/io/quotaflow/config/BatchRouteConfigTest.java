package io.quotaflow.config;

import io.quotaflow.records.Priority;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.settings.BatchApiSettings;
import io.quotaflow.settings.Prices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code route.<name>.mode=batch} and its {@code .batch.*} keys, the example of docs/configuration.md ("Batch routes"). */
class BatchRouteConfigTest {

    static final String BATCH_ROUTES = """
            bootstrap.servers=b:9092
            routes=primary,bulk
            route.primary.base-url=https://api.openai.com/v1
            route.primary.model=gpt-4o-mini
            route.primary.api-key-env=OPENAI_API_KEY
            route.primary.price.input-per-mtok=0.15
            route.primary.price.output-per-mtok=0.60
            route.bulk.base-url=https://api.openai.com/v1
            route.bulk.model=gpt-4o-mini
            route.bulk.api-key-env=OPENAI_API_KEY
            route.bulk.mode=batch
            route.bulk.batch.max-enqueued-tokens=2000000
            route.bulk.batch.collect-ms=300000
            route.bulk.batch.poll-ms=60000
            route.bulk.fallback=primary
            route.bulk.price.input-per-mtok=0.15
            route.bulk.price.output-per-mtok=0.60
            routing.default=primary
            routing.priority.bulk=bulk
            """;

    @Test
    void shouldReadABatchRouteWithItsLimitsAndItsOwnScope(@TempDir Path dir) {
        Routing routing = RoutesFixture.routing(RoutesFixture.file(dir, BATCH_ROUTES), RoutesFixture.keys(), Map.of());

        RouteSettings primary = routing.route("primary").orElseThrow();
        RouteSettings bulk = routing.route("bulk").orElseThrow();
        assertThat(primary.batchMode()).isFalse();
        assertThat(bulk.batchMode()).isTrue();
        assertThat(bulk.batchApi().maxEnqueuedTokens()).isEqualTo(2_000_000);
        assertThat(bulk.batchApi().collect()).isEqualTo(Duration.ofMinutes(5));
        assertThat(bulk.batchApi().poll()).isEqualTo(Duration.ofMinutes(1));
        assertThat(bulk.batchApi().maxRequests()).as("default").isEqualTo(50_000);
        assertThat(bulk.batchApi().maxFileBytes()).as("default").isEqualTo(200L * 1024 * 1024);
        assertThat(bulk.scope()).as("same model and key, its own queue and limits").isNotEqualTo(primary.scope())
                .startsWith(primary.scope());
        assertThat(routing.scopes()).hasSize(2);
        assertThat(routing.routeFor(Priority.BULK, "any").name()).isEqualTo("bulk");
        assertThat(primary.callPrices()).isEqualTo(new Prices(0.15, 0.60));
        assertThat(bulk.callPrices()).as("half price by default").isEqualTo(new Prices(0.075, 0.30));
    }

    @Test
    void shouldTakeItsOwnBatchPriceFactor(@TempDir Path dir) {
        Routing routing = RoutesFixture.routing(RoutesFixture.file(dir, BATCH_ROUTES + "route.bulk.price.batch-factor=0.4\n"),
                RoutesFixture.keys(), Map.of());

        assertThat(routing.route("bulk").orElseThrow().callPrices().cost(1_000_000, 0)).isEqualTo(0.06, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(routing.route("primary").orElseThrow().batchApi()).as("online: the factor does not apply").isEqualTo(BatchApiSettings.ONLINE);
    }

    @Test
    void shouldRefuseAnUnknownModeAndABatchBeyondTheProvidersLimits(@TempDir Path dir) {
        assertThatThrownBy(() -> RoutesFixture.routing(RoutesFixture.file(dir, BATCH_ROUTES + "route.bulk.mode=offline\n"),
                RoutesFixture.keys(), Map.of())).hasMessageContaining("route.bulk.mode").hasMessageContaining("online or batch");
        assertThatThrownBy(() -> RoutesFixture.routing(RoutesFixture.file(dir, BATCH_ROUTES + "route.bulk.batch.max-requests=60000\n"),
                RoutesFixture.keys(), Map.of())).hasMessageContaining("route.bulk.batch.max-requests");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"azure", "anthropic", "gemini"})
    void shouldRefuseAtLoadABatchRouteWhoseDialectIsNotOpenAi(String dialect, @TempDir Path dir) {
        assertThatThrownBy(() -> RoutesFixture.routing(RoutesFixture.file(dir, BATCH_ROUTES + "route.bulk.dialect=" + dialect + "\n"),
                RoutesFixture.keys(), Map.of())).isInstanceOf(ConfigError.class)
                .hasMessageContaining("route bulk: mode=batch needs the openai dialect, and its dialect is " + dialect)
                .hasMessageContaining("route.bulk.mode='batch' from").hasMessageContaining("route.bulk.dialect='" + dialect + "' from");
        Routing online = RoutesFixture.routing(RoutesFixture.file(dir, BATCH_ROUTES.replace("route.bulk.mode=batch", "route.bulk.mode=online")
                + "route.bulk.dialect=" + dialect + "\n"), RoutesFixture.keys(), Map.of());
        assertThat(online.route("bulk").orElseThrow().model().dialect().wire()).as("online: any dialect").isEqualTo(dialect);
        Routing openai = RoutesFixture.routing(RoutesFixture.file(dir, BATCH_ROUTES + "route.bulk.dialect=openai\n"),
                RoutesFixture.keys(), Map.of());
        assertThat(openai.route("bulk").orElseThrow().batchMode()).isTrue();
    }

    @Test
    void shouldReadTheModeFromTheEnvironment() {
        Map<String, String> env = RoutesFixture.keys();
        env.putAll(Map.of("QUOTAFLOW_BOOTSTRAP_SERVERS", "b:9092", "QUOTAFLOW_ROUTES", "primary,bulk",
                "QUOTAFLOW_LLM_BASE_URL", "https://api.openai.com/v1", "QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0004",
                "QUOTAFLOW_ROUTE_BULK_MODE", "batch", "QUOTAFLOW_ROUTE_BULK_BATCH_POLL_MS", "5000"));

        Routing routing = ConfigLoader.load(ConfigLoader.resolve(null, env, Map.of()), env).dispatcher().routing();

        assertThat(routing.route("bulk").orElseThrow().batchMode()).isTrue();
        assertThat(routing.route("bulk").orElseThrow().batchApi().poll()).isEqualTo(Duration.ofSeconds(5));
    }
}

package io.quotaflow.config;

import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.settings.Dialect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code route.<name>.dialect}, {@code .api-version}, {@code .deployment} and the single-route {@code llm.dialect} ({@code --dialect}). */
class DialectConfigTest {

    private static final String ROUTES = String.join("\n",
            "bootstrap.servers=b:9092",
            "routes=oai,az,claude,gem",
            "llm.base-url=https://api.openai.com/v1",
            "route.az.base-url=https://contoso.openai.azure.com",
            "route.az.dialect=azure",
            "route.az.deployment=tickets-4o",
            "route.claude.base-url=https://api.anthropic.com/v1",
            "route.claude.model=claude-haiku-4-5",
            "route.claude.dialect=Anthropic",
            "route.gem.base-url=https://generativelanguage.googleapis.com/v1beta/openai",
            "route.gem.model=gemini-2.5-flash",
            "route.gem.dialect=gemini",
            "route.gem.daily-reset-hour-utc=8", "");

    @Test
    void shouldReadEachRoutesDialectWithAzuresDefaults(@TempDir Path dir) {
        Map<String, String> env = new HashMap<>(Map.of("QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0004"));
        Routing routing = RoutesFixture.routing(RoutesFixture.file(dir, ROUTES), env, Map.of());

        assertThat(routing.route("oai").orElseThrow().model().dialect()).isEqualTo(Dialect.OPENAI);
        RouteSettings az = routing.route("az").orElseThrow();
        assertThat(az.model().dialect()).isEqualTo(Dialect.AZURE);
        assertThat(az.model().deployment()).isEqualTo("tickets-4o");
        assertThat(az.model().apiVersion()).isEqualTo(Dialect.DEFAULT_AZURE_API_VERSION);
        assertThat(routing.route("claude").orElseThrow().model().dialect()).isEqualTo(Dialect.ANTHROPIC);
        RouteSettings gem = routing.route("gem").orElseThrow();
        assertThat(gem.model().dialect()).isEqualTo(Dialect.GEMINI);
        assertThat(gem.model().deployment()).as("only Azure has deployments").isNull();
        assertThat(gem.daily().resetHourUtc()).isEqualTo(8);
    }

    @Test
    void shouldReadTheSingleRoutesDialectFromTheFlagAndTheEnvironment() {
        Map<String, String> flags = RoutesFixture.base();
        flags.put("llm.dialect", "gemini");
        Map<String, String> env = new HashMap<>(Map.of("QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0004"));
        assertThat(RoutesFixture.load(null, env, flags).dispatcher().model().dialect()).isEqualTo(Dialect.GEMINI);

        env.put("QUOTAFLOW_LLM_DIALECT", "azure");
        env.put("QUOTAFLOW_LLM_API_VERSION", "2024-06-01");
        var model = RoutesFixture.load(null, env, RoutesFixture.base()).dispatcher().model();
        assertThat(model.dialect()).isEqualTo(Dialect.AZURE);
        assertThat(model.apiVersion()).isEqualTo("2024-06-01");
        assertThat(model.deployment()).as("the model").isEqualTo("gpt-4o-mini");
    }

    @Test
    void shouldRefuseAnUnknownDialectNamingTheAcceptedOnes(@TempDir Path dir) {
        Path file = RoutesFixture.file(dir, ROUTES.replace("route.gem.dialect=gemini", "route.gem.dialect=vertex"));
        Map<String, String> env = new HashMap<>(Map.of("QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0004"));

        assertThatThrownBy(() -> RoutesFixture.load(file, env, Map.of())).isInstanceOf(ConfigError.class)
                .hasMessageContaining("route.gem.dialect").hasMessageContaining("openai, azure, anthropic, gemini");
    }
}

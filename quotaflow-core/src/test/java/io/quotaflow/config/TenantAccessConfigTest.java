package io.quotaflow.config;

import io.quotaflow.settings.TenantAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code tenants.from}, {@code tenants.allowed}, {@code tenants.unknown} and {@code tenant.<name>.principal}, from file and environment. */
class TenantAccessConfigTest {

    private static final Map<String, String> KEY = Map.of("QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0005");

    private static TenantAccess access(Path file, Map<String, String> env) {
        return RoutesFixture.load(file, env, RoutesFixture.base()).dispatcher().tenants().access();
    }

    @Test
    void shouldDefaultToTheKeyWithEveryTenantKnown() {
        TenantAccess access = access(null, KEY);

        assertThat(access.from()).isEqualTo(TenantAccess.From.KEY);
        assertThat(access.allowed()).isEmpty();
        assertThat(access.unknown()).isEqualTo(TenantAccess.Unknown.DEAD_LETTER);
        assertThat(access.known("anyone")).isTrue();
    }

    @Test
    void shouldReadPrincipalsAndTheListFromTheFileAndTheEnvironment(@TempDir Path dir) {
        Path file = RoutesFixture.file(dir, "tenants.from=principal\ntenants.allowed=acme,globex\ntenant.acme.principal=User:alice\n");
        Map<String, String> env = new HashMap<>(KEY);
        env.put("QUOTAFLOW_TENANT_GLOBEX_PRINCIPAL", "User:bob");
        env.put("QUOTAFLOW_TENANTS_UNKNOWN", "default");

        TenantAccess access = access(file, env);

        assertThat(access.from()).isEqualTo(TenantAccess.From.PRINCIPAL);
        assertThat(access.allowed()).containsExactly("acme", "globex");
        assertThat(access.principals()).containsExactly(Map.entry("acme", "User:alice"), Map.entry("globex", "User:bob"));
        assertThat(access.unknown()).isEqualTo(TenantAccess.Unknown.DEFAULT);
        assertThat(access.known("initech")).isFalse();
        assertThat(access.known("default")).isTrue();
        assertThat(access.topics(io.quotaflow.settings.TopicNames.DEFAULT)).containsOnlyKeys("tickets.acme.interactive",
                "tickets.acme.standard", "tickets.acme.bulk", "tickets.globex.interactive", "tickets.globex.standard",
                "tickets.globex.bulk");
    }

    @Test
    void shouldRefuseATopicSourceWithoutAListAPrincipalSourceWithoutPrincipalsAndABadValue(@TempDir Path dir) {
        Path topic = RoutesFixture.file(dir, "tenants.from=topic\n");
        assertThatThrownBy(() -> access(topic, KEY)).isInstanceOf(ConfigError.class)
                .hasMessage("tenants.from=topic needs tenants.allowed: it declares one input topic per listed tenant");
        Path principal = RoutesFixture.file(dir, "tenants.from=principal\ntenants.allowed=acme,globex\ntenant.acme.principal=User:alice\n");
        assertThatThrownBy(() -> access(principal, KEY)).isInstanceOf(ConfigError.class)
                .hasMessage("tenants.from=principal needs tenant.<name>.principal for every tenant of tenants.allowed; missing: globex");
        Path dotted = RoutesFixture.file(dir, "tenants.from=topic\ntenants.allowed=acme.eu\n");
        assertThatThrownBy(() -> access(dotted, KEY)).isInstanceOf(ConfigError.class).hasMessageContaining("part of a topic name");
        Map<String, String> env = new HashMap<>(KEY);
        env.put("QUOTAFLOW_TENANTS_FROM", "header");
        assertThatThrownBy(() -> access(null, env)).hasMessageContaining("tenants.from");
    }
}

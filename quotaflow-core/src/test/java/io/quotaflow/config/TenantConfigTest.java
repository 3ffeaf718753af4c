package io.quotaflow.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import io.quotaflow.settings.TenantLimits;
import io.quotaflow.settings.TenantSettings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TenantConfigTest {

    private static final Map<String, String> KEY = Map.of("QUOTAFLOW_LLM_API_KEY", "sk-shared-key-0004");

    @Test
    void shouldReadTenantWeightsAndCapsFromTheFileAndTheEnvironment(@TempDir Path dir) {
        Path file = RoutesFixture.file(dir, "tenant.acme.weight=3\ntenant.acme.tpm=20000\ntenant.big-co.rpm=60\n");
        Map<String, String> env = new java.util.HashMap<>(KEY);
        env.put("QUOTAFLOW_TENANT_BIG_CO_WEIGHT", "0.5");
        env.put("QUOTAFLOW_TENANT_ACME_RPM", "100");

        TenantSettings tenants = RoutesFixture.load(file, env, RoutesFixture.base()).dispatcher().tenants();

        assertThat(tenants.of("acme")).isEqualTo(new TenantLimits(3, 20_000, 100));
        assertThat(tenants.of("big-co")).isEqualTo(new TenantLimits(0.5, 0, 60));
        assertThat(tenants.of("anyone")).isEqualTo(TenantLimits.DEFAULT);
        assertThat(tenants.anyCapped()).isTrue();
        assertThat(ConfigLoader.merge(file, env, RoutesFixture.base())).containsEntry("tenant.big-co.weight", "0.5");
        assertThat(RoutesFixture.load(null, KEY, RoutesFixture.base()).dispatcher().tenants()).isEqualTo(TenantSettings.NONE);
    }

    @Test
    void shouldRefuseAnUnknownTenantSubKeyAndABadValueNamingTheSource(@TempDir Path dir) {
        Path file = RoutesFixture.file(dir, "tenant.acme.wieght=3\n");
        assertThatThrownBy(() -> ConfigLoader.resolve(file, Map.of(), Map.of()))
                .isInstanceOf(ConfigError.class)
                .hasMessage("unknown key 'tenant.acme.wieght' in " + file + " line 1; a tenant key is tenant.<name>.weight|tpm|rpm|principal");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of("QUOTAFLOW_TENANT_ACME_BURST", "1"), Map.of()))
                .hasMessageStartingWith("unknown environment variable QUOTAFLOW_TENANT_ACME_BURST");
        Path zero = RoutesFixture.file(dir, "tenant.acme.weight=0\n");
        assertThatThrownBy(() -> RoutesFixture.load(zero, KEY, RoutesFixture.base()))
                .isInstanceOf(ConfigError.class).hasMessageContaining("tenant.acme.weight");
        assertThat(ConfigKeys.isKnownVariable("QUOTAFLOW_TENANT_ACME_TPM")).isTrue();
        assertThat(ConfigKeys.isDefined("tenant.acme.rpm")).isTrue();
    }

    @Test
    void shouldValidateTenantLimitsInTheBuilder() {
        assertThatThrownBy(() -> TenantSettings.builder().weight("a", -1).build()).hasMessageContaining("weight");
        assertThatThrownBy(() -> TenantSettings.builder().tpm(" ", 5)).hasMessageContaining("blank");
        assertThat(TenantSettings.builder().weight("a", 2).build().weight("a")).isEqualTo(2.0);
    }
}

package io.quotaflow.config;

import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.LimitOrigin;
import io.quotaflow.settings.QuotaSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Whether each per-minute limit was set (a ceiling), {@code auto} or left at its default (both learn). */
class LimitOriginConfigTest {

    private static final Map<String, String> KEY = Map.of("QUOTAFLOW_LLM_API_KEY", "sk-env-secret");

    private static Map<String, String> flags(String... pairs) {
        Map<String, String> flags = new HashMap<>(Map.of("bootstrap.servers", "b:9092", "llm.base-url", "https://x.example/v1"));
        for (int i = 0; i < pairs.length; i += 2) {
            flags.put(pairs[i], pairs[i + 1]);
        }
        return flags;
    }

    @Test
    void shouldTellASetLimitFromADefaultOne() {
        QuotaSettings quota = ConfigLoader.load(null, KEY, flags("quota.tpm", "20000")).dispatcher().quota();

        assertThat(quota.tpm()).isEqualTo(20_000);
        assertThat(quota.tpmOrigin()).isEqualTo(LimitOrigin.SET);
        assertThat(quota.rpm()).isEqualTo(500);
        assertThat(quota.rpmOrigin()).isEqualTo(LimitOrigin.DEFAULT);
        assertThat(quota.describeLimits()).isEqualTo("500 RPM (default), 20000 TPM (set)");
    }

    @Test
    void shouldReadAutoAsTheDefaultValueThatLearns() {
        Map<String, String> env = new HashMap<>(KEY);
        env.put("QUOTAFLOW_QUOTA_RPM", "auto");
        QuotaSettings quota = ConfigLoader.load(null, env, flags("quota.tpm", "AUTO")).dispatcher().quota();

        assertThat(quota.rpm()).isEqualTo(500);
        assertThat(quota.tpm()).isEqualTo(200_000);
        assertThat(quota.rpmOrigin()).isEqualTo(LimitOrigin.AUTO);
        assertThat(quota.tpmOrigin()).isEqualTo(LimitOrigin.AUTO);
        assertThat(quota.rpmOrigin().learnsUp()).isTrue();
    }

    @Test
    void shouldGiveEachRouteTheOriginOfWhereItsLimitComesFrom(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("q.properties");
        Files.writeString(file, """
                quota.tpm=30000
                routes=a,b,c
                route.a.model=m-a
                route.b.model=m-b
                route.b.tpm=auto
                route.b.rpm=60
                route.c.model=m-c
                route.c.rpm=none
                """);
        var routes = ConfigLoader.load(file, KEY, flags()).dispatcher().routing().routes();

        RouteSettings a = routes.get("a");
        assertThat(a.quota().tpm()).isEqualTo(30_000);
        assertThat(a.quota().tpmOrigin()).as("inherits quota.tpm, set in the file").isEqualTo(LimitOrigin.SET);
        assertThat(a.quota().rpmOrigin()).isEqualTo(LimitOrigin.DEFAULT);
        RouteSettings b = routes.get("b");
        assertThat(b.quota().tpm()).isEqualTo(200_000);
        assertThat(b.quota().tpmOrigin()).isEqualTo(LimitOrigin.AUTO);
        assertThat(b.quota().rpmOrigin()).isEqualTo(LimitOrigin.SET);
        assertThat(routes.get("c").quota().describeLimits()).isEqualTo("none RPM (no limit), 30000 TPM (set)");
    }
}

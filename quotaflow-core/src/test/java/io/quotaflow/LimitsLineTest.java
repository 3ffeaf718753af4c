package io.quotaflow;

import io.quotaflow.config.ConfigLoader;
import io.quotaflow.settings.RouteSettings;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The one line per route {@code run} logs at start: which limits are defaults, which were set, and what that means. */
class LimitsLineTest {

    private static final String SECRET = "sk-LIMITSLINE0123456789abcdef";

    private static RouteSettings single(String... flags) {
        Map<String, String> given = new HashMap<>(Map.of("bootstrap.servers", "b:9092", "llm.base-url",
                "https://user:pw@x.example/v1"));
        for (int i = 0; i < flags.length; i += 2) {
            given.put(flags[i], flags[i + 1]);
        }
        return ConfigLoader.load(null, Map.of("QUOTAFLOW_LLM_API_KEY", SECRET), given).dispatcher().routing().routes().get("default");
    }

    @Test
    void shouldSayWhichLimitsAreDefaultsAndWhichWereSet() {
        String line = Pipeline.limitsLine(single("quota.tpm", "20000"));

        assertThat(line).isEqualTo("route default: 500 RPM (default), 20000 TPM (set); a set limit is a ceiling the provider's "
                + "headers may only lower, a default or auto one learns from them, up or down");
        assertThat(line).doesNotContain(SECRET).doesNotContain("pw").doesNotContain("x.example");
    }

    @Test
    void shouldSayThatDefaultsLearnFromTheProviderWhenNothingIsSet() {
        assertThat(Pipeline.limitsLine(single())).isEqualTo("route default: 500 RPM (default), 200000 TPM (default); a default "
                + "or auto limit learns from the provider's headers, up or down");
        assertThat(Pipeline.limitsLine(single("quota.rpm", "60", "quota.tpm", "none"))).isEqualTo("route default: 60 RPM (set), "
                + "none TPM (no limit); a set limit is a ceiling the provider's headers may only lower");
    }
}

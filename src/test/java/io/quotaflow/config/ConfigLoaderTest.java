package io.quotaflow.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigLoaderTest {

    private static final Map<String, String> KEY = Map.of("QUOTAFLOW_LLM_API_KEY", "sk-env-secret");

    @Test
    void shouldLetEnvironmentOverrideTheFileAndFlagsOverrideBoth(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("q.properties");
        Files.writeString(file, """
                bootstrap.servers=file:9092
                llm.base-url=https://file.example/v1
                quota.rpm=100
                quota.tpm=1000
                kafka.security.protocol=SASL_SSL
                """);
        Map<String, String> env = new java.util.HashMap<>(KEY);
        env.put("QUOTAFLOW_QUOTA_TPM", "2000");
        env.put("QUOTAFLOW_QUOTA_MAX_IN_FLIGHT", "3");
        env.put("QUOTAFLOW_KAFKA_SASL_MECHANISM", "PLAIN");
        QuotaflowConfig config = ConfigLoader.load(file, env, Map.of("quota.rpm", "300", "bootstrap.servers", "flag:9092"));

        assertThat(config.bootstrapServers()).isEqualTo("flag:9092");
        assertThat(config.dispatcher().quota().rpm()).isEqualTo(300);
        assertThat(config.dispatcher().quota().tpm()).isEqualTo(2000);
        assertThat(config.dispatcher().quota().maxInFlight()).isEqualTo(3);
        assertThat(config.kafka()).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "PLAIN");
        assertThat(config.dispatcher().model().baseUrl().toString()).isEqualTo("https://file.example/v1");
        assertThat(config.dispatcher().model().apiKey().reveal()).isEqualTo("sk-env-secret");
        assertThat(config.dispatcher().model().apiKey().toString()).doesNotContain("secret");
        assertThat(config.dispatcher().model().encoding()).isEqualTo("o200k_base");
    }

    @Test
    void shouldReadTheKeyFromAFileAndRefuseItAsAProperty(@TempDir Path dir) throws Exception {
        Path keyFile = dir.resolve("key");
        Files.writeString(keyFile, "sk-from-file\n");
        QuotaflowConfig config = ConfigLoader.load(null, Map.of(), Map.of("bootstrap.servers", "b:9092",
                "llm.base-url", "http://localhost:8089/v1", "llm.api-key-file", keyFile.toString()));
        assertThat(config.dispatcher().model().apiKey().reveal()).isEqualTo("sk-from-file");

        assertThatThrownBy(() -> ConfigLoader.load(null, KEY, Map.of("bootstrap.servers", "b:9092",
                "llm.base-url", "http://localhost:8089/v1", "llm.api-key", "sk-oops")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never from a property").hasMessageNotContaining("sk-oops");
    }

    @Test
    void shouldExplainMissingAndInvalidSettings() {
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), Map.of("bootstrap.servers", "b:9092",
                "llm.base-url", "http://localhost:8089/v1")))
                .hasMessageContaining("QUOTAFLOW_LLM_API_KEY");
        assertThatThrownBy(() -> ConfigLoader.load(null, KEY, Map.of("bootstrap.servers", "b:9092")))
                .hasMessageContaining("llm.base-url is required");
        assertThatThrownBy(() -> ConfigLoader.load(null, KEY, Map.of("bootstrap.servers", "b:9092",
                "llm.base-url", "http://localhost:8089/v1", "quota.rpm", "lots")))
                .hasMessageContaining("quota.rpm must be an integer");
        assertThatThrownBy(() -> ConfigLoader.load(null, KEY, Map.of("bootstrap.servers", "b:9092",
                "llm.base-url", "http://localhost:8089/v1", "quota.safety-factor", "1.5")))
                .hasMessageContaining("safety-factor");
    }
}

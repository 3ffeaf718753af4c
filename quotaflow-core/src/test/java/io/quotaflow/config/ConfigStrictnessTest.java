package io.quotaflow.config;

import io.quotaflow.settings.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Unknown keys stop the start naming the key, its place and the closest known key; values name their source. */
class ConfigStrictnessTest {

    private static final String CANARY = "sk-LEAKCANARY0123456789abcdef2345";

    @Test
    void shouldNameAnUnknownFileKeyItsLineAndTheClosestKnownKey(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("q.properties"), "# quotas\nbootstrap.servers=b:9092\n\nquota.rmp=100\n");

        assertThatThrownBy(() -> ConfigLoader.resolve(file, Map.of(), Map.of()))
                .isInstanceOf(ConfigError.class)
                .hasMessage("unknown key 'quota.rmp' in " + file + " line 4; did you mean quota.rpm?");
    }

    @Test
    void shouldNameAnUnknownVariableAndTheClosestKnownOne() {
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of("QUOTAFLOW_QUOTA_RMP", "100"), Map.of()))
                .isInstanceOf(ConfigError.class)
                .hasMessage("unknown environment variable QUOTAFLOW_QUOTA_RMP; did you mean QUOTAFLOW_QUOTA_RPM?");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of("QUOTAFLOW_NOTHING_LIKE_IT", "1"), Map.of()))
                .hasMessage("unknown environment variable QUOTAFLOW_NOTHING_LIKE_IT");
    }

    @Test
    void shouldReportEveryUnknownKeyOfFileAndEnvironmentAtOnce(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("q.properties"), "batch.max-iterms=3\nretry.max-atempts=2\n");

        assertThatThrownBy(() -> ConfigLoader.resolve(file, Map.of("QUOTAFLOW_TOPIC_PREFIX", "a."), Map.of()))
                .hasMessageContaining("'batch.max-iterms' in " + file + " line 1; did you mean batch.max-items?")
                .hasMessageContaining("'retry.max-atempts' in " + file + " line 2; did you mean retry.max-attempts?")
                .hasMessageContaining("QUOTAFLOW_TOPIC_PREFIX; did you mean QUOTAFLOW_TOPICS_PREFIX?");
    }

    @Test
    void shouldRefuseAnUnknownKeyGivenAsAFlag() {
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of(), Map.of("quota.rmp", "1")))
                .hasMessage("unknown key 'quota.rmp' given as a flag; did you mean quota.rpm?");
    }

    @Test
    void shouldAcceptTheVariablesReadByDesignAndKafkaPassThrough() {
        Map<String, String> env = Map.of("QUOTAFLOW_LLM_API_KEY", CANARY, "QUOTAFLOW_SIM_API_KEYS", "a,b",
                "QUOTAFLOW_JAVA_OPTS", "-Xmx1g", "QUOTAFLOW_LLM_API_KEY_FILE", "/run/secrets/key",
                "QUOTAFLOW_KAFKA_SASL_MECHANISM", "PLAIN", "PATH", "/usr/bin", "OTHER_QUOTAFLOW_X", "1");

        ConfigValues values = ConfigLoader.resolve(null, env, Map.of(), java.util.Set.of("QUOTAFLOW_SIM_API_KEYS"));

        assertThat(values.get("llm.api-key-file")).contains("/run/secrets/key");
        assertThat(values.kafka()).containsEntry("sasl.mechanism", "PLAIN");
    }

    @Test
    void shouldRefuseADistributionsOwnVariableItDidNotRegister() {
        Map<String, String> env = Map.of("QUOTAFLOW_SIM_API_KEYS", "a,b", "QUOTAFLOW_BENCH_PIPELINE_JVM_OPTS", "-Xmx1g");

        assertThatThrownBy(() -> ConfigLoader.resolve(null, env, Map.of()))
                .hasMessageContaining("unknown environment variable QUOTAFLOW_SIM_API_KEYS")
                .hasMessageContaining("unknown environment variable QUOTAFLOW_BENCH_PIPELINE_JVM_OPTS");
        org.assertj.core.api.Assertions.assertThatCode(() -> ConfigLoader.resolve(null, env, Map.of(), env.keySet()))
                .as("registered").doesNotThrowAnyException();
    }

    @Test
    void shouldTakeEachKeyFromTheHighestSource(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("q.properties"), "quota.rpm=100\nquota.tpm=1000\nretry.max-attempts=5\n");
        Map<String, String> env = Map.of("QUOTAFLOW_QUOTA_RPM", "200", "QUOTAFLOW_QUOTA_TPM", "2000");
        Map<String, String> flags = Map.of("quota.rpm", "300");

        ConfigValues values = ConfigLoader.resolve(file, env, flags);

        assertThat(values.string("quota.rpm")).isEqualTo("300");
        assertThat(values.origin("quota.rpm")).hasToString("flag --rpm");
        assertThat(values.string("quota.tpm")).isEqualTo("2000");
        assertThat(values.origin("quota.tpm")).hasToString("environment variable QUOTAFLOW_QUOTA_TPM");
        assertThat(values.integer("retry.max-attempts")).isEqualTo(5);
        assertThat(values.origin("retry.max-attempts")).hasToString(file + " line 3");
        assertThat(values.integer("batch.max-items")).isEqualTo(10);
        assertThat(values.origin("batch.max-items")).isEqualTo(Origin.DEFAULT);
    }

    @Test
    void shouldNameTheSourceOfABadValue(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("q.properties"), "\nquota.rpm=lots\n");
        assertThatThrownBy(() -> ConfigLoader.resolve(file, Map.of(), Map.of()))
                .hasMessage("quota.rpm must be a positive integer, auto or none, got 'lots' (" + file + " line 2)");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of("QUOTAFLOW_HTTP_PORT", "70000"), Map.of()))
                .hasMessage("http.port must be a port in [-1, 65535] (0: any free port, -1: off), got '70000' "
                        + "(environment variable QUOTAFLOW_HTTP_PORT)");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of(), Map.of("kafka.x", "1", "topics.prefix", "a/b")))
                .hasMessageContaining("topics.prefix must be letters").hasMessageContaining("(flag --topics-prefix)");
    }

    @Test
    void shouldNameTheSourceOfAValueASettingsRecordRefuses() {
        Map<String, String> env = Map.of("QUOTAFLOW_LLM_API_KEY", CANARY, "QUOTAFLOW_QUOTA_SAFETY_FACTOR", "1.5");
        assertThatThrownBy(() -> ConfigLoader.load(null, env, Map.of("bootstrap.servers", "b:9092",
                "llm.base-url", "http://localhost:8089/v1")))
                .isInstanceOf(ConfigError.class)
                .hasMessage("quota.safety-factor must be in (0, 1] (quota.safety-factor='1.5' from environment variable "
                        + "QUOTAFLOW_QUOTA_SAFETY_FACTOR)")
                .hasMessageNotContaining("LEAKCANARY");
    }

    @Test
    void shouldNeverShowTheValueOfASecretNamedKey() {
        Map<String, String> flags = new HashMap<>(Map.of("llm.api-key-file", CANARY));
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), withBase(flags)))
                .hasMessageNotContaining("LEAKCANARY");
    }

    @Test
    void shouldExplainAMissingConfigFileAndMissingBootstrapServers(@TempDir Path dir) {
        Path missing = dir.resolve("nope.properties");
        assertThatThrownBy(() -> ConfigLoader.resolve(missing, Map.of(), Map.of()))
                .hasMessage("config file not found: " + missing.toAbsolutePath() + " (--config)");
        assertThatThrownBy(() -> ConfigLoader.resolve(null, Map.of(), Map.of()).cluster())
                .hasMessageContaining("--bootstrap-servers").hasMessageContaining("QUOTAFLOW_BOOTSTRAP_SERVERS")
                .hasMessageContaining("--config");
    }

    @Test
    void shouldPrefixTopicsAndTheDefaultApplicationId() {
        Map<String, String> env = Map.of("QUOTAFLOW_LLM_API_KEY", CANARY, "QUOTAFLOW_TOPICS_PREFIX", "team-a.");
        QuotaflowConfig config = ConfigLoader.load(null, env, withBase(new HashMap<>()));

        assertThat(config.topics().retry()).isEqualTo("team-a.tickets.retry");
        assertThat(config.applicationId()).isEqualTo("team-a.quotaflow");
        assertThat(ConfigLoader.load(null, env, withBase(new HashMap<>(Map.of("application.id", "mine")))).applicationId())
                .isEqualTo("mine");
    }

    private static Map<String, String> withBase(Map<String, String> flags) {
        flags.put("bootstrap.servers", "b:9092");
        flags.put("llm.base-url", "http://localhost:8089/v1");
        return flags;
    }
}

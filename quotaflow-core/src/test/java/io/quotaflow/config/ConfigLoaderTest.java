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
    void shouldGiveTheGroupASixSecondSessionUnlessAKafkaKeySaysOtherwise() {
        Map<String, String> flags = Map.of("bootstrap.servers", "b:9092", "llm.base-url", "https://x.example/v1");
        QuotaflowConfig defaults = ConfigLoader.load(null, KEY, flags);
        assertThat(defaults.kafka()).containsEntry("session.timeout.ms", "6000").containsEntry("heartbeat.interval.ms", "500")
                .containsEntry("transaction.timeout.ms", "5000");

        Map<String, String> env = new java.util.HashMap<>(KEY);
        env.put("QUOTAFLOW_INSTANCE_SESSION_TIMEOUT_MS", "10000");
        env.put("QUOTAFLOW_KAFKA_HEARTBEAT_INTERVAL_MS", "3000");
        QuotaflowConfig tuned = ConfigLoader.load(null, env, flags);
        assertThat(tuned.kafka()).containsEntry("session.timeout.ms", "10000").containsEntry("heartbeat.interval.ms", "3000");
    }

    @Test
    void shouldBoundTheStoresOffHeapMemoryFromStateMemoryMb() {
        Map<String, String> flags = Map.of("bootstrap.servers", "b:9092", "llm.base-url", "https://x.example/v1");
        assertThat(ConfigLoader.load(null, KEY, flags).kafka())
                .containsEntry("rocksdb.config.setter", "io.quotaflow.state.BoundedRocksDb")
                .containsEntry("quotaflow.rocksdb.memory.bytes", Long.toString(128L << 20));

        Map<String, String> env = new java.util.HashMap<>(KEY);
        env.put("QUOTAFLOW_STATE_MEMORY_MB", "512");
        assertThat(ConfigLoader.load(null, env, flags).kafka()).containsEntry("quotaflow.rocksdb.memory.bytes", Long.toString(512L << 20));

        env.put("QUOTAFLOW_STATE_MEMORY_MB", "8");
        assertThatThrownBy(() -> ConfigLoader.load(null, env, flags)).hasMessageContaining("state.memory-mb").hasMessageContaining("at least 16");

        env.put("QUOTAFLOW_STATE_MEMORY_MB", "64");
        env.put("QUOTAFLOW_KAFKA_ROCKSDB_CONFIG_SETTER", "com.acme.Tuned");
        assertThat(ConfigLoader.load(null, env, flags).kafka()).containsEntry("rocksdb.config.setter", "com.acme.Tuned")
                .doesNotContainKey("quotaflow.rocksdb.memory.bytes");
    }

    @Test
    void shouldTurnTheTakeoverCreditOffOnlyWhenAsked() {
        Map<String, String> flags = Map.of("bootstrap.servers", "b:9092", "llm.base-url", "https://x.example/v1");
        assertThat(ConfigLoader.load(null, KEY, flags).kafka()).doesNotContainKey("quotaflow.takeover.credit");
        Map<String, String> env = new java.util.HashMap<>(KEY);
        env.put("QUOTAFLOW_INSTANCE_TAKEOVER_CREDIT", "OFF");
        assertThat(ConfigLoader.load(null, env, flags).kafka()).containsEntry("quotaflow.takeover.credit", "off");
        env.put("QUOTAFLOW_INSTANCE_TAKEOVER_CREDIT", "maybe");
        assertThatThrownBy(() -> ConfigLoader.load(null, env, flags)).hasMessageContaining("instance.takeover-credit")
                .hasMessageContaining("on or off");
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
                .hasMessageContaining("quota.rpm must be a positive integer, auto or none");
        assertThatThrownBy(() -> ConfigLoader.load(null, KEY, Map.of("bootstrap.servers", "b:9092",
                "llm.base-url", "http://localhost:8089/v1", "quota.safety-factor", "1.5")))
                .hasMessageContaining("safety-factor");
    }

    private static final String CANARY = "sk-LEAKCANARY0123456789abcdef2345";
    private static final Map<String, String> BASE = Map.of("bootstrap.servers", "b:9092", "llm.base-url", "http://localhost:8089/v1");

    private static Map<String, String> flags(String key, String value) {
        Map<String, String> flags = new java.util.HashMap<>(BASE);
        flags.put(key, value);
        return flags;
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"llm.api-key", "llm.api_key", "api-key", "api.key", "llm.apikey",
            "LLM.API-KEY", "openai.api-key", "kafka.llm.api-key", "kafka.api_key", "llm.token", "llm.secret"})
    void shouldRefuseTheApiKeyAsAFlagOrKafkaPropertyNamingTheKeyNotTheValue(String key) {
        assertThatThrownBy(() -> ConfigLoader.load(null, KEY, flags(key, CANARY)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'" + key + "'")
                .hasMessageContaining("QUOTAFLOW_LLM_API_KEY").hasMessageContaining("--llm-api-key-file")
                .hasMessageNotContaining("LEAKCANARY");
    }

    @Test
    void shouldRefuseTheApiKeyInTheConfigFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("q.properties");
        Files.writeString(file, "bootstrap.servers=b:9092\nllm.api-key=" + CANARY + "\n");
        assertThatThrownBy(() -> ConfigLoader.load(file, KEY, BASE))
                .hasMessageContaining("'llm.api-key' in the config file is refused")
                .hasMessageNotContaining("LEAKCANARY");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"QUOTAFLOW_API_KEY", "QUOTAFLOW_LLM_APIKEY", "QUOTAFLOW_OPENAI_API_KEY",
            "QUOTAFLOW_KAFKA_LLM_API_KEY", "QUOTAFLOW_LLM_TOKEN"})
    void shouldRefuseTheApiKeyInAnyOtherQuotaflowVariable(String name) {
        Map<String, String> env = new java.util.HashMap<>(KEY);
        env.put(name, CANARY);
        assertThatThrownBy(() -> ConfigLoader.load(null, env, BASE))
                .hasMessageContaining("environment variable " + name + " is refused")
                .hasMessageContaining("QUOTAFLOW_LLM_API_KEY")
                .hasMessageNotContaining("LEAKCANARY");
    }

    @Test
    void shouldAcceptTheKeyFileVariableAndKafkasOwnSecrets(@TempDir Path dir) throws Exception {
        Path keyFile = dir.resolve("key");
        Files.writeString(keyFile, CANARY);
        Map<String, String> env = Map.of("QUOTAFLOW_LLM_API_KEY_FILE", keyFile.toString(),
                "QUOTAFLOW_KAFKA_SSL_KEYSTORE_PASSWORD", "changeit");
        Map<String, String> flags = new java.util.HashMap<>(BASE);
        flags.put("kafka.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"p\";");
        flags.put("kafka.ssl.key.password", "k");
        QuotaflowConfig config = ConfigLoader.load(null, env, flags);
        assertThat(config.dispatcher().model().apiKey().reveal()).isEqualTo(CANARY);
        assertThat(config.kafka()).containsKeys("sasl.jaas.config", "ssl.key.password", "ssl.keystore.password");
    }

    @Test
    void shouldExplainAKeyFileProblemWithoutNamingTheValue(@TempDir Path dir) throws Exception {
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), flags("llm.api-key-file", CANARY)))
                .hasMessageContaining("--llm-api-key-file").hasMessageContaining("no such file").hasMessageNotContaining("LEAKCANARY");
        Path empty = Files.writeString(dir.resolve("sk-LEAKCANARY0123456789abcdef2345"), "  \n");
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), flags("llm.api-key-file", empty.toString())))
                .hasMessageContaining("--llm-api-key-file").hasMessageContaining("empty").hasMessageNotContaining("LEAKCANARY");
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), flags("llm.api-key-file", dir.toString())))
                .hasMessageContaining("--llm-api-key-file").hasMessageContaining("directory").hasMessageNotContaining(dir.toString());
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), flags("llm.api-key-file", "bad\u0000" + CANARY)))
                .hasMessageContaining("--llm-api-key-file").hasMessageContaining("not a valid path").hasMessageNotContaining("LEAKCANARY");
    }

    @Test
    void shouldFixTheDispatchPartitionsFromItsKeyOrVariableAndRefuseANonsenseCount() {
        assertThat(ConfigLoader.load(null, KEY, BASE).dispatcher().dispatchPartitions())
                .as("the count Streams derived from the bundled inputs").isEqualTo(6);
        Map<String, String> env = new java.util.HashMap<>(KEY);
        env.put("QUOTAFLOW_DISPATCH_PARTITIONS", "12");
        assertThat(ConfigLoader.load(null, env, BASE).dispatcher().dispatchPartitions()).isEqualTo(12);
        for (String bad : new String[] {"0", "-3", "1001", "eight"}) {
            assertThatThrownBy(() -> ConfigLoader.load(null, KEY, flags("dispatch.partitions", bad)))
                    .as(bad).isInstanceOf(ConfigError.class).hasMessageContaining("dispatch.partitions");
        }
    }

    @Test
    void shouldReadTheHaltGraceFromItsKeyOrVariableAndRefuseOneOutsideZeroToADay() {
        assertThat(ConfigLoader.load(null, KEY, BASE).dispatcher().deadlines().haltGrace()).as("default")
                .isEqualTo(java.time.Duration.ofSeconds(30));
        Map<String, String> env = new java.util.HashMap<>(KEY);
        env.put("QUOTAFLOW_DEADLINE_HALT_GRACE", "2m");
        assertThat(ConfigLoader.load(null, env, BASE).dispatcher().deadlines().haltGrace()).isEqualTo(java.time.Duration.ofMinutes(2));
        assertThat(ConfigLoader.load(null, KEY, flags("deadline.halt-grace", "0")).dispatcher().deadlines().haltGrace()).isZero();
        for (String bad : new String[] {"-1s", "2d", "soon", "86400001"}) {
            assertThatThrownBy(() -> ConfigLoader.load(null, KEY, flags("deadline.halt-grace", bad)))
                    .as(bad).isInstanceOf(ConfigError.class).hasMessageContaining("deadline.halt-grace").hasMessageContaining("0 to 1d");
        }
    }
}

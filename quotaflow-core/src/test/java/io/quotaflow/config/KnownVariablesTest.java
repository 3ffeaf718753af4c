package io.quotaflow.config;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Which {@code QUOTAFLOW_*} names quotaflow knows: what a command that reads one variable checks the rest against. */
class KnownVariablesTest {

    @Test
    void shouldKnowEveryKeysVariableThePassThroughAndTheOtherVariables() {
        ConfigKeys.names().forEach(k -> assertThat(ConfigKeys.isKnownVariable(ConfigKeys.envName(k))).as(k).isTrue());
        ConfigKeys.OTHER_VARIABLES.forEach(v -> assertThat(ConfigKeys.isKnownVariable(v)).as(v).isTrue());
        assertThat(ConfigKeys.isKnownVariable("QUOTAFLOW_KAFKA_SASL_JAAS_CONFIG")).isTrue();
        assertThat(ConfigKeys.isKnownVariable("PATH")).as("not ours").isTrue();
        assertThat(ConfigKeys.isKnownVariable("QUOTAFLOW_HTTP_BND")).isFalse();
    }

    @Test
    void shouldNameTheFirstUnknownVariableAndTheClosestKnownOne() {
        assertThat(ConfigKeys.unknownVariable(Map.of("QUOTAFLOW_HTTP_BIND", "127.0.0.1", "HOME", "/root"))).isEmpty();
        assertThat(ConfigKeys.unknownVariable(Map.of("QUOTAFLOW_SIM_API_KEY", "x", "QUOTAFLOW_ZZZ_NOTHING_LIKE_IT", "y"),
                Set.of("QUOTAFLOW_SIM_API_KEYS")))
                .hasValue("unknown environment variable QUOTAFLOW_SIM_API_KEY; did you mean QUOTAFLOW_SIM_API_KEYS?");
        assertThat(ConfigKeys.unknownVariable(Map.of("QUOTAFLOW_ZZZ_NOTHING_LIKE_IT", "y")))
                .hasValue("unknown environment variable QUOTAFLOW_ZZZ_NOTHING_LIKE_IT");
    }

    @Test
    void shouldKnowADistributionsOwnVariablesOnlyWhenItRegistersThem() {
        assertThat(ConfigKeys.OTHER_VARIABLES).as("core names no developer command's variable")
                .doesNotContain("QUOTAFLOW_SIM_API_KEYS", "QUOTAFLOW_BENCH_PIPELINE_JVM_OPTS");
        assertThat(ConfigKeys.isKnownVariable("QUOTAFLOW_SIM_API_KEYS")).isFalse();
        assertThat(ConfigKeys.isKnownVariable("QUOTAFLOW_SIM_API_KEYS", Set.of("QUOTAFLOW_SIM_API_KEYS"))).isTrue();
        assertThat(ConfigKeys.unknownVariable(Map.of("QUOTAFLOW_SIM_API_KEYS", "a"))).isPresent();
        assertThat(ConfigKeys.unknownVariable(Map.of("QUOTAFLOW_SIM_API_KEYS", "a"), Set.of("QUOTAFLOW_SIM_API_KEYS"))).isEmpty();
    }

    @Test
    void shouldAcceptTheStandardOpenTelemetryVariablesBesideStrictQuotaflowOnes() {
        Map<String, String> env = Map.of("QUOTAFLOW_LLM_API_KEY", "sk-env-secret", "OTEL_TRACES_EXPORTER", "otlp",
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318", "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf",
                "OTEL_SERVICE_NAME", "quotaflow-eu", "OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=prod",
                "OTEL_TRACES_SAMPLER", "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG", "0.1");
        assertThat(ConfigKeys.unknownVariable(env)).isEmpty();
        QuotaflowConfig config = ConfigLoader.load(null, env, Map.of("bootstrap.servers", "b:9092", "llm.base-url", "http://sim:8089/v1"));
        assertThat(config.metrics().traces().exporter()).as("the variable is OpenTelemetry's, read by its SDK").isNull();
        assertThat(ConfigKeys.unknownVariable(Map.of("QUOTAFLOW_OTEL_TRACES_EXPORTER", "otlp"))).as("the key's own variable").isEmpty();
    }
}

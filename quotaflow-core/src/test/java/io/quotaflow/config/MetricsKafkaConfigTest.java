package io.quotaflow.config;

import io.quotaflow.settings.MetricsSettings.KafkaMetrics;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code metrics.kafka}: the Kafka client metrics on /metrics, off unless curated is asked for. */
class MetricsKafkaConfigTest {

    private static final Map<String, String> FLAGS = Map.of("bootstrap.servers", "b:9092", "llm.base-url", "http://sim:8089/v1");

    private static QuotaflowConfig load(String... env) {
        Map<String, String> variables = new HashMap<>(Map.of("QUOTAFLOW_LLM_API_KEY", "sk-env-secret"));
        for (int i = 0; i < env.length; i += 2) {
            variables.put(env[i], env[i + 1]);
        }
        return ConfigLoader.load(null, variables, FLAGS);
    }

    @Test
    void shouldKeepKafkaMetricsOffByDefault() {
        assertThat(load().metrics().kafka()).isEqualTo(KafkaMetrics.OFF);
    }

    @Test
    void shouldTakeCuratedFromTheEnvironmentMirror() {
        assertThat(ConfigLoader.envName("metrics.kafka")).isEqualTo("QUOTAFLOW_METRICS_KAFKA");
        assertThat(load("QUOTAFLOW_METRICS_KAFKA", "curated").metrics().kafka()).isEqualTo(KafkaMetrics.CURATED);
        assertThat(load("QUOTAFLOW_METRICS_KAFKA", " Curated ").metrics().kafka()).isEqualTo(KafkaMetrics.CURATED);
        assertThat(load("QUOTAFLOW_METRICS_KAFKA", "off").metrics().kafka()).isEqualTo(KafkaMetrics.OFF);
    }

    @Test
    void shouldRefuseAnyOtherValueNamingTheKey() {
        assertThatThrownBy(() -> load("QUOTAFLOW_METRICS_KAFKA", "all")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metrics.kafka").hasMessageContaining("off or curated");
    }

    @Test
    void shouldKeepTheMetricsSettingWhenTheHttpSettingsChange() {
        QuotaflowConfig curated = load("QUOTAFLOW_METRICS_KAFKA", "curated");
        assertThat(curated.withHttp("127.0.0.1", 0).metrics().kafka()).isEqualTo(KafkaMetrics.CURATED);
        assertThat(curated.withHttpSettings(curated.http()).metrics().kafka()).isEqualTo(KafkaMetrics.CURATED);
    }
}

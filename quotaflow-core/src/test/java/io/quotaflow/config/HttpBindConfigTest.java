package io.quotaflow.config;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code http.bind}: the address of /metrics, /health/* and /status. */
class HttpBindConfigTest {

    private static final Map<String, String> FLAGS = Map.of("bootstrap.servers", "b:9092", "llm.base-url", "http://sim:8089/v1");

    @Test
    void shouldListenOnEveryInterfaceByDefault() {
        QuotaflowConfig config = ConfigLoader.load(null, Map.of("QUOTAFLOW_LLM_API_KEY", "sk-env-secret"), FLAGS);
        assertThat(config.httpBind()).isEqualTo("0.0.0.0");
        assertThat(config.httpPort()).isEqualTo(8080);
    }

    @Test
    void shouldTakeTheAddressFromTheEnvironment() {
        QuotaflowConfig config = ConfigLoader.load(null, Map.of("QUOTAFLOW_LLM_API_KEY", "sk-env-secret",
                "QUOTAFLOW_HTTP_BIND", "127.0.0.1", "QUOTAFLOW_HTTP_PORT", "9100"), FLAGS);
        assertThat(config.httpBind()).isEqualTo("127.0.0.1");
        assertThat(config.httpPort()).isEqualTo(9100);
    }

    @Test
    void shouldRefuseSomethingThatIsNoAddress() {
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("QUOTAFLOW_LLM_API_KEY", "sk-env-secret",
                "QUOTAFLOW_HTTP_BIND", "local host"), FLAGS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http.bind").hasMessageContaining("'local host'");
    }
}

package io.quotaflow.config;

import io.quotaflow.settings.Secret;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code http.advertised-host}: the name other instances forward {@code GET /tickets/{id}} to. */
class HttpAdvertisedHostTest {

    private static final Map<String, String> FLAGS = Map.of("bootstrap.servers", "b:9092", "llm.base-url", "http://sim:8089/v1");

    @Test
    void shouldDeriveTheHostFromTheBindAddressByDefault() {
        QuotaflowConfig config = ConfigLoader.load(null, Map.of("QUOTAFLOW_LLM_API_KEY", "sk-env-secret"), FLAGS);
        assertThat(config.http().advertised()).isEmpty();
    }

    @Test
    void shouldTakeThePodsDnsNameFromTheEnvironment() {
        QuotaflowConfig config = ConfigLoader.load(null, Map.of("QUOTAFLOW_LLM_API_KEY", "sk-env-secret",
                "QUOTAFLOW_HTTP_ADVERTISED_HOST", " quotaflow-0.quotaflow-headless.team-a.svc "), FLAGS);
        assertThat(config.http().advertised()).contains("quotaflow-0.quotaflow-headless.team-a.svc");
        assertThat(config.httpBind()).as("the endpoints still listen on every interface").isEqualTo("0.0.0.0");
    }

    @Test
    void shouldKeepTheHostWhenATokenIsAdded() {
        QuotaflowConfig config = ConfigLoader.load(null, Map.of("QUOTAFLOW_LLM_API_KEY", "sk-env-secret",
                "QUOTAFLOW_HTTP_ADVERTISED_HOST", "10.1.2.3"), FLAGS);
        assertThat(config.http().withAuthToken(Secret.of("0123456789abcdef0123")).advertised())
                .contains("10.1.2.3");
    }

    @Test
    void shouldRefuseSomethingThatIsNoHostName() {
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("QUOTAFLOW_LLM_API_KEY", "sk-env-secret",
                "QUOTAFLOW_HTTP_ADVERTISED_HOST", "pod 0"), FLAGS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http.advertised-host").hasMessageContaining("'pod 0'");
    }
}

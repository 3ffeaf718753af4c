package io.quotaflow;

import io.quotaflow.config.ConfigLoader;
import io.quotaflow.config.QuotaflowConfig;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The host an instance gives as its {@code application.server}, which the other instances forward look-ups to. */
class AdvertisedHostTest {

    private static final Map<String, String> FLAGS = Map.of("bootstrap.servers", "b:9092", "llm.base-url", "http://sim:8089/v1");

    private static QuotaflowConfig config(String... variables) {
        Map<String, String> env = new HashMap<>(Map.of("QUOTAFLOW_LLM_API_KEY", "sk-env-secret"));
        for (int i = 0; i < variables.length; i += 2) {
            env.put(variables[i], variables[i + 1]);
        }
        return ConfigLoader.load(null, env, FLAGS);
    }

    @Test
    void shouldAdvertiseTheConfiguredHost() {
        assertThat(Pipeline.advertisedHost(config("QUOTAFLOW_HTTP_ADVERTISED_HOST", "quotaflow-0.quotaflow-headless.team-a.svc")))
                .isEqualTo("quotaflow-0.quotaflow-headless.team-a.svc");
    }

    @Test
    void shouldAdvertiseTheBindAddressWithoutOne() {
        assertThat(Pipeline.advertisedHost(config("QUOTAFLOW_HTTP_BIND", "127.0.0.1"))).isEqualTo("127.0.0.1");
        assertThat(Pipeline.advertisedHost(config())).as("every interface: this host's name")
                .isEqualTo(TicketQueries.advertisedHost("0.0.0.0")).isNotEqualTo("0.0.0.0");
    }
}

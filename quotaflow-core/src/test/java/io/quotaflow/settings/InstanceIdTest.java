package io.quotaflow.settings;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import io.quotaflow.config.ConfigLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InstanceIdTest {

    @Test
    void shouldDeriveTheSameIdForTheSameHostAndStateDir() {
        String a = InstanceId.derive("qf", "Host_1.example", Path.of("/var/lib/qf"));
        String b = InstanceId.derive("qf", "Host_1.example", Path.of("/var/lib/../lib/qf"));
        assertThat(a).isEqualTo(b).startsWith("qf-host-1.example-").matches("[A-Za-z0-9._-]+");
        assertThat(InstanceId.derive("qf", "Host_1.example", Path.of("/var/lib/qf2"))).isNotEqualTo(a);
    }

    @Test
    void shouldHonourNoneAndExplicitValues() {
        assertThat(InstanceId.resolve("none", "qf", Path.of("/tmp/x"))).isNull();
        assertThat(InstanceId.resolve("pod-7", "qf", Path.of("/tmp/x"))).isEqualTo("pod-7");
        assertThat(InstanceId.resolve("auto", "qf", Path.of("/tmp/x"))).startsWith("qf-");
        assertThatThrownBy(() -> InstanceId.resolve("a b", "qf", Path.of("/tmp/x")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("instance.id");
    }

    @Test
    void shouldResolveStaticMembershipInTheLoadedConfig() {
        Map<String, String> env = Map.of(ConfigLoader.API_KEY_ENV, "sk-test");
        Map<String, String> base = Map.of("bootstrap.servers", "b:9092", "llm.base-url", "http://localhost:1/v1",
                "state.dir", "/tmp/qf-state");
        assertThat(ConfigLoader.load(null, env, base).instanceId()).startsWith("quotaflow-");
        Map<String, String> none = new java.util.HashMap<>(base);
        none.put("instance.id", "none");
        assertThat(ConfigLoader.load(null, env, none).instanceId()).isNull();
    }
}

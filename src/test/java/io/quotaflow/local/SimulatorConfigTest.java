package io.quotaflow.local;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SimulatorConfigTest {

    @Test
    void shouldHaveTheDocumentedDefaults() {
        SimulatorConfig c = SimulatorConfig.ofDefaults();
        assertThat(c.port()).isEqualTo(8089);
        assertThat(c.rpm()).isEqualTo(500);
        assertThat(c.tpm()).isEqualTo(200_000);
        assertThat(c.burstSeconds()).isEqualTo(5.0);
        assertThat(c.apiKeys()).isEmpty();
        assertThat(c.model()).isEqualTo("gpt-4o-mini");
        assertThat(c.baseLatencyMs()).isEqualTo(150);
        assertThat(c.perCompletionTokenMs()).isEqualTo(2.0);
        assertThat(c.latencyJitter()).isEqualTo(0.2);
        assertThat(c.defaultMaxTokens()).isEqualTo(4096);
        assertThat(c.faults()).isEqualTo(SimulatorConfig.Faults.none());
        assertThat(c.faults().any()).isFalse();
        assertThat(c.tokenCapacity()).isCloseTo(16_666.67, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void shouldRoundTripThroughTheBuilder() {
        SimulatorConfig c = SimulatorConfig.builder().port(0).rpm(60).tpm(1_000).burstSeconds(1)
                .apiKeys(Set.of("k")).model("m").noLatency().seed(1).build();
        assertThat(c.toBuilder().build()).isEqualTo(c);
    }

    @Test
    void shouldRejectInvalidValues() {
        assertThatThrownBy(() -> SimulatorConfig.builder().port(70_000).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SimulatorConfig.builder().rpm(0).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SimulatorConfig.builder().tpm(-1).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SimulatorConfig.builder().burstSeconds(0).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SimulatorConfig.builder().burstSeconds(61).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SimulatorConfig.builder().apiKeys(Set.of(" ")).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SimulatorConfig.builder().model(" ").build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SimulatorConfig.builder().latencyJitter(1.5).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SimulatorConfig.builder().baseLatencyMs(-1).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SimulatorConfig.Faults(1.5, 0, 0, 0, 0, 0, List.of(), false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SimulatorConfig.Outage(Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldNotPrintApiKeys() {
        SimulatorConfig c = SimulatorConfig.builder().apiKeys(Set.of("sk-secret-1", "sk-secret-2")).build();
        assertThat(c.toString()).doesNotContain("sk-secret").contains("2 key(s)");
    }
}

package io.quotaflow.simulator;

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
        assertThat(c.faults()).isEqualTo(Faults.none());
        assertThat(c.faults().any()).isFalse();
        assertThat(c.tokenCapacity()).isCloseTo(16_666.67, org.assertj.core.data.Offset.offset(0.01));
        assertThat(c.tokenizer()).isEqualTo(SimTokenizer.AUTO);
        assertThat(c.resolvedTokenizer()).isEqualTo(SimTokenizer.O200K_BASE);
        assertThat(c.contextTokens()).isEqualTo(128_000);
        assertThat(c.startLevel()).isEqualTo(1.0);
        assertThat(c.startFull()).isTrue();
    }

    @Test
    void shouldBuildTheProviderShape() {
        SimulatorConfig c = SimulatorConfig.builder().tokenizer("chars").contextTokens(8_192).burstSeconds(60)
                .startFull(false).build();
        assertThat(c.tokenizer()).isEqualTo(SimTokenizer.CHARS);
        assertThat(c.resolvedTokenizer()).isEqualTo(SimTokenizer.CHARS);
        assertThat(c.contextTokens()).isEqualTo(8_192);
        assertThat(c.burstSeconds()).isEqualTo(60.0);
        assertThat(c.tokenCapacity()).isEqualTo(200_000.0);
        assertThat(c.startLevel()).isZero();
        assertThat(c.startFull()).isFalse();
        assertThat(c.toBuilder().build()).isEqualTo(c);
        assertThat(c.toString()).contains("tokenizer=chars", "contextTokens=8192", "startLevel=0.0");
        assertThat(SimulatorConfig.builder().model("gpt-4").build().resolvedTokenizer()).isEqualTo(SimTokenizer.CL100K_BASE);
        assertThat(SimulatorConfig.builder().startLevel(0.25).build().startFull()).isFalse();
    }

    @Test
    void shouldRejectAnInvalidProviderShape() {
        assertThatThrownBy(() -> SimulatorConfig.builder().contextTokens(0).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("contextTokens");
        assertThatThrownBy(() -> SimulatorConfig.builder().startLevel(1.01).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("startLevel");
        assertThatThrownBy(() -> SimulatorConfig.builder().tokenizer((SimTokenizer) null).build())
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> SimulatorConfig.builder().tokenizer("gpt2"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("chars");
    }

    @Test
    void shouldRoundTripThroughTheBuilder() {
        SimulatorConfig c = SimulatorConfig.builder().port(0).rpm(60).tpm(1_000).burstSeconds(1)
                .apiKeys(Set.of("k")).model("m").noLatency().seed(1).tokenizer(SimTokenizer.CL100K_BASE)
                .contextTokens(4_096).startLevel(0.5).build();
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
        assertThatThrownBy(() -> new Faults(1.5, 0, 0, 0, 0, 0, 0, List.of(), false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Outage(Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldNotPrintApiKeys() {
        SimulatorConfig c = SimulatorConfig.builder().apiKeys(Set.of("sk-secret-1", "sk-secret-2")).build();
        assertThat(c.toString()).doesNotContain("sk-secret").contains("2 key(s)");
    }

    @Test
    void shouldBuildFaultsAndKeepThemThroughToBuilder() {
        Faults f = Faults.builder().p500(0.1).p503(0.2).p529(0.05).pMalformed(0.01)
                .pMissingItem(0.02).pHang(0.03).pStallBody(0.04).outageSeconds(30, 90).failAuth(true).build();
        assertThat(f).isEqualTo(new Faults(0.1, 0.2, 0.05, 0.01, 0.02, 0.03, 0.04,
                List.of(new Outage(Duration.ofSeconds(30), Duration.ofSeconds(90))), true));
        assertThat(f.toBuilder().build()).isEqualTo(f);
        assertThat(f.toBuilder().failAuth(false).build().failAuth()).isFalse();
        assertThat(f.any()).isTrue();
        assertThat(f.probabilitySum()).isCloseTo(0.45, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(f.describe()).isEqualTo("p500=0.1, p503=0.2, p529=0.05, p-malformed=0.01, p-missing-item=0.02, "
                + "p-hang=0.03, p-stall-body=0.04, outage=30:90, fail-auth");
        assertThat(Faults.builder().build()).isEqualTo(Faults.none());
        assertThat(Faults.none().describe()).isEqualTo("none");
        SimulatorConfig c = SimulatorConfig.builder().faults(f).build();
        assertThat(c.toBuilder().build()).isEqualTo(c);
    }

    @Test
    void shouldRejectProbabilitiesAddingUpToMoreThanOne() {
        assertThatThrownBy(() -> Faults.builder().p500(0.6).pHang(0.5).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 1");
        // decimal rounding is tolerated
        assertThat(Faults.builder().p500(0.1).p503(0.2).p529(0.7).build().probabilitySum())
                .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThatThrownBy(() -> Faults.builder().pMalformed(-0.1).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pMalformed");
    }

    @Test
    void shouldParseOutageWindowsAndTellWhetherAnInstantIsInOne() {
        Outage o = Outage.parse("30:90");
        assertThat(o).isEqualTo(new Outage(Duration.ofSeconds(30), Duration.ofSeconds(90)));
        assertThat(o.toString()).isEqualTo("30:90");
        assertThat(Outage.parse(" 0:2.5 ")).isEqualTo(
                new Outage(Duration.ZERO, Duration.ofMillis(2_500)));
        assertThat(Outage.parse("0:2.5").toString()).isEqualTo("0:2.5");
        for (String bad : List.of("30", "30:", ":90", "a:b", "90:30", "5:5", "-1:3", "1:2:3")) {
            assertThatThrownBy(() -> Outage.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(o.contains(Duration.ofSeconds(29))).isFalse();
        assertThat(o.contains(Duration.ofSeconds(30))).isTrue();
        assertThat(o.contains(Duration.ofMillis(89_999))).isTrue();
        assertThat(o.contains(Duration.ofSeconds(90))).isFalse();
        Faults f = Faults.builder().outageSeconds(0, 10).outageSeconds(30, 90).build();
        assertThat(f.inOutage(Duration.ofSeconds(5))).isTrue();
        assertThat(f.inOutage(Duration.ofSeconds(20))).isFalse();
        assertThat(f.inOutage(Duration.ofSeconds(60))).isTrue();
    }
}

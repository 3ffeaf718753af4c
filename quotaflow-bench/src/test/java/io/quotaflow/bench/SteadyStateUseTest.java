package io.quotaflow.bench;

import io.quotaflow.simulator.SimulatorStats.Second;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SteadyStateUseTest {

    private static final long T0 = 1_700_000_000L;

    /** {@code seconds} samples from T0, each admitting {@code requests} requests and {@code tokens} tokens. */
    private static List<Second> flat(int seconds, long requests, long tokens) {
        List<Second> out = new ArrayList<>();
        for (int i = 0; i < seconds; i++) {
            out.add(new Second(T0 + i, requests, tokens, tokens, 0));
        }
        return out;
    }

    @Test
    void shouldMeasureFromFirstArrivalPlus60ToLastAnswerMinus10() {
        // 200 s at exactly 200 000 TPM (3 333 tokens a second, rounded) plus one second of catch-up
        List<Second> samples = flat(200, 2, 3_333);
        long lastAnswerMs = (T0 + 200) * 1000 + 400;
        SteadyStateUse use = SteadyStateUse.compute(samples, Binding.TPM, 200_000, lastAnswerMs);

        assertThat(use.shortRun()).isFalse();
        assertThat(use.fromEpochSecond()).isEqualTo(T0 + 60);
        assertThat(use.toEpochSecond()).isEqualTo(T0 + 190);
        assertThat(use.windowSeconds()).isEqualTo(130);
        assertThat(use.admitted()).isEqualTo(130 * 3_333L);
        assertThat(use.use()).isCloseTo(3_333 / (200_000 / 60.0), within(1e-9));
        assertThat(use.measured()).isTrue();
        assertThat(use.describeWindow()).contains("+ 60 s").contains("130 s").doesNotContain("short");
    }

    @Test
    void shouldLeaveTheWarmUpBurstAndTheTailOutOfTheWindow() {
        List<Second> samples = new ArrayList<>(flat(150, 1, 1_000));
        // a huge first-second burst and a huge last second: neither is steady state
        samples.set(0, new Second(T0, 50, 1_000_000, 1_000_000, 0));
        samples.set(149, new Second(T0 + 149, 50, 1_000_000, 1_000_000, 0));
        SteadyStateUse use = SteadyStateUse.compute(samples, Binding.TPM, 60_000, (T0 + 150) * 1000);
        // 60 000 TPM = 1 000 a second: exactly the limit in between
        assertThat(use.use()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void shouldCountRequestsForAnRpmBinding() {
        List<Second> samples = flat(120, 1, 99_999);
        SteadyStateUse use = SteadyStateUse.compute(samples, Binding.RPM, 60, (T0 + 120) * 1000);
        assertThat(use.binding()).isEqualTo(Binding.RPM);
        assertThat(use.windowSeconds()).isEqualTo(50);
        assertThat(use.admitted()).isEqualTo(50);
        assertThat(use.use()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void shouldCountSecondsWithoutAdmissionsAsIdle() {
        // admissions only every other second (the series omits idle seconds): half the limit
        List<Second> samples = new ArrayList<>();
        for (int i = 0; i < 200; i += 2) {
            samples.add(new Second(T0 + i, 1, 2_000, 2_000, 0));
        }
        SteadyStateUse use = SteadyStateUse.compute(samples, Binding.TPM, 120_000, (T0 + 200) * 1000);
        assertThat(use.use()).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void shouldStartAtFirstArrivalPlus10ForARunShorterThan80Seconds() {
        List<Second> samples = flat(40, 1, 500);
        SteadyStateUse use = SteadyStateUse.compute(samples, Binding.TPM, 30_000, (T0 + 40) * 1000 + 999);
        assertThat(use.shortRun()).isTrue();
        assertThat(use.fromEpochSecond()).isEqualTo(T0 + 10);
        assertThat(use.toEpochSecond()).isEqualTo(T0 + 30);
        assertThat(use.use()).isCloseTo(1.0, within(1e-9));
        assertThat(use.describeWindow()).contains("+ 10 s").contains("short run");
    }

    @Test
    void shouldUseTheLongRuleFromEightySecondsOn() {
        assertThat(SteadyStateUse.compute(flat(80, 1, 1), Binding.RPM, 60, (T0 + 79) * 1000 + 999).shortRun()).isTrue();
        assertThat(SteadyStateUse.compute(flat(80, 1, 1), Binding.RPM, 60, (T0 + 80) * 1000).shortRun()).isFalse();
    }

    @Test
    void shouldTakeTheFirstArrivalFromTheEarliestSampleWhateverTheOrder() {
        List<Second> samples = new ArrayList<>(flat(100, 1, 1));
        java.util.Collections.reverse(samples);
        SteadyStateUse use = SteadyStateUse.compute(samples, Binding.RPM, 60, (T0 + 100) * 1000);
        assertThat(use.fromEpochSecond()).isEqualTo(T0 + 60);
    }

    @Test
    void shouldReportNothingMeasurableForATinyOrEmptyRun() {
        SteadyStateUse tiny = SteadyStateUse.compute(flat(5, 1, 1), Binding.TPM, 1_000, (T0 + 5) * 1000);
        assertThat(tiny.measured()).isFalse();
        assertThat(tiny.windowSeconds()).isZero();
        assertThat(tiny.use()).isNaN();

        SteadyStateUse empty = SteadyStateUse.compute(List.of(), Binding.TPM, 1_000, T0 * 1000);
        assertThat(empty.measured()).isFalse();
    }

    @Test
    void shouldRejectANonPositiveLimit() {
        assertThatThrownBy(() -> SteadyStateUse.compute(List.of(), Binding.TPM, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

package io.quotaflow.bench;

import io.quotaflow.simulator.SimulatorStats;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class WholeRunUseTest {

    /** Statistics of a simulator with these limits, burst and start level that admitted {@code tokens} in {@code requests}. */
    static SimulatorStats stats(long rpm, long tpm, double burst, double startLevel, long requests, long tokens) {
        return new SimulatorStats("gpt-4o-mini", rpm, tpm, burst, 0, 0, requests, 0, Map.of("200", requests), 0, requests, tokens / 2,
                tokens / 4, tokens, Map.of(), List.of(), "o200k_base", 128_000, startLevel, 0, 0, 0, Map.of());
    }

    @Test
    void shouldCountAFullStartingBucketOnceAndTheRefillOverTheBusySpan() {
        // 30 000 TPM, a 60 s bucket starting full: over 120 s at most 30 000 + 60 000 tokens
        SimulatorStats s = stats(500, 30_000, 60, 1.0, 40, 81_000);
        WholeRunUse use = WholeRunUse.compute(s, Binding.TPM, 1_000_000, 1_120_000, 1_120_000);
        assertThat(use.seconds()).isEqualTo(120.0);
        assertThat(use.admissible()).isEqualTo(90_000.0);
        assertThat(use.admitted()).isEqualTo(81_000.0);
        assertThat(use.use()).isCloseTo(0.9, within(1e-9));
        assertThat(use.measured()).isTrue();
    }

    @Test
    void shouldCountAnEmptyStartAndRequestsWhenTheyBind() {
        SimulatorStats empty = stats(60, 2_000_000, 5, 0.0, 30, 10);
        WholeRunUse tokens = WholeRunUse.compute(empty, Binding.TPM, 0, 30_000, 30_000);
        assertThat(tokens.admissible()).isEqualTo(1_000_000.0);
        WholeRunUse requests = WholeRunUse.compute(empty, Binding.RPM, 0, 30_000, 30_000);
        assertThat(requests.admissible()).isEqualTo(30.0);
        assertThat(requests.use()).isEqualTo(1.0);
        // a 5 s bucket starting full holds 5 requests of 60 RPM
        WholeRunUse full = WholeRunUse.compute(stats(60, 2_000_000, 5, 1.0, 35, 10), Binding.RPM, 0, 30_000, 30_000);
        assertThat(full.admissible()).isEqualTo(35.0);
    }

    @Test
    void shouldGivePerMinuteAndRatiosOnlyWhenDefined() {
        assertThat(WholeRunUse.perMinute(500, 120_000)).isEqualTo(250.0);
        assertThat(WholeRunUse.perMinute(500, 0)).isNull();
        assertThat(WholeRunUse.ratio(300.0, 200.0)).isEqualTo(1.5);
        assertThat(WholeRunUse.ratio(300.0, 0.0)).isNull();
        assertThat(WholeRunUse.ratio(null, 2.0)).isNull();
        assertThat(WholeRunUse.ratio(1.0, Double.NaN)).isNull();
        // a run without time has nothing admissible beyond the start level; an empty start, nothing at all
        assertThat(WholeRunUse.compute(stats(60, 1_000, 5, 0.0, 0, 0), Binding.TPM, 5, 5, 5).measured()).isFalse();
    }

    @Test
    void shouldEndTheSpanAtTheLastCallSentAndKeepTheFigureToTheLastAnswer() {
        // 2 M TPM, a 5 s bucket starting full (166 667 tokens); last call out at 150 s, its answer 2.5 s later
        SimulatorStats s = stats(10_000, 2_000_000, 5, 1.0, 2_000, 5_000_000);
        WholeRunUse use = WholeRunUse.compute(s, Binding.TPM, 0, 150_000, 152_500);
        assertThat(use.seconds()).isEqualTo(150.0);
        assertThat(use.admissible()).isCloseTo(2_000_000 / 12.0 + 5_000_000, within(1e-6));
        assertThat(use.use()).isCloseTo(5_000_000 / (2_000_000 / 12.0 + 5_000_000), within(1e-9));
        // the refill while the last call was in the air: 2.5 s of 2 M TPM more in the denominator
        assertThat(use.useToLastAnswer()).isCloseTo(5_000_000 / (2_000_000 / 12.0 + 5_083_333.333), within(1e-6));
        assertThat(use.useToLastAnswer()).isLessThan(use.use());
        // a last call reported after the last answer ends at the answer
        assertThat(WholeRunUse.compute(s, Binding.TPM, 0, 160_000, 152_500).lastCallEpochMs()).isEqualTo(152_500);
        // a client that spent the starting level and every refill to its last call reads 1.0
        SimulatorStats ideal = stats(10_000, 2_000_000, 5, 1.0, 2_000, 2_000_000 / 12 + 5_000_000);
        assertThat(WholeRunUse.compute(ideal, Binding.TPM, 0, 150_000, 152_500).use()).isCloseTo(1.0, within(1e-6));
    }
}

package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Bench (m)'s scoring: each estimate's error over the time left when asked, and the median against the target. */
class EtaAccuracyBenchmarkTest {

    private static final long T = 1_700_000_000_000L;
    private static final EtaAccuracyBenchmark.Options OPTIONS = EtaAccuracyBenchmark.Options.defaults(42);
    private static final EtaAccuracyBenchmark.Options SLOW = OPTIONS.withProvider(EtaAccuracyBenchmark.Provider.slow());

    private static EtaAccuracyBenchmark.Probe probe(long leftMs, long offByMs) {
        return new EtaAccuracyBenchmark.Probe("BT-" + leftMs, 10, T, T + leftMs + offByMs, T + leftMs);
    }

    @Test
    void shouldScoreAnEstimateOverTheTimeItHadLeft() {
        assertThat(probe(100_000, -10_000).error()).isEqualTo(0.10);
        assertThat(probe(20_000, 5_000).error()).isEqualTo(0.25);
    }

    @Test
    void shouldMeetTheTargetOnTheMedianNotTheWorst() {
        var result = new EtaAccuracyBenchmark.Result(OPTIONS, List.of(probe(10_000, 9_000), probe(100_000, 5_000),
                probe(100_000, -12_000), probe(50_000, 1_000), probe(10_000, -8_000)), 3_000);

        assertThat(result.medianError()).isEqualTo(0.12);
        assertThat(result.metTarget()).isTrue();
        assertThat(result.report()).contains("median error 12.0 %", "met", "3000 waiting");
    }

    @Test
    void shouldMissTheTargetAboveFifteenPercentOrWithNothingMeasured() {
        var missed = new EtaAccuracyBenchmark.Result(OPTIONS, List.of(probe(10_000, 2_000), probe(10_000, -1_600)), 10);
        assertThat(missed.medianError()).isEqualTo(0.18);
        assertThat(missed.metTarget()).isFalse();
        assertThat(missed.report()).contains("NOT met");
        assertThat(new EtaAccuracyBenchmark.Result(OPTIONS, List.of(), 0).metTarget()).isFalse();
    }

    @Test
    void shouldBeNamedByItsKeyOrName() {
        assertThat(EtaAccuracyBenchmark.named("m")).isTrue();
        assertThat(EtaAccuracyBenchmark.named("eta-accuracy")).isTrue();
        assertThat(EtaAccuracyBenchmark.named("all")).isFalse();
    }
}

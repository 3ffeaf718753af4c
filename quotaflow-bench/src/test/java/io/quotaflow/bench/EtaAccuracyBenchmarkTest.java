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

    @Test
    void shouldHoldTheSlowProviderToTwentyFivePercentAndPrintPredictedAndActual() {
        var slow = new EtaAccuracyBenchmark.Result(SLOW, List.of(probe(10_000, 2_000), probe(10_000, -2_400)), 10, 75_000);

        assertThat(slow.medianError()).isEqualTo(0.22);
        assertThat(slow.metTarget()).as("the other shape's target is 25 %").isTrue();
        assertThat(slow.report()).contains("provider 'slow'", "cl100k_base", "headers at admission", "200000 TPM", "asked 75 s in",
                "predicted", "actual", "12.0 s", "10.0 s", "target <= 25 %");
        assertThat(new EtaAccuracyBenchmark.Result(OPTIONS, slow.probes(), 10).metTarget()).as("ours stays at 15 %").isFalse();
    }

    @Test
    void shouldSpreadTheProbesOverTheListedTicketsAndBeyondThem() {
        // 4 listed of 10 waiting; 20 published, of which the last 6 unlisted ones wait beyond the list
        List<io.quotaflow.status.QueueView.Waiting> listed = List.of("p4", "p5", "p6", "p7").stream()
                .map(id -> new io.quotaflow.status.QueueView.Waiting(id, io.quotaflow.records.Priority.BULK, 10)).toList();
        var view = new io.quotaflow.status.QueueView("s", List.of("default"), T, new io.quotaflow.status.Eta.Rates(1, 1, 0, true), listed,
                java.util.Map.of(io.quotaflow.records.Priority.BULK, new io.quotaflow.status.QueueView.Count(10, 100)));
        List<String> published = java.util.stream.IntStream.range(0, 20).mapToObj(i -> "p" + i).toList();

        List<String> ids = EtaAccuracyBenchmark.spread(view, published, 5);

        // positions 1 and 3 are listed (p5, p7); 5, 7 and 9 are among the last six unlisted (p14..p19), evenly
        assertThat(ids).containsExactly("p5", "p7", "p15", "p17", "p19");
    }

    @Test
    void shouldCountResultsPerStep() {
        assertThat(EtaAccuracyBenchmark.timeline(List.of(T + 1_000, T + 16_000, T + 17_000, T + 46_000), T, 15_000)).isEqualTo("1 2 0 1");
        assertThat(EtaAccuracyBenchmark.timeline(List.of(), T, 15_000)).isEmpty();
    }

    @Test
    void shouldServeTheInputProviderFromASimulatorWhoseTpmCountsThePromptOnly() {
        EtaAccuracyBenchmark.Provider input = EtaAccuracyBenchmark.Provider.input();

        assertThat(input.chargesMaxTokens()).isFalse();
        assertThat(EtaAccuracyBenchmark.Provider.slow().chargesMaxTokens()).isTrue();
        assertThat(input.target()).isEqualTo(0.25);
        assertThat(input.describe()).contains("200000 TPM", "burst 5 s", "headers at admission", "cl100k_base", "TPM counts the prompt only");
        assertThat(EtaAccuracyBenchmark.Provider.all()).extracting(EtaAccuracyBenchmark.Provider::name).containsExactly("ours", "slow", "input");
    }
}

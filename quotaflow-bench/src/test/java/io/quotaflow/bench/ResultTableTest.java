package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ResultTableTest {

    private static ScenarioResult measured() {
        SteadyStateUse use = new SteadyStateUse(Binding.TPM, 200_000, 100, 300, 640_000, 0.96, false);
        return new ScenarioResult("a", "tpm-binds", "500 RPM, 200k TPM", false, 1, 500, 200_000, 5, Binding.TPM, 1_500,
                1_499L, 1L, Map.of("too-large", 1L), 0L, 170L, 0L, 170, 400_000, 25_000, 432_000, 245_500L, use, 0.2,
                0.969, 0.92, 288.0, 283.3, 8.8, List.of());
    }

    /** (g) with its figures and a baseline. */
    private static ScenarioResult withBaseline() {
        SteadyStateUse use = new SteadyStateUse(Binding.TPM, 30_000, 100, 230, 63_000, 0.97, false);
        WholeRunUse whole = new WholeRunUse(Binding.TPM, 0, 200_000, 120_000, 130_000, 120_000 / 130_000.0);
        SteadyStateUse baseUse = new SteadyStateUse(Binding.TPM, 30_000, 100, 300, 50_000, 0.5, false);
        WholeRunUse baseWhole = new WholeRunUse(Binding.TPM, 0, 400_000, 100_000, 230_000, 100_000 / 230_000.0);
        BaselineResult b = new BaselineResult(500, 470, 30, 3, 80, 31, Map.of(), 0, 400_000, 70.5, 100_000, 60_000, 8_000, 90_000,
                66_000, 12, baseUse, baseWhole, 0.97, 0.92);
        ScenarioFigures f = new ScenarioFigures("PIPELINE", null, 0L, 200_000L, 150.0, whole, 0L, null, null, null, null, null, null,
                null, null).withBaseline(b);
        return new ScenarioResult("g", "nightly-job", "500 RPM, 30k TPM", false, 1, 500, 30_000, 60, Binding.TPM, 500, 500L, 0L,
                Map.of(), 0L, 52L, 0L, 52, 60_000, 8_000, 120_000, 210_000L, use, 0.1, 0.97, 0.92, 240.0, 136.0, 9.6, List.of(), f);
    }

    @Test
    void shouldRenderTwoAlignedTablesWithinAHundredColumns() {
        String text = ResultTable.text(List.of(measured(), withBaseline()));
        String[] lines = text.split("\\R");
        assertThat(lines[0]).isEqualTo(ResultTable.QUOTA_TITLE);
        assertThat(lines[1]).startsWith("scenario").contains("429s").contains("lost").contains("dup").contains("steady state")
                .contains("whole run").contains("tickets/min").contains("× base").contains("wall time");
        assertThat(lines[3]).startsWith("(a) tpm-binds").contains("96.0 % TPM").contains("4 m 06 s");
        assertThat(lines[4]).startsWith("(g) nightly-job").contains("97.0 % TPM").contains("92.3 %").contains("150")
                .contains("2.13×");
        assertThat(lines[5]).startsWith("(g) baseline").contains("31").contains("30").contains("50.0 % TPM").contains("43.5 %")
                .contains("71").contains("6 m 40 s");
        assertThat(lines[6]).isEmpty();
        assertThat(lines[7]).isEqualTo(ResultTable.DETAIL_TITLE);
        assertThat(lines[8]).startsWith("scenario").contains("adm/ticket").contains("used/ticket").contains("category")
                .contains("urgency").contains("speed").contains("window");
        assertThat(lines[10]).startsWith("(a) tpm-binds").contains("288.0").contains("283.3").contains("96.9 %")
                .contains("92.0 %").endsWith("+60 s, 200 s");
        assertThat(lines[12]).startsWith("(g) baseline").contains("200.0").contains("136.0").endsWith("+60 s, 200 s");
        for (String line : lines) {
            assertThat(line.length()).as(line).isLessThanOrEqualTo(100);
        }
        // the quota table's rows line up
        assertThat(lines[3].indexOf("4 m 06 s")).isEqualTo(lines[4].indexOf("3 m 30 s"));
    }

    @Test
    void shouldRenderMarkdownWithFootnotesAndDashesForAComputedRow() {
        ScenarioResult computed = new ScenarioResult("e", "fixed-batches-10", "computed", true, 0, 500, 200_000, 5, Binding.TPM,
                1_500, null, null, null, null, 160L, null, 160, 400_000, 24_000, 447_000, null, null, null, null, null,
                298.0, 282.7, 9.4, List.of("computed, not run"));
        String md = ResultTable.markdown(List.of(measured(), computed, withBaseline()), 42, "quotaflow bench --scenario a,e,g");
        assertThat(md).startsWith("| scenario | 429s | lost | dup |");
        assertThat(md).contains("| (a) tpm-binds | 0 | 0 | 0 | 96.0 % TPM | – | – | – | 4 m 06 s |");
        assertThat(md).contains("| (e) fixed-batches-10 | – | – | – | – | – | – | – | – |");
        assertThat(md).contains("| (a) tpm-binds | 288.0 | 283.3 | 96.9 % | 92.0 % | – | $0.0500 | +60 s, 200 s |");
        assertThat(md).contains("| (e) fixed-batches-10 | 298.0 | 282.7 | – | – | – | – | computed |");
        assertThat(md).contains("| (g) nightly-job | 0 | 0 | 0 | 97.0 % TPM | 92.3 % | 150 | 2.13× | 3 m 30 s |");
        assertThat(md).contains("| (g) baseline | 31 | 30 | – | 50.0 % TPM | 43.5 % | 71 | – | 6 m 40 s |");
        assertThat(md).contains("`quotaflow bench --scenario a,e,g`").contains("seed 42").contains("(e) computed, not run");
        assertThat(md).contains("(g) baseline: 500 tickets, 470 classified, 30 lost (3 groups), 80 calls, 31 × 429")
                .contains("2.13× tickets per busy minute").contains("2.12× whole-run share of feasible");
        assertThat(md).contains("**Whole run**").contains("**× base**").contains("**Speed**");
    }

    @Test
    void shouldShowTheOverheadInteractiveAndReplayFigures() {
        ScenarioFigures overhead = new ScenarioFigures("OVERHEAD", null, 0L, 9_000L, 333_333.0, null, 0L, null, null, null, 5_432.1,
                6_001.0, 3_000L, null, null);
        ScenarioResult i = measured().withFigures(overhead);
        assertThat(ResultTable.detailCells(i).get(5)).isEqualTo("5,432 tickets/s");

        ScenarioFigures interactive = new ScenarioFigures("INTERACTIVE", null, 0L, 1L, 1.0, null, 0L, null, null, null, null, null,
                null, ScenarioFigures.Latency.of(List.of(400L, 1_234L, 900L), 0), null);
        assertThat(ResultTable.detailCells(measured().withFigures(interactive)).get(5)).isEqualTo("p99 1.23 s");

        ScenarioFigures.Replay replay = new ScenarioFigures.Replay(40_000, 40_000, 1_600, 25_000, 40_000, 0, "completed", 50, 500,
                10_100, 49.5);
        ScenarioResult k = new ScenarioResult("k", "dlq-replay", "replay", false, 0, 0, 0, 5, Binding.TPM, 40_000, null, null, null,
                0L, null, null, 0, 0, 0, 0, 1_600L, null, null, null, null, 0, 0, 0, List.of(),
                new ScenarioFigures("DLQ_REPLAY", null, 0L, null, null, null, null, null, null, null, null, null, null, null, replay));
        assertThat(ResultTable.detailCells(k)).containsExactly("(k) dlq-replay", "–", "–", "–", "–", "25,000 records/s", "–", "–");
        assertThat(ResultTable.quotaCells(k)).containsExactly("(k) dlq-replay", "–", "0", "0", "–", "–", "–", "–", "1.6 s");
        assertThat(k.clean()).isTrue();
        ScenarioFigures.Replay short1 = new ScenarioFigures.Replay(40_000, 39_999, 1_600, 25_000, 39_999, 0, "stopped", 50, 500,
                10_100, 49.5);
        assertThat(k.withFigures(new ScenarioFigures("DLQ_REPLAY", null, 1L, null, null, null, null, null, null, null, null, null,
                null, null, short1)).clean()).isFalse();
    }

    @Test
    void shouldShowTheRowsOwnPipelineCpuBesideItsRate() {
        List<ScenarioFigures.PipelineCpu> runs = List.of(new ScenarioFigures.PipelineCpu("cold", 1_020.4, 900.0, "threads"),
                new ScenarioFigures.PipelineCpu("warm", 380.2, 2_600.0, "threads"),
                new ScenarioFigures.PipelineCpu("fresh JVM", 1_418.0, 1_148.0, "process"));
        ScenarioFigures warm = new ScenarioFigures("OVERHEAD", null, 0L, 9_000L, 333_333.0, null, 0L, null, null, null, 2_600.0,
                3_000.0, 3_000L, null, null).withPipelineCpu(runs);
        assertThat(ResultTable.detailCells(measured().withFigures(warm)).get(5)).isEqualTo("2,600 tickets/s, 380 µs");
        assertThat(ResultTable.pipelineCpu(runs)).contains("cold 1,020 µs at 900 tickets/s (its threads in the bench JVM)")
                .contains("warm 380 µs at 2,600 tickets/s").contains("fresh JVM 1,418 µs at 1,148 tickets/s (its JVM's process CPU")
                .endsWith("target: at most 500 µs a ticket in a fresh JVM (or 5,000 tickets/s): not met");
        assertThat(ResultTable.pipelineCpu(List.of(new ScenarioFigures.PipelineCpu("fresh JVM", 480, 2_000.0, "process"))))
                .endsWith(": met");
        assertThat(ResultTable.pipelineCpu(List.of(new ScenarioFigures.PipelineCpu("fresh JVM", 900, 5_100.0, "process"))))
                .endsWith(": met");
    }

    @Test
    void shouldPriceTheUsagePerThousandClassifiedTicketsAtTheAssumedPrices() {
        // 400 000 prompt × $0.15 / M + 25 000 completion × $0.60 / M = $0.075 for 1 499 tickets
        assertThat(ResultTable.detailCells(measured()).get(6)).isEqualTo("$0.0500");
        // the baseline: 60 000 × 0.15 / M + 8 000 × 0.60 / M = $0.0138 for 470 tickets
        assertThat(ResultTable.detailCells(withBaseline(), withBaseline().figures().baseline()).get(6)).isEqualTo("$0.0294");
        assertThat(ResultTable.costPerThousand(1_000, 1_000, 0L)).isEqualTo("–");
        assertThat(ResultTable.costPerThousand(1_000, 1_000, null)).isEqualTo("–");
        assertThat(ResultTable.markdown(List.of(measured()), 42, null)).contains("| $/1k tickets |", "*assumed* prices",
                "$0.15 / $0.60 per Mtok (input / output)");
    }

    @Test
    void shouldMarkAShortRunWindow() {
        SteadyStateUse shortUse = new SteadyStateUse(Binding.RPM, 60, 10, 30, 20, 1.0, true);
        ScenarioResult r = new ScenarioResult("x", "smoke", "tiny", false, 1, 60, 1_000, 5, Binding.RPM, 10, 10L, 0L, Map.of(), 0L,
                2L, 0L, 2, 100, 10, 200, 12_300L, shortUse, null, 1.0, 1.0, 20, 11, 5, List.of());
        assertThat(ResultTable.detailCells(r)).last().isEqualTo("+10 s †, 20 s");
        assertThat(ResultTable.quotaCells(r).get(8)).isEqualTo("12.3 s");
        assertThat(r.clean()).isTrue();
    }
}

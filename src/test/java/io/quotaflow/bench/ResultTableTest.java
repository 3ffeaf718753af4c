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

    @Test
    void shouldRenderOneAlignedRowPerResult() {
        String text = ResultTable.text(List.of(measured()));
        String[] lines = text.split("\\R");
        assertThat(lines).hasSize(3);
        assertThat(lines[0]).startsWith("scenario").contains("429s").contains("steady-state use of binding limit")
                .contains("tokens/ticket (admitted)").contains("tokens/ticket (used)").contains("wall time")
                .contains("category accuracy").contains("urgency accuracy").contains("duplicates");
        assertThat(lines[2]).startsWith("(a) tpm-binds").contains("96.0 % of TPM").contains("288.0").contains("283.3")
                .contains("4 m 06 s").contains("96.9 %").contains("92.0 %").contains("+60 s, 200 s");
        assertThat(lines[0].length()).isEqualTo(lines[2].length());
    }

    @Test
    void shouldRenderMarkdownWithFootnotesAndDashesForAComputedRow() {
        ScenarioResult computed = new ScenarioResult("e", "fixed-batches-10", "computed", true, 0, 500, 200_000, 5, Binding.TPM,
                1_500, null, null, null, null, 160L, null, 160, 400_000, 24_000, 447_000, null, null, null, null, null,
                298.0, 282.7, 9.4, List.of("computed, not run"));
        String md = ResultTable.markdown(List.of(measured(), computed), 42, "quotaflow bench --scenario a,e");
        assertThat(md).startsWith("| scenario | 429s |");
        assertThat(md).contains("| (a) tpm-binds | 0 | 96.0 % of TPM | 288.0 | 283.3 | 4 m 06 s | 96.9 % | 92.0 % | 0 | +60 s, 200 s |");
        assertThat(md).contains("| (e) fixed-batches-10 | – | – | 298.0 | 282.7 | – | – | – | – | computed |");
        assertThat(md).contains("`quotaflow bench --scenario a,e`").contains("seed 42").contains("(e) computed, not run");
    }

    @Test
    void shouldMarkAShortRunWindow() {
        SteadyStateUse shortUse = new SteadyStateUse(Binding.RPM, 60, 10, 30, 20, 1.0, true);
        ScenarioResult r = new ScenarioResult("x", "smoke", "tiny", false, 1, 60, 1_000, 5, Binding.RPM, 10, 10L, 0L, Map.of(), 0L,
                2L, 0L, 2, 100, 10, 200, 12_300L, shortUse, null, 1.0, 1.0, 20, 11, 5, List.of());
        assertThat(ResultTable.cells(r)).last().isEqualTo("+10 s †, 20 s");
        assertThat(ResultTable.cells(r).get(5)).isEqualTo("12.3 s");
        assertThat(r.clean()).isTrue();
    }
}

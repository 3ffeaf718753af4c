package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class FailoverResultTest {

    private static FailoverResult result(String variant, double useRun, Map<Integer, Double> seconds, Double restart) {
        FailoverFigures f = new FailoverFigures(1_000, 21_000, 101_000, List.copyOf(seconds.keySet()), seconds,
                Map.of(1, "fo-2", 4, "fo-3"), useRun, 0.9, 0.5, 0.4, 0.6, 4, 0);
        return new FailoverResult(variant, variant + " settings", "instance.id=auto", 2_400, "fo-1", List.of("s1", "s4"), f, restart, 0,
                900, 2_400, 0, 0, 0, 120_000, "/tmp/logs", List.of("1-min load average 9 at the start"),
                new FullRateFigures(Map.of(1, 2.5, 4, 20.0), Map.of(1, 0.95, 4, 0.7), List.of(0.9, 0.8), List.of(List.of(1L), List.of(2L)), 0.95, 0.93));
    }

    @Test
    void shouldPrintEachVariantsSecondsAndItsUseAsARatioToTheFirst() {
        String table = FailoverResult.table(List.of(result("before", 0.4, Map.of(1, 51.9, 4, 51.1), null),
                result("defaults", 0.6, Map.of(1, 13.5, 4, 12.8), null)));
        assertThat(table).contains("before", "51.1, 51.9 s", "1.00×", "12.8, 13.5 s", "1.50×", "40.0 %", "60.0 %", "fo-1 s1→fo-2 s4→fo-3");
        assertThat(table.lines().filter(l -> l.startsWith("defaults")).findFirst().orElseThrow()).contains(" no ");
    }

    @Test
    void shouldSayWhetherTheTargetWasMetAndNeverForAScopeThatDidNotComeBack() {
        java.util.Map<Integer, Double> never = new java.util.HashMap<>();
        never.put(1, 8.5);
        never.put(4, null);
        FailoverResult r = result("x", 0.5, never, null);
        assertThat(r.secondsText()).isEqualTo("8.5, never s");
        assertThat(r.figures().allWithin(FailoverResult.TARGET_SECONDS)).isFalse();
        assertThat(result("y", 0.5, Map.of(1, 8.5, 4, 9.9), null).figures().allWithin(FailoverResult.TARGET_SECONDS)).isTrue();
    }

    @Test
    void shouldDescribeARestartInTheMarkdownAndFlagOnlyLossesDuplicatesAnd429s() {
        FailoverResult r = result("defaults+restart", 0.5, Map.of(1, 18.1, 4, 18.6), 47.7);
        String md = FailoverResult.markdown(List.of(r), "quotaflow bench --scenario failover");
        assertThat(md).contains("| defaults+restart | 18.1, 18.6 s | no |", "4 (0/2 back)", "restarted at once: streams RUNNING 47.7 s",
                "`quotaflow bench --scenario failover`");
        assertThat(r.clean()).isTrue();
    }
}

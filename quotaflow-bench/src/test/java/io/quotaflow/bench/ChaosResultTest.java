package io.quotaflow.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.bench.ChaosPlan.Target;
import io.quotaflow.bench.ChaosResult.Disruption;
import io.quotaflow.records.Json;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ChaosResultTest {

    private static final ChaosAccounting CLEAN = new ChaosAccounting(2_000, 1_998, 2, 0, 0, 0, 0, 0, Map.of("too-large", 2L),
            List.of(), List.of());

    private static List<Disruption> kills(long p1, long p2, Long broker, long p3) {
        return List.of(
                new Disruption(1, Target.PIPELINE, 0.15, 21_000, 300, 1_000, 40, 4_100L, p1, 1),
                new Disruption(2, Target.PIPELINE, 0.40, 65_000, 800, 1_500, 35, 4_000L, p2, 1),
                new Disruption(3, Target.BROKER, 0.50, 80_000, 1_000, 1_500, 2_010, 4_900L, broker, 1),
                new Disruption(4, Target.PIPELINE, 0.65, 99_000, 1_300, 2_000, 38, 3_900L, p3, 1));
    }

    private static ChaosResult result(ChaosAccounting accounting, List<Disruption> disruptions, List<String> notPerformed) {
        return new ChaosResult("chaos", "chaos", "600 RPM, 300k TPM", 600, 300_000, 5,
                ChaosPlan.standard(2_000).describe(), accounting, 260, 0, 258, 500_000, 40_000, 560_000, 0.95, 0.9, 190_500, false,
                5_600L, disruptions, notPerformed, "/tmp/quotaflow-chaos-1/logs", List.of());
    }

    @Test
    void shouldPrintLostDuplicatedAndRecoveryPerKill() {
        String report = result(CLEAN, kills(5_200, 6_100, 8_700L, 4_900), List.of()).report();

        assertThat(report).startsWith("quotaflow chaos report");
        assertThat(report).containsPattern("lost +0\\R").containsPattern("duplicated +0\\R").containsPattern("HTTP 429 +0\\R")
                .containsPattern("tickets published +2,000").containsPattern("classified +1,998")
                .containsPattern("dead-lettered +2 \\{too-large=2}");
        assertThat(report).contains("#1 pipeline SIGKILL at 15 % (21.0 s in, 300 of 2,000 accounted for, 700 in flight): "
                + "restarted 0.0 s later; streams RUNNING 4.1 s after restart; first new result 5.2 s after restart");
        assertThat(report).contains("#3 broker SIGKILL at 50 % (1 m 20 s in, 1,000 of 2,000 accounted for, 500 in flight): "
                + "restarted 2.0 s later; broker ready 4.9 s after restart; first new result 8.7 s after restart");
        assertThat(report).contains("restart to first new result: max 8.7 s (pipeline 5.2, 6.1, 4.9 s; broker 8.7 s); "
                + "target <= 10 s: met");
        assertThat(report).contains("cold start").contains("5.6 s");
        assertThat(report).contains("/tmp/quotaflow-chaos-1/logs").containsPattern("result +PASS: 0 lost, 0 duplicated");
    }

    @Test
    void shouldMissTheRecoveryTargetWhenAnyKillTookLongerThanTenSecondsOrWasNotSeen() {
        ChaosResult slow = result(CLEAN, kills(48_800, 51_100, 17_000L, 49_800), List.of());
        assertThat(slow.recoveryTargetMet()).isFalse();
        assertThat(slow.maxRecoveryMs(null)).isEqualTo(51_100);
        assertThat(slow.maxRecoveryMs(Target.BROKER)).isEqualTo(17_000);
        assertThat(slow.recoverySummary()).endsWith("target <= 10 s: missed");
        assertThat(slow.passed()).isTrue();

        ChaosResult unseen = result(CLEAN, kills(5_000, 5_000, null, 5_000), List.of());
        assertThat(unseen.recoveryTargetMet()).isFalse();
        assertThat(unseen.report()).contains("first new result not seen").contains("broker not seen");

        ChaosResult skipped = result(CLEAN, kills(5_000, 5_000, 5_000L, 5_000).subList(0, 3),
                List.of("#4 pipeline SIGKILL at 65 % (every ticket was accounted for first)"));
        assertThat(skipped.recoveryTargetMet()).isFalse();
        assertThat(skipped.report()).contains("not performed: #4 pipeline SIGKILL at 65 %");

        assertThat(result(CLEAN, kills(10_000, 9_000, 9_999L, 1_000), List.of()).recoveryTargetMet()).isTrue();
    }

    @Test
    void shouldFailWhenATicketIsLostOrDuplicated() {
        ChaosAccounting lost = new ChaosAccounting(2_000, 1_997, 2, 1, 0, 0, 0, 0, Map.of(), List.of("BT-000042"), List.of());
        ChaosAccounting dup = new ChaosAccounting(2_000, 2_000, 0, 0, 3, 4, 0, 0, Map.of(), List.of(), List.of("BT-1", "BT-2", "BT-3"));

        ChaosResult a = result(lost, kills(5_000, 5_000, 5_000L, 5_000), List.of());
        ChaosResult b = result(dup, kills(5_000, 5_000, 5_000L, 5_000), List.of());

        assertThat(a.passed()).isFalse();
        assertThat(a.report()).containsPattern("lost +1 e\\.g\\. \\[BT-000042]").containsPattern("result +FAIL: 1 lost, 0 duplicated");
        assertThat(b.passed()).isFalse();
        assertThat(b.report()).containsPattern("duplicated +3 ids, 4 extra records, e\\.g\\. \\[BT-1, BT-2, BT-3]");
    }

    @Test
    void shouldBecomeARowOfTheBenchmarkTable() {
        ScenarioResult row = result(CLEAN, kills(5_200, 6_100, 8_700L, 4_900), List.of()).toScenarioResult();

        List<String> cells = ResultTable.quotaCells(row);
        assertThat(cells.get(0)).isEqualTo("(chaos) chaos");
        assertThat(cells.get(1)).isEqualTo("0");
        assertThat(cells.get(2)).isEqualTo("0");
        assertThat(cells.get(3)).isEqualTo("0");
        assertThat(cells.get(4)).isEqualTo("–");
        assertThat(cells.get(8)).isEqualTo("3 m 11 s");
        assertThat(ResultTable.detailCells(row)).last().isEqualTo("none (kills)");
        assertThat(row.tickets()).isEqualTo(2_000);
        assertThat(row.classified() + row.deadLettered()).isEqualTo(2_000);
        assertThat(row.notes()).singleElement().asString().startsWith("chaos: 4 kills").contains("0 lost, 0 duplicated");
    }

    @Test
    void shouldRenderAMarkdownSection() {
        String md = result(CLEAN, kills(5_200, 6_100, 8_700L, 4_900), List.of()).markdown();

        assertThat(md).startsWith("### (chaos) chaos\n");
        assertThat(md).contains("| lost | duplicated | classified | dead-lettered | 429s | wall time | max recovery |")
                .contains("| 0 | 0 | 1998 | 2 | 0 | 3 m 11 s | 8.7 s |")
                .contains("- #2 pipeline SIGKILL at 40 %");
    }

    @Test
    void shouldSerialiseTheFiguresAsJson() {
        JsonNode json = Json.MAPPER.valueToTree(result(CLEAN, kills(5_200, 6_100, 8_700L, 4_900), List.of()));

        assertThat(json.path("lost").asLong(-1)).isZero();
        assertThat(json.path("duplicated").asLong(-1)).isZero();
        assertThat(json.path("passed").asBoolean()).isTrue();
        assertThat(json.path("recoveryTargetMet").asBoolean()).isTrue();
        assertThat(json.path("accounting").path("classified").asLong()).isEqualTo(1_998);
        assertThat(json.path("disruptions")).hasSize(4);
        JsonNode first = json.path("disruptions").get(0);
        assertThat(first.path("target").asText()).isEqualTo("PIPELINE");
        assertThat(first.path("firstResultMs").asLong()).isEqualTo(5_200);
        assertThat(first.path("inFlightAtKill").asLong()).isEqualTo(700);
        assertThat(first.has("recoveryMs")).isFalse();
    }
}

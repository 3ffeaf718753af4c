package io.quotaflow.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quotaflow.settings.Prices;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class DemoReportTest {

    private static DemoReport report() {
        return new DemoReport(1_000, 998, 2, 0, 120, 0, 300_000, 40_000, 800_000, 65_000, 0.95, "TPM",
                Map.of("bad-input", 2L), 500, 200_000);
    }

    @Test
    void shouldPrintTheCostPerClassifiedTicketAtTheAssumedPrices() {
        // 300 000 prompt × $0.15 / M + 40 000 completion × $0.60 / M = $0.069
        DemoReport priced = report().withCost(Prices.ASSUMED_GPT_4O_MINI.cost(300_000, 40_000), Prices.ASSUMED_GPT_4O_MINI);

        assertThat(priced.costUsd()).isCloseTo(0.069, within(1e-12));
        assertThat(priced.costPerClassifiedUsd()).isCloseTo(0.069 / 998, within(1e-12));
        assertThat(priced.render()).contains("  cost                $0.0690, $0.0000691 per classified ticket "
                + "(assumed prices: $0.15 / $0.60 per Mtok (input / output))");
        assertThat(priced.withOutage(3, 2, 10).costUsd()).as("kept by the outage variant").isEqualTo(priced.costUsd());
    }

    @Test
    void shouldPrintNoCostWithoutPricesAndWriteItToTheJsonReport() throws Exception {
        assertThat(report().render()).doesNotContain("cost");
        assertThat(report().costPerClassifiedUsd()).isZero();

        JsonNode json = new ObjectMapper().valueToTree(report().withCost(0.5, Prices.ASSUMED_GPT_4O_MINI));

        assertThat(json.path("costUsd").asDouble()).isEqualTo(0.5);
        assertThat(json.path("prices").path("inputPerMtok").asDouble()).isEqualTo(0.15);
        assertThat(json.path("classified").asLong()).isEqualTo(998);
    }

    @Test
    void shouldReportHandOffsAndStaleAnswersOfTheOutageAndCountHandOffsAsAccountedFor() {
        // 1,000 published: 990 classified, 2 bad-input, 8 handed off; 30 retries-exhausted were replayed and classified
        DemoReport outage = new DemoReport(1_000, 990, 32, 0, 120, 0, 300_000, 40_000, 800_000, 65_000, 0.95, "TPM",
                Map.of("bad-input", 2L, "retries-exhausted", 30L), 500, 200_000).withOutage(40, 30, 200, 8, 6);

        assertThat(outage.render()).contains("  handed off          8 interactive tickets to tickets.handoff before their deadline",
                "  stale answers       6 repeated tickets answered from an expired cache entry while the route was down");
        assertThat(outage.clean()).isTrue();
        assertThat(outage.withOutage(40, 30, 200, 7, 6).clean()).as("a ticket with no outcome").isFalse();
    }

    @Test
    void shouldStartAndEndEveryScenariosReportInOneFormat() {
        DemoReport steady = report();
        DemoReport outage = report().withOutage(40, 30, 200, 0, 0);
        FallbackReport fallback = new FallbackReport(521, 515, 6, 0, Map.of("primary", 400L, "backup", 114L, "long", 1L),
                Map.of(), 20, Map.of("primary", 90L, "backup", 30L, "long", 1L), Map.of("primary", 0L, "backup", 0L, "long", 0L),
                12, Map.of("bad-input", 6L), 90_000);

        for (String rendered : java.util.List.of(steady.render(), outage.render(), fallback.render())) {
            java.util.List<String> labels = rendered.lines().map(l -> l.length() > 22 ? l.substring(0, 22).strip() : l).toList();
            assertThat(labels.subList(0, 7)).as(rendered).containsExactly(labels.get(0), "tickets published", "classified",
                    "dead-lettered", "duplicates", "calls", "HTTP 429");
            assertThat(rendered.lines().findFirst().orElseThrow()).as(rendered).matches("quotaflow demo report \\((steady|outage|fallback)\\)");
            assertThat(labels.get(labels.size() - 1)).as(rendered).isEqualTo("result");
        }
        assertThat(fallback.render()).contains("  calls               121 by route {", "  HTTP 429            0 by route {");
        assertThat(steady.render()).startsWith("quotaflow demo report (steady)\n").endsWith("  result              CLEAN: every"
                + " ticket accounted for once, no 429\n");
    }

    @Test
    void shouldPrintOneProgressLineFormatForEveryScenario() {
        String steady = new DemoRun.Progress(12_500, 521, 120, 2, 30, 0, 45_000, "RUNNING", 3).line();
        String fallback = DemoRun.line(12_500, 120, 521, 2, 30, 0, "by route primary 20 backup 10 long 0");

        assertThat(steady).isEqualTo(" 12.5s done 120/521 dlq 2 calls 30 429s 0 retried 3 tok 45,000 RUNNING");
        assertThat(fallback).isEqualTo(" 12.5s done 120/521 dlq 2 calls 30 429s 0 by route primary 20 backup 10 long 0");
    }

    @Test
    void shouldCountTheRecordsAFallbackPublicationSendsToKeepItsTotalFromTheStart() {
        byte[] lines = "{\"id\":\"A\"}\nnot json\n\n{\"id\":\"B\"}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);

        assertThat(FallbackDemo.records(lines)).as("the invalid line is sent too, the blank one not").isEqualTo(3);
    }
}

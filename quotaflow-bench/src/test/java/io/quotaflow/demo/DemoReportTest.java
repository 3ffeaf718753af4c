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
}

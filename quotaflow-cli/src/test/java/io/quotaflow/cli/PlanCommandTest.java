package io.quotaflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.records.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PlanCommandTest {

    private static CommandRun run(Map<String, String> env, String... args) {
        return CommandRun.execute(env, args);
    }

    @Test
    void shouldPrintSeed004sExample() {
        CommandRun r = run(Map.of(), "plan", "--rpm", "1000", "--tpm", "2000000", "--tokens-per-request", "4000", "--latency-s", "3",
                "--safety-factor", "0.8");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("""
                limits            1,000 RPM, 2,000,000 TPM; 4,000 tokens a request; 3 s a call; safety factor 0.8
                ceilings          RPM allows 1,000 requests a minute; TPM allows 500 requests a minute
                binding limit     TPM
                safe rate         400 requests a minute (6.67 a second)
                in flight         20 (Little's law: 6.67 a second x 3 s)
                """);
    }

    @Test
    void shouldPlanAnAutoLimitFromTheDefaultItStartsAt() throws Exception {
        CommandRun r = run(Map.of("QUOTAFLOW_QUOTA_RPM", "auto", "QUOTAFLOW_QUOTA_TPM", "30000"), "plan", "--tokens-per-request",
                "1000", "--latency-s", "2", "--json");

        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode plan = Json.MAPPER.readTree(r.out());
        assertThat(plan.get("rpm").asLong()).isEqualTo(500);
        assertThat(plan.get("binding").asText()).isEqualTo("tpm");
    }

    @Test
    void shouldMeasureTicketsAndGiveTheDrainTimeAsJson(@TempDir Path dir) throws Exception {
        Path tickets = dir.resolve("t.jsonl");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 25; i++) {
            lines.append("{\"id\":\"P-").append(i).append("\",\"subject\":\"Refund\",\"body\":\"I was charged twice for order ")
                    .append(i).append(".\"}\n");
        }
        lines.append("not json\n\n");
        Files.writeString(tickets, lines);

        CommandRun r = run(Map.of("QUOTAFLOW_QUOTA_RPM", "500", "QUOTAFLOW_QUOTA_TPM", "30000"), "plan", "--tickets", tickets.toString(),
                "--latency-s", "2", "--backlog", "10000", "--json");

        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode plan = Json.MAPPER.readTree(r.out());
        assertThat(plan.get("measured").get("tickets").asInt()).as("the invalid line is skipped").isEqualTo(25);
        assertThat(plan.get("measured").get("requests").asInt()).as("10 + 10 + 5 with the default batch").isEqualTo(3);
        assertThat(plan.get("rpm").asLong()).isEqualTo(500);
        assertThat(plan.get("ticketsPerRequest").asDouble()).isCloseTo(25.0 / 3, within(1e-9));
        double tokens = plan.get("tokensPerRequest").asDouble();
        assertThat(plan.get("binding").asText()).isEqualTo(30_000 / tokens < 500 ? "tpm" : "rpm");
        double safe = Math.min(500, 30_000 / tokens) * 0.8;
        assertThat(plan.get("safeRequestsPerMinute").asDouble()).isCloseTo(safe, within(1e-6));
        assertThat(plan.get("drainSeconds").asDouble()).isCloseTo(10_000 / (safe * 25.0 / 3) * 60, within(0.01));
    }

    @Test
    void shouldRefuseMissingFiguresWithAUsageError(@TempDir Path dir) {
        CommandRun noTokens = run(Map.of(), "plan", "--rpm", "100", "--latency-s", "1");
        CommandRun noLimits = run(Map.of(), "plan", "--tokens-per-request", "100", "--latency-s", "1");
        CommandRun noFile = run(Map.of(), "plan", "--rpm", "100", "--latency-s", "1", "--tickets", dir.resolve("missing").toString());

        assertThat(noTokens.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noTokens.err()).contains("give --tokens-per-request, or --tickets FILE");
        assertThat(noLimits.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noLimits.err()).contains("give --rpm, --tpm or both");
        assertThat(noFile.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(noFile.err()).contains("no such file");
    }

    @Test
    void shouldRefuseAModelWithoutTicketsForItsTokenizerToCount() {
        CommandRun r = run(Map.of(), "plan", "--rpm", "100", "--tokens-per-request", "1000", "--latency-s", "1", "--model", "gpt-4o");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--model names the tokenizer that counts --tickets FILE");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void shouldRefuseARouteTheConfigurationDoesNotHaveInsteadOfPlanningTheGlobalLimits(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("q.properties");
        Files.writeString(config, "routes=fast,slow\nroute.fast.rpm=600\nroute.slow.rpm=60\nquota.rpm=1000\n");

        CommandRun typo = run(Map.of(), "plan", "--config", config.toString(), "--route", "fsat", "--tokens-per-request", "100",
                "--latency-s", "1");
        CommandRun known = run(Map.of(), "plan", "--config", config.toString(), "--route", "slow", "--tokens-per-request", "100",
                "--latency-s", "1");

        assertThat(typo.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(typo.err()).contains("--route fsat is not a route of the configuration (routes: fast, slow)");
        assertThat(typo.out()).isEmpty();
        assertThat(known.exitCode()).as(known.err()).isZero();
        assertThat(known.out()).contains("limits            60 RPM,");
    }

    @Test
    void shouldTakeNoneForALimitAsRunDoesAndRefuseAnythingElseThatIsNotANumber() {
        CommandRun none = run(Map.of(), "plan", "--rpm", "none", "--tpm", "30000", "--tokens-per-request", "1000", "--latency-s", "1");
        CommandRun word = run(Map.of(), "plan", "--rpm", "many", "--tpm", "30000", "--tokens-per-request", "1000", "--latency-s", "1");

        assertThat(none.exitCode()).as(none.err()).isZero();
        assertThat(none.out()).contains("limits            no RPM limit, 30,000 TPM;")
                .contains("ceilings          RPM allows any number of requests a minute; TPM allows 30 requests a minute")
                .contains("binding limit     TPM");
        assertThat(word.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(word.err()).contains("--rpm must be a positive integer, auto or none, got 'many'");
    }
}

package io.quotaflow.dev;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.bench.Scenario;
import io.quotaflow.records.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchCommandTest {

    @Test
    void shouldListEveryScenarioAndTheBaselineInHelp() {
        DevRun run = DevRun.quotaflow("bench", "--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("foreign-tokenizer", "nightly-job", "high-tier", "overhead", "interactive-p99", "dlq-replay",
                "--baseline", "fixed-batch baseline", "0.5 % of tickets are huge", "chaos");
    }

    @Test
    void shouldNameEveryFailoverVariantInHelp() {
        // the help wraps its lines: read it as one line of words
        String help = DevRun.quotaflow("bench", "--help").out().replaceAll("\\s+", " ");
        for (io.quotaflow.bench.FailoverVariant v : io.quotaflow.bench.FailoverVariant.catalogue()) {
            assertThat(help).as("bench --help names variant %s", v.name()).containsPattern("[ (,]" + java.util.regex.Pattern.quote(v.name()) + "[,)]");
        }
    }

    @Test
    void shouldRunTheBaselineWhereAskedOnly() {
        List<Scenario> all = Scenario.select("all", null);
        assertThat(BenchCommand.withBaseline(all, "auto")).filteredOn(s -> s.baselineTicketCount() > 0)
                .extracting(Scenario::key).containsExactly("f", "g", "h");
        assertThat(BenchCommand.withBaseline(all, "OFF")).allMatch(s -> s.baselineTicketCount() == 0);
        List<Scenario> everywhere = BenchCommand.withBaseline(all, "all");
        assertThat(everywhere).filteredOn(s -> s.baselineTicketCount() > 0).extracting(Scenario::key)
                .containsExactly("a", "b", "c", "d", "f", "g", "h");
        // h keeps its prefix; the others get every ticket
        assertThat(everywhere.get(7).baselineTicketCount()).isEqualTo(Scenario.HIGH_TIER_BASELINE_TICKETS);
        assertThat(everywhere.get(0).baselineTicketCount()).isEqualTo(Scenario.DEFAULT_TICKETS);
        assertThatThrownBy(() -> BenchCommand.withBaseline(all, "sometimes")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("auto, all or off");
    }

    @Test
    void shouldRefuseABadBaselineChoiceBeforeRunningAnything() {
        DevRun run = DevRun.quotaflow("bench", "--scenario", "g", "--baseline", "sometimes");
        assertThat(run.exitCode()).isNotZero();
        assertThat(run.err()).contains("--baseline must be auto, all or off");
    }

    @Test
    void shouldRunBenchMOnTheProvidersNamedInOrder() {
        assertThat(EtaBench.providerList("ours,slow,input")).extracting(io.quotaflow.bench.EtaAccuracyBenchmark.Provider::name)
                .containsExactly("ours", "slow", "input");
        assertThat(EtaBench.providerList(" SLOW ")).extracting(io.quotaflow.bench.EtaAccuracyBenchmark.Provider::name)
                .containsExactly("slow");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> EtaBench.providerList("ours,fast"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fast");
        assertThat(DevRun.quotaflow("bench", "--help").out()).contains("--eta-providers");
    }

    @Test
    void shouldTakeTheFailoverQuotaWithTheFailoverScenarioOnly() {
        DevRun run = DevRun.quotaflow("bench", "--scenario", "g", "--failover-tpm", "150000");
        assertThat(run.exitCode()).isNotZero();
        assertThat(run.err()).contains("--failover-shape go with --scenario failover only");
        assertThat(DevRun.quotaflow("bench", "--help").out()).contains("--failover-tpm", "--failover-burst");
        io.quotaflow.bench.FailoverRunner.Options options = io.quotaflow.bench.FailoverRunner.Options.defaults(1);
        assertThat(options.tpm()).isEqualTo(io.quotaflow.bench.FailoverRunner.DEFAULT_TPM);
        assertThat(options.withTpm(150_000).withTickets(60).tpm()).isEqualTo(150_000);
        assertThatThrownBy(() -> options.withTpm(10)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tpm");
        assertThat(options.withBurstSeconds(60).burstSeconds()).isEqualTo(60);
        assertThatThrownBy(() -> options.withBurstSeconds(61)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("burst");
    }

    @Test
    void shouldRefuseAnOptionABenchThatRunsAloneWouldIgnoreBeforeRunningIt() {
        DevRun y = DevRun.quotaflow("bench", "--scenario", "y", "--tickets", "100");
        assertThat(y.exitCode()).as("a usage error").isEqualTo(2);
        assertThat(y.err()).contains("--tickets does not apply to --scenario y (it takes --seed)");
        DevRun n = DevRun.quotaflow("bench", "--scenario", "n", "--baseline", "off");
        assertThat(n.exitCode()).isNotZero();
        assertThat(n.err()).contains("--baseline does not apply to --scenario n (it takes --tickets)");
        DevRun lean = DevRun.quotaflow("bench", "--scenario", "lean", "--warmup", "fresh");
        assertThat(lean.exitCode()).isNotZero();
        assertThat(lean.err()).contains("--warmup does not apply to --scenario lean");
    }

    /** A result as a bench returns one. */
    record Figures(int calls, double share) {
    }

    @Test
    void shouldWriteAnAloneBenchsReportToTheMarkdownAndJsonFilesAsked(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("y.json");
        Path markdown = dir.resolve("y.md");
        BenchCommand bench = new BenchCommand();
        new CommandLine(bench).parseArgs("--scenario", "y", "--json", json.toString(), "--markdown", markdown.toString());
        String report = "| route | calls/s |\n| auto | 15.7 |\n";

        AloneBenches.writeFiles(bench, "y", report, new Figures(628, 0.98), true);

        assertThat(Files.readString(markdown)).isEqualTo("```\n" + report + "```\n");
        JsonNode root = Json.MAPPER.readTree(json.toFile());
        assertThat(root.path("command").asText()).isEqualTo("quotaflow --scenario y --json " + json + " --markdown " + markdown);
        assertThat(root.path("scenario").asText()).isEqualTo("y");
        assertThat(root.path("clean").asBoolean()).isTrue();
        assertThat(root.path("report")).hasSize(2);
        assertThat(root.path("report").get(1).asText()).isEqualTo("| auto | 15.7 |");
        assertThat(root.path("result").path("calls").asInt()).isEqualTo(628);
        assertThat(root.path("result").path("share").asDouble()).isEqualTo(0.98);

        AloneBenches.writeFiles(bench, "y", report, new Object(), false);
        JsonNode unwritable = Json.MAPPER.readTree(json.toFile());
        assertThat(unwritable.has("result")).isFalse();
        assertThat(unwritable.path("resultNotWritten").asText()).isNotBlank();
        assertThat(unwritable.path("report")).as("the report is there all the same").hasSize(2);
        assertThat(unwritable.path("clean").asBoolean()).isFalse();
    }
}

package io.quotaflow.dev;

import io.quotaflow.cli.QuotaflowCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The developer distribution's commands through the whole command line: exit codes, help, and no secret echoed. */
class DevCommandsTest {

    private static final String CANARY = "sk-LEAKCANARY0123456789abcdef2345";

    private static DevRun run(String... args) {
        return DevRun.quotaflow(Map.of("QUOTAFLOW_CLUSTER_CHECK_TIMEOUT_MS", "300"), args);
    }

    private static void assertNoCanary(DevRun run) {
        String all = (run.out() + run.err()).toLowerCase(Locale.ROOT);
        String body = CANARY.substring(3).toLowerCase(Locale.ROOT);
        for (int i = 0; i + 8 <= body.length(); i++) {
            assertThat(all).doesNotContain(body.substring(i, i + 8));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo", "bench", "broker", "sim"})
    void shouldExitWithTwoOnAnUnknownOption(String command) {
        DevRun r = run(command, "--no-such-option");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("--no-such-option");
        assertThat(r.out()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo", "bench", "broker", "sim"})
    void shouldPrintTheVersionWithMinusV(String command) {
        DevRun r = run(command, "-V");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("quotaflow ").isEqualTo(run("--version").out());
    }

    @Test
    void shouldExitWithTwoOnABadValue() {
        assertThat(run("broker", "--port", "70000").exitCode()).isEqualTo(2);
        assertThat(run("sim", "--rpm", "0").exitCode()).isEqualTo(2);
        assertThat(run("bench", "--scenario", "no-such-scenario").exitCode()).isEqualTo(2);
        assertThat(run("demo", "--scenario", "no-such-scenario").exitCode()).isEqualTo(2);
    }

    @Test
    void shouldAcceptTheDevelopersVariablesWhereTheProductionCommandLineRefusesThem() {
        // a typo beside them makes both command lines stop at the settings (exit 2), before any cluster is asked
        Map<String, String> env = Map.of("QUOTAFLOW_BOOTSTRAP_SERVERS", "127.0.0.1:1", "QUOTAFLOW_QUOTA_RMP", "100",
                SimCommand.API_KEYS_ENV, "sk-sim", BenchCommand.PIPELINE_JVM_OPTS_ENV, "-XX:+UseSerialGC");

        DevRun dev = DevRun.quotaflow(env, "publish", "--file", "-");
        StringWriter productionErr = new StringWriter();
        int production = QuotaflowCommand.execute(new PrintWriter(new StringWriter(), true), new PrintWriter(productionErr, true), env,
                List.of(), "publish", "--file", "-");

        assertThat(dev.exitCode()).isEqualTo(2);
        assertThat(dev.err()).contains("unknown environment variable QUOTAFLOW_QUOTA_RMP; did you mean QUOTAFLOW_QUOTA_RPM?")
                .doesNotContain(SimCommand.API_KEYS_ENV).doesNotContain(BenchCommand.PIPELINE_JVM_OPTS_ENV);
        assertThat(production).isEqualTo(2);
        assertThat(productionErr.toString()).contains("unknown environment variable QUOTAFLOW_QUOTA_RMP",
                "unknown environment variable " + SimCommand.API_KEYS_ENV,
                "unknown environment variable " + BenchCommand.PIPELINE_JVM_OPTS_ENV);
    }

    @Test
    void shouldOfferEveryProductionCommandToo() {
        DevRun help = run("--help");

        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("demo", "bench", "broker", "sim", "run", "topics", "publish", "results", "status", "dlq");
    }

    @Test
    void shouldFitEveryDevelopmentHelpIn80ColumnsAndListItsExitCodes() {
        CommandLine tree = QuotaflowCommand.commandLine(QuotaflowDevCommand.commands());
        for (String name : new String[] {"demo", "bench", "broker", "sim"}) {
            String usage = tree.getSubcommands().get(name).getUsageMessage();
            assertThat(usage.split("\\R")).as(name).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(80));
            assertThat(usage).as(name).contains("Exit codes:").containsPattern("(?m)^  0 +\\S").containsPattern("(?m)^  2 +\\S");
        }
    }

    @Test
    void shouldEndEveryDevelopmentHelpWithExamplesOfThatCommand() {
        CommandLine tree = QuotaflowCommand.commandLine(QuotaflowDevCommand.commands());
        for (String name : new String[] {"demo", "bench", "broker", "sim"}) {
            String usage = tree.getSubcommands().get(name).getUsageMessage();
            assertThat(usage).as(name).containsPattern("(?m)^Examples?:$").containsPattern("(?m)^  (\\./)?quotaflow " + name + "\\b");
        }
        assertThat(tree.getSubcommands().get("demo").getUsageMessage()).contains("./quotaflow demo --scenario outage");
    }

    @Test
    void shouldDescribeTheBrokerCommandInItsHelp() {
        String usage = new picocli.CommandLine(new BrokerCommand()).getUsageMessage();

        assertThat(usage).contains("--port").contains("--dir").contains("9092");
    }

    @Test
    void shouldNeverEchoAKeyGivenToADevelopmentCommand() {
        DevRun demo = run("demo", "--llm-api-key", CANARY);
        DevRun bench = run("bench", "--llm-api-key=" + CANARY);
        DevRun sim = run("sim", "--api-key", CANARY);
        DevRun simFile = run("sim", "--api-key-file", CANARY);

        for (DevRun r : new DevRun[] {demo, bench, sim, simFile}) {
            assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
            assertNoCanary(r);
        }
        assertThat(demo.err()).contains("quotaflow demo: unknown option '--llm-api-key'");
        assertThat(bench.err()).contains("unknown option '--llm-api-key'");
        assertThat(sim.err()).contains("unknown option '--api-key'");
        assertThat(simFile.err()).contains("--api-key-file").contains("no such file");
    }
}

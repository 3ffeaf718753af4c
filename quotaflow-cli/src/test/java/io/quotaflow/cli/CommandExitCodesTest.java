package io.quotaflow.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exit codes through the whole command line ({@link QuotaflowCommand#execute}, picocli and
 * all): 2 for usage and configuration, 1 for work that failed, and every command's help lists them.
 */
class CommandExitCodesTest {

    /** Nothing listens there; the check gives up quickly. */
    private static final String NOWHERE = "127.0.0.1:1";

    private static CommandRun run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), env, args);
        return new CommandRun(code, out.toString(), err.toString());
    }

    private static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>(Map.of("QUOTAFLOW_CLUSTER_CHECK_TIMEOUT_MS", "300"));
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }

    @ParameterizedTest
    @ValueSource(strings = {"run", "check", "results", "publish --file -", "topics apply", "dlq stats", "dlq show", "dlq replay",
        "topics", "dlq"})
    void shouldExitWithTwoOnAnUnknownOption(String command) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.add("--no-such-option");

        CommandRun r = run(env(), args.toArray(String[]::new));

        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCodes.USAGE).isEqualTo(2);
        assertThat(r.err()).contains("--no-such-option");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void shouldExitWithTwoOnABadValueOrAMissingSubcommand() {
        assertThat(run(env(), "results", "--max", "many").exitCode()).isEqualTo(2);
        assertThat(run(env(), "dlq").exitCode()).isEqualTo(2);
        assertThat(run(env(), "topics").exitCode()).isEqualTo(2);
    }

    @Test
    void shouldExitWithTwoOnAnUnknownVariableOrKey(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        CommandRun variable = run(env("QUOTAFLOW_BOOTSTRAP_SERVER", NOWHERE), "results");
        Path file = Files.writeString(dir.resolve("q.properties"), "bootstrap.servers=" + NOWHERE + "\nhttp.bnd=x\n");
        CommandRun key = run(env(), "dlq", "show", "--config", file.toString());

        assertThat(variable.exitCode()).isEqualTo(2);
        assertThat(variable.err()).contains("unknown environment variable QUOTAFLOW_BOOTSTRAP_SERVER");
        assertThat(key.exitCode()).isEqualTo(2);
        assertThat(key.err()).contains("unknown key 'http.bnd'", "did you mean http.bind?");
    }

    @ParameterizedTest
    @ValueSource(strings = {"results", "dlq show", "dlq stats", "topics apply", "publish --file -"})
    void shouldExitWithOneWhenTheClusterIsUnreachable(String command) {
        CommandRun r = run(env("QUOTAFLOW_BOOTSTRAP_SERVERS", NOWHERE), command.split(" "));

        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCodes.FAILURE).isEqualTo(1);
        assertThat(r.err()).contains("cannot reach Kafka at " + NOWHERE);
    }

    @Test
    void shouldExitWithZeroForHelpAndVersion() {
        assertThat(run(env(), "--version").exitCode()).isZero();
        assertThat(run(env(), "dlq", "show", "--help").exitCode()).isZero();
        assertThat(run(env(), "help", "run").exitCode()).isZero();
    }

    @Test
    void shouldListTheExitCodesInEveryCommandsHelp() {
        Pattern code = Pattern.compile("(?m)^  ([012]) +\\S");
        List<String> commands = new ArrayList<>();
        everyCommand(QuotaflowCommand.commandLine()).filter(c -> !c.getCommandName().equals("help")).forEach(cmd -> {
            String name = cmd.getCommandSpec().qualifiedName();
            commands.add(name);
            String usage = cmd.getUsageMessage();
            String codes = usage.substring(usage.indexOf("Exit codes:"));
            List<String> listed = code.matcher(codes).results().map(m -> m.group(1)).toList();
            boolean group = !cmd.getSubcommands().isEmpty() && !name.equals("quotaflow");
            assertThat(usage).as(name).contains("Exit codes:" + System.lineSeparator());
            assertThat(listed).as(name).containsAll(group ? List.of("0", "2") : List.of("0", "1", "2"));
        });
        assertThat(commands).contains("quotaflow run", "quotaflow publish", "quotaflow cancel", "quotaflow results",
                "quotaflow status", "quotaflow dlq show", "quotaflow topics apply");
    }

    private static Stream<CommandLine> everyCommand(CommandLine cmd) {
        return Stream.concat(Stream.of(cmd), cmd.getSubcommands().values().stream().flatMap(CommandExitCodesTest::everyCommand));
    }

    @Test
    void shouldExitWithTwoWhenCheckHasNoKeyWithoutAskingAnything() {
        CommandRun r = run(env("QUOTAFLOW_BOOTSTRAP_SERVERS", "localhost:1"), "check", "--llm-base-url", "http://localhost:1/v1");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("the LLM API key is missing");
        assertThat(r.out()).as("a configuration error comes before any check").isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"check", "run"})
    void shouldExitWithTwoOnABatchRouteWhoseDialectIsNotOpenAi(String command, @org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path file = Files.writeString(dir.resolve("q.properties"), String.join("\n", "bootstrap.servers=" + NOWHERE, "routes=bulk",
                "route.bulk.base-url=https://api.anthropic.com/v1", "route.bulk.model=claude-haiku-4-5", "route.bulk.dialect=anthropic",
                "route.bulk.mode=batch", ""));

        CommandRun r = run(env("QUOTAFLOW_LLM_API_KEY", "sk-test-key-0001"), command, "--config", file.toString());

        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("route bulk: mode=batch needs the openai dialect, and its dialect is anthropic",
                "route.bulk.mode='batch' from " + file);
        assertThat(r.err()).doesNotContain("sk-test-key-0001");
        assertThat(r.out()).as("a configuration error comes before any check").isEmpty();
    }

    @Test
    void shouldPrintTheUsageAndExitWithTwoWhenNoCommandIsGiven() {
        CommandRun r = run(env());

        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("quotaflow: give a command").contains("Usage: quotaflow").contains("run ").contains("dlq ");
    }

    @Test
    void shouldPrintTheVersionWithMinusVOnEveryCommand() {
        List<String> without = new ArrayList<>();
        everyCommand(QuotaflowCommand.commandLine(List.of())).filter(c -> !c.getCommandName().equals("help")).forEach(cmd -> {
            List<String> args = new ArrayList<>(List.of(cmd.getCommandSpec().qualifiedName(" ").split(" ")));
            args.remove(0); // quotaflow
            args.add("-V");
            CommandRun r = run(env(), args.toArray(String[]::new));
            if (r.exitCode() != 0 || !r.out().startsWith("quotaflow ")) {
                without.add(cmd.getCommandSpec().qualifiedName() + " -> " + r.exitCode() + " " + r.err());
            }
        });
        assertThat(without).as("commands whose -V does not print the version").isEmpty();
        assertThat(run(env(), "dlq", "show", "--version").out()).isEqualTo(run(env(), "--version").out());
    }

    @Test
    void shouldSayWhereTheDeveloperCommandsAreWhenTheProductionJarIsAskedForOne() {
        CommandRun demo = run(env(), "demo", "--scenario", "outage");
        CommandRun typo = run(env(), "rnu");

        assertThat(demo.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(demo.err()).startsWith("quotaflow: unknown command 'demo': demo, bench, sim and broker are in the developer"
                + " distribution, not in the production jar: ./quotaflow demo in a checkout of the repository")
                .contains("Try 'quotaflow --help'").doesNotContain("--scenario");
        assertThat(typo.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(typo.err()).doesNotContain("developer distribution");
    }
}

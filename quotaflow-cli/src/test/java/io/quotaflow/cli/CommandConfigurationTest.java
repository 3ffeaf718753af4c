package io.quotaflow.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every cluster command reads the same sources through the real command line: an unreachable
 * address from any source ends in one line naming it and where it came from, which proves the
 * command read it; typos stop with exit 2.
 */
class CommandConfigurationTest {

    /** Nothing listens there; the check gives up quickly. */
    private static final String NOWHERE = "127.0.0.1:1";

    private static Map<String, String> env(String... pairs) {
        Map<String, String> env = new HashMap<>(Map.of("QUOTAFLOW_CLUSTER_CHECK_TIMEOUT_MS", "300"));
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return env;
    }

    private static CommandRun run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), env, args);
        return new CommandRun(code, out.toString(), err.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"results", "publish --file -", "topics apply", "dlq stats", "dlq replay --dry-run", "run"})
    void shouldReadTheBootstrapServersFromTheEnvironment(String command) {
        Map<String, String> env = env("QUOTAFLOW_BOOTSTRAP_SERVERS", NOWHERE, "QUOTAFLOW_LLM_BASE_URL", "http://localhost:1/v1",
                "QUOTAFLOW_LLM_API_KEY", "sk-test", "QUOTAFLOW_HTTP_PORT", "-1");

        CommandRun r = run(env, command.split(" "));

        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).doesNotContain("Missing required option")
                .contains("cannot reach Kafka at " + NOWHERE + " (environment variable QUOTAFLOW_BOOTSTRAP_SERVERS) within 0.3 s");
        assertThat(r.err().lines()).as("one line").hasSize(1);
        assertThat(r.out()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"results", "publish --file -", "topics apply", "dlq stats", "dlq show", "status T-1", "cancel T-1"})
    void shouldAcceptKafkasOwnToolsSpellingBootstrapServer(String command) {
        List<String> args = new java.util.ArrayList<>(List.of(command.split(" ")));
        args.addAll(List.of("--bootstrap-server", NOWHERE));

        CommandRun r = run(env(), args.toArray(String[]::new));

        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).doesNotContain("Unknown option").contains("cannot reach Kafka at " + NOWHERE);
    }

    @Test
    void shouldTakeTheBootstrapServersFromTheHighestSource(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("q.properties"), "# cluster\nbootstrap.servers=127.0.0.1:2\n");
        String[] fileOnly = {"results", "--config", file.toString()};
        String[] withFlag = {"results", "--config", file.toString(), "--bootstrap-servers", "127.0.0.1:4"};

        assertThat(run(env(), fileOnly).err()).contains("127.0.0.1:2 (" + file + " line 2)");
        assertThat(run(env("QUOTAFLOW_BOOTSTRAP_SERVERS", "127.0.0.1:3"), fileOnly).err())
                .contains("127.0.0.1:3 (environment variable QUOTAFLOW_BOOTSTRAP_SERVERS)");
        assertThat(run(env("QUOTAFLOW_BOOTSTRAP_SERVERS", "127.0.0.1:3"), withFlag).err())
                .contains("127.0.0.1:4 (flag --bootstrap-servers)");
    }

    @Test
    void shouldStopWithExitTwoOnATypoInTheConfigFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("q.properties"), "bootstrap.servers=" + NOWHERE + "\nquota.rmp=100\n");

        CommandRun r = run(env(), "dlq", "stats", "--config", file.toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("unknown key 'quota.rmp' in " + file + " line 2; did you mean quota.rpm?");
    }

    @Test
    void shouldStopWithExitTwoOnATypoInTheEnvironment() {
        CommandRun r = run(env("QUOTAFLOW_BOOTSTRAP_SERVERS", NOWHERE, "QUOTAFLOW_QUOTA_RMP", "100"), "publish", "--file", "-");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("unknown environment variable QUOTAFLOW_QUOTA_RMP; did you mean QUOTAFLOW_QUOTA_RPM?");
    }

    @Test
    void shouldStopWithExitTwoOnATypoInAFlag() {
        CommandRun r = run(env("QUOTAFLOW_BOOTSTRAP_SERVERS", NOWHERE), "run", "--rmp", "100");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("unknown option '--rmp'").contains("Did you mean: --rpm");
    }

    @Test
    void shouldExplainAMissingConfigFileInOneLine(@TempDir Path dir) {
        Path missing = dir.resolve("missing.properties");

        CommandRun r = run(env(), "topics", "apply", "--config", missing.toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).startsWith("quotaflow topics apply: config file not found: " + missing.toAbsolutePath());
    }

    @Test
    void shouldExplainAPortInUseBeforeStarting() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            CommandRun r = run(env("QUOTAFLOW_BOOTSTRAP_SERVERS", NOWHERE, "QUOTAFLOW_LLM_API_KEY", "sk-test",
                    "QUOTAFLOW_LLM_BASE_URL", "http://localhost:1/v1"), "run", "--http-port", Integer.toString(taken.getLocalPort()));

            assertThat(r.exitCode()).isEqualTo(2);
            assertThat(r.err()).contains("port " + taken.getLocalPort() + " is in use (http.port from flag --http-port)");
        }
    }

    @Test
    void shouldNotEchoTheApiKeyWhenTheConfigurationIsWrong() {
        String canary = "sk-LEAKCANARY0123456789abcdef2345";
        CommandRun r = run(env("QUOTAFLOW_BOOTSTRAP_SERVERS", NOWHERE, "QUOTAFLOW_LLM_API_KEY", canary,
                "QUOTAFLOW_QUOTA_RPM", canary), "run", "--llm-base-url", "http://localhost:1/v1");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("quota.rpm must be a positive integer, auto or none").doesNotContain("LEAKCANARY");
    }
}

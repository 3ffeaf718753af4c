package io.quotaflow.cli;

import io.quotaflow.config.ConfigValues;
import io.quotaflow.config.QuotaflowConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code run}'s HTTP settings: {@code --http-bind} beside {@code --http-port}, and the start-up line naming both. */
class RunCommandTest {

    private static final Map<String, String> ENV = Map.of(
            "QUOTAFLOW_BOOTSTRAP_SERVERS", "127.0.0.1:1",
            "QUOTAFLOW_LLM_BASE_URL", "http://provider.invalid:1/v1",
            "QUOTAFLOW_LLM_API_KEY", "sk-run-command-test-secret");

    private static RunCommand parse(Map<String, String> env, String... args) {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs(args);
        run.kafka.environment(env);
        return run;
    }

    private static QuotaflowConfig config(Map<String, String> env, String... args) {
        RunCommand run = parse(env, args);
        return run.config(run.settings());
    }

    @Test
    void shouldTakeTheBindAddressFromTheFlagOverTheEnvironment() {
        Map<String, String> env = new HashMap<>(ENV);
        env.put("QUOTAFLOW_HTTP_BIND", "10.0.0.7");
        RunCommand run = parse(env, "--http-bind", "127.0.0.1", "--http-port", "9464");
        ConfigValues values = run.settings();

        QuotaflowConfig config = run.config(values);

        assertThat(config.httpBind()).isEqualTo("127.0.0.1");
        assertThat(config.httpPort()).isEqualTo(9464);
        assertThat(values.origin("http.bind")).hasToString("flag --http-bind");
        assertThat(config(env).httpBind()).as("without the flag: the variable").isEqualTo("10.0.0.7");
        assertThat(config(ENV).httpBind()).as("by default: every interface").isEqualTo("0.0.0.0");
    }

    @Test
    void shouldStopWithExitTwoOnABadBindAddress() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), ENV,
                "run", "--http-bind", "not an address", "--http-port", "-1");

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("http.bind must be a host name or an IP address");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void shouldNameEveryEndpointOnTheBindAddressAndTheBoundPortInTheStartUpLine() {
        QuotaflowConfig config = config(ENV, "--http-bind", "127.0.0.1", "--http-port", "0", "--rpm", "60");

        String line = RunCommand.startedLine(config, 41234);

        assertThat(line).startsWith("quotaflow running: application id quotaflow, ")
                .contains("(60 RPM, ", "at http://provider.invalid:1/v1; ")
                .endsWith("; http://127.0.0.1:41234 serves /health/live, /health/ready, /metrics, /status, /tickets/{id}")
                .doesNotContain("/health ", "localhost", "sk-run-command-test-secret");
    }

    @Test
    void shouldSayHttpsAndTheTokenInTheStartUpLine(@TempDir Path dir) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "start-up-line-token-0123456789");
        QuotaflowConfig plain = config(ENV, "--http-bind", "127.0.0.1");
        QuotaflowConfig guarded = plain.withHttpSettings(plain.http().withAuthToken(io.quotaflow.settings.Secret.of(
                Files.readString(token).strip())));

        assertThat(RunCommand.startedLine(guarded, 8080))
                .endsWith("; http://127.0.0.1:8080 serves /health/live, /health/ready, /metrics, /status, /tickets/{id} "
                        + "(/status and /tickets/{id} with the bearer token)")
                .doesNotContain("start-up-line-token");
        var certificates = io.quotaflow.settings.TestCertificates.generate(dir, "run", "EC");
        Map<String, String> env = new HashMap<>(ENV);
        env.put("QUOTAFLOW_HTTP_TLS_CERT_FILE", certificates.certPem().toString());
        env.put("QUOTAFLOW_HTTP_TLS_KEY_FILE", certificates.keyPem().toString());
        assertThat(RunCommand.startedLine(config(env, "--http-bind", "127.0.0.1"), 8443))
                .endsWith("; https://127.0.0.1:8443 serves /health/live, /health/ready, /metrics, /status, /tickets/{id}");
    }

    @Test
    void shouldNameEveryRouteWithItsScopeLimitsAndModelInTheStartUpLine() {
        Map<String, String> env = new HashMap<>(ENV);
        env.put("QUOTAFLOW_ROUTES", "primary,backup");
        env.put("QUOTAFLOW_ROUTE_BACKUP_MODEL", "llama-3.1-8b-instant");
        env.put("QUOTAFLOW_ROUTE_BACKUP_RPM", "30");
        env.put("QUOTAFLOW_ROUTING_DEFAULT", "backup");
        QuotaflowConfig config = config(env, "--rpm", "60", "--http-port", "-1");

        String line = RunCommand.startedLine(config, -1);

        String primary = config.dispatcher().routing().route("primary").orElseThrow().scope();
        String backup = config.dispatcher().routing().route("backup").orElseThrow().scope();
        assertThat(line).isEqualTo("quotaflow running: application id quotaflow, routes primary (scope " + primary
                + ", 60 RPM, 200000 TPM, model gpt-4o-mini at http://provider.invalid:1/v1), backup (scope " + backup
                + ", 30 RPM, 200000 TPM, model llama-3.1-8b-instant at http://provider.invalid:1/v1); default backup; "
                + "HTTP endpoints off (http.port -1)");
    }

    @Test
    void shouldStopWithExitTwoNamingTheRouteWhoseKeyIsMissingAndNoKey() {
        Map<String, String> env = new HashMap<>(ENV);
        env.put("QUOTAFLOW_ROUTES", "primary,backup");
        env.put("QUOTAFLOW_ROUTE_BACKUP_API_KEY_ENV", "GROQ_API_KEY");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), env, "run", "--http-port", "-1");

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("the API key of route backup is missing: the variable GROQ_API_KEY (named by "
                + "route.backup.api-key-env, environment variable QUOTAFLOW_ROUTE_BACKUP_API_KEY_ENV) is not set")
                .doesNotContain("sk-run-command-test-secret");
        assertThat(out.toString()).isEmpty();

        env.put("QUOTAFLOW_ROUTE_BACKUP_API_KEY_ENV", "sk-LEAKCANARY0123456789abcdef2345");
        StringWriter pasted = new StringWriter();
        assertThat(QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(pasted, true), env, "run", "--http-port", "-1"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(pasted.toString()).contains("route.backup.api-key-env must be the name of the variable holding the key")
                .doesNotContain("LEAKCANARY");
    }

    @Test
    void shouldSayInItsHelpHowToConfigureRoutes() {
        StringWriter out = new StringWriter();

        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), ENV, "run", "--help");

        assertThat(code).isEqualTo(ExitCodes.OK);
        assertThat(out.toString().replaceAll("\\s+", " ")).contains("routes=a,b and route.<name>.* keys")
                .contains("QUOTAFLOW_ROUTE_<NAME>_<KEY>").contains("Without routes they define one route, default.");
    }

    @Test
    void shouldBracketAnIpv6BindAddressAndSayWhenTheEndpointsAreOff() {
        assertThat(RunCommand.startedLine(config(ENV, "--http-bind", "::1"), 8080))
                .endsWith("; http://[::1]:8080 serves /health/live, /health/ready, /metrics, /status, /tickets/{id}");
        assertThat(RunCommand.startedLine(config(ENV, "--http-port", "-1"), -1))
                .endsWith("; HTTP endpoints off (http.port -1)");
    }

    @Test
    void shouldSayItStoppedAndHowLongItTookAfterACleanClose() {
        StringWriter err = new StringWriter();
        java.util.List<java.time.Duration> asked = new java.util.ArrayList<>();
        io.quotaflow.testkit.ManualTime clock = new io.quotaflow.testkit.ManualTime(1_000_000);

        int code = RunCommand.stopped(timeout -> {
            asked.add(timeout);
            clock.advanceMs(2_345);
            return true;
        }, clock, new PrintWriter(err, true));

        assertThat(code).isZero();
        assertThat(asked).containsExactly(RunCommand.CLOSE_TIMEOUT);
        assertThat(err.toString().lines().toList()).containsExactly(
                "quotaflow: stopping (committing and closing cleanly)...",
                "quotaflow: stopped (committed and closed in 2.3 s)");
    }

    @Test
    void shouldExitOneAndSaySoWhenTheStreamsDoNotCloseInTime() {
        StringWriter err = new StringWriter();
        io.quotaflow.testkit.ManualTime clock = new io.quotaflow.testkit.ManualTime(1_000_000);

        int code = RunCommand.stopped(timeout -> {
            clock.advanceMs(timeout.toMillis());
            return false;
        }, clock, new PrintWriter(err, true));

        assertThat(code).isEqualTo(ExitCodes.FAILURE);
        assertThat(err.toString().lines().reduce((a, b) -> b).orElseThrow())
                .isEqualTo("quotaflow: stopped without a clean close (the streams did not close within 60 s; gave up after 60.0 s)");
    }
}

package io.quotaflow.dev;

import io.quotaflow.cli.RecordingHooks;
import io.quotaflow.simulator.Faults;
import io.quotaflow.simulator.ModelSpec;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimTokenizer;
import io.quotaflow.simulator.SimulatorConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import io.quotaflow.cli.ExitCodes;
import io.quotaflow.cli.QuotaflowCommand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class SimCommandTest {

    private static SimCommand parse(String... args) {
        SimCommand command = new SimCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void shouldDefaultToTheSimulatorDefaults() {
        SimulatorConfig config = parse().toConfig(Map.of());
        assertThat(config).isEqualTo(SimulatorConfig.ofDefaults());
        assertThat(SimCommand.banner(config, "http://localhost:8089/v1"))
                .isEqualTo("Provider simulator listening on http://localhost:8089/v1 (RPM 500, TPM 200000, burst 5s, "
                        + "tokenizer o200k_base, context 128000)");
    }

    @Test
    void shouldMapEveryOption() {
        SimulatorConfig config = parse("--port", "0", "--rpm", "60", "--tpm", "20000", "--burst-seconds", "2.5",
                "--model", "gpt-4.1-mini", "--latency-ms", "10", "--per-token-ms", "0.5", "--latency-jitter", "0",
                "--seed", "7", "--bind", "0.0.0.0").toConfig(Map.of());
        assertThat(config.port()).isZero();
        assertThat(config.rpm()).isEqualTo(60);
        assertThat(config.tpm()).isEqualTo(20_000);
        assertThat(config.burstSeconds()).isEqualTo(2.5);
        assertThat(config.model()).isEqualTo("gpt-4.1-mini");
        assertThat(config.baseLatencyMs()).isEqualTo(10);
        assertThat(config.perCompletionTokenMs()).isEqualTo(0.5);
        assertThat(config.latencyJitter()).isZero();
        assertThat(config.seed()).isEqualTo(7);
        assertThat(config.bindAddress()).isEqualTo("0.0.0.0");
        assertThat(SimCommand.banner(config, "http://localhost:1234/v1"))
                .isEqualTo("Provider simulator listening on http://localhost:1234/v1 (RPM 60, TPM 20000, burst 2.5s, "
                        + "tokenizer o200k_base, context 128000)");
    }

    @Test
    void shouldMapTheProviderShapeOptions() {
        SimulatorConfig config = parse("--tokenizer", "cl100k_base", "--context-tokens", "8192", "--burst-seconds", "60",
                "--start-full", "false").toConfig(Map.of());
        assertThat(config.tokenizer()).isEqualTo(SimTokenizer.CL100K_BASE);
        assertThat(config.contextTokens()).isEqualTo(8_192);
        assertThat(config.burstSeconds()).isEqualTo(60.0);
        assertThat(config.startLevel()).isZero();
        assertThat(SimCommand.banner(config, "http://localhost:8089/v1"))
                .isEqualTo("Provider simulator listening on http://localhost:8089/v1 (RPM 500, TPM 200000, burst 60s, "
                        + "buckets start empty, tokenizer cl100k_base (the model's is o200k_base), context 8192)");

        assertThat(parse("--tokenizer", "CHARS").toConfig(Map.of()).tokenizer()).isEqualTo(SimTokenizer.CHARS);
        assertThat(parse("--tokenizer", "o200k_base").toConfig(Map.of()).tokenizer()).isEqualTo(SimTokenizer.O200K_BASE);
        assertThat(parse("--tokenizer", "auto").toConfig(Map.of()).tokenizer()).isEqualTo(SimTokenizer.AUTO);
        assertThat(parse("--start-full").toConfig(Map.of()).startLevel()).isEqualTo(1.0);
        assertThat(parse("--start-full", "--tokenizer", "chars").toConfig(Map.of()).startFull()).isTrue();
        assertThat(parse("--start-full", "FALSE").toConfig(Map.of()).startFull()).isFalse();
        assertThat(parse("--start-full", "true").toConfig(Map.of()).startFull()).isTrue();
        assertThat(parse("--start-full=false").toConfig(Map.of()).startFull()).isFalse();
        assertThat(parse("--burst-seconds", "60").toConfig(Map.of()).startFull()).isTrue();
    }

    @Test
    void shouldRejectAnInvalidProviderShapeWithClearErrors() {
        assertThatThrownBy(() -> parse("--tokenizer", "sk-oops-secret").toConfig(Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage("Invalid value for option '--tokenizer': expected one of auto, o200k_base, cl100k_base, chars");
        assertThatThrownBy(() -> parse("--context-tokens", "0").toConfig(Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("--context-tokens").hasMessageContaining("positive");
        assertThatThrownBy(() -> parse("--burst-seconds", "61").toConfig(Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("--burst-seconds").hasMessageContaining("(0, 60]");
        assertThatThrownBy(() -> parse("--burst-seconds", "0").toConfig(Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--burst-seconds");
        assertThatThrownBy(() -> parse("--start-full", "maybe").toConfig(Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage("Invalid value for option '--start-full': expected true or false");
        assertThatThrownBy(() -> parse("--context-tokens", "many"))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--context-tokens");
    }

    @Test
    void shouldDescribeTheProviderShapeOptionsInTheHelp() {
        StringWriter help = new StringWriter();
        CommandLine cl = new CommandLine(new SimCommand());
        cl.setOut(new PrintWriter(help));
        assertThat(cl.execute("--help")).isZero();
        assertThat(help.toString()).contains("--tokenizer=NAME", "cl100k_base", "o200k_base", "chars",
                "ceil(code points / 4)", "--context-tokens=N", "Default: 128000", "context_length_exceeded",
                "--start-full[=true|false]", "full minute", "x-ratelimit-");
    }

    @Test
    void shouldReadApiKeysFromTheEnvironmentAndTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("keys");
        Files.writeString(file, "# accepted keys\nsk-file-1\n\n  sk-file-2 , sk-file-3\n");
        SimulatorConfig config = parse("--api-key-file", file.toString())
                .toConfig(Map.of(SimCommand.API_KEYS_ENV, "sk-env-1, ,sk-env-2"));
        assertThat(config.apiKeys()).containsExactlyInAnyOrder("sk-env-1", "sk-env-2", "sk-file-1", "sk-file-2", "sk-file-3");
        assertThat(config.toString()).doesNotContain("sk-");
    }

    @Test
    void shouldRejectAMissingKeyFileAndInvalidValues(@TempDir Path dir) {
        assertThatThrownBy(() -> parse("--api-key-file", dir.resolve("absent").toString()).toConfig(Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--api-key-file");
        assertThatThrownBy(() -> parse("--rpm", "0").toConfig(Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("rpm");
    }

    @Test
    void shouldDescribeEveryOptionInTheHelp() {
        StringWriter help = new StringWriter();
        CommandLine cl = new CommandLine(new SimCommand());
        cl.setOut(new PrintWriter(help));
        assertThat(cl.execute("--help")).isZero();
        assertThat(help.toString()).contains("--port", "--rpm", "--tpm", "--burst-seconds", "--model", "--latency-ms",
                "--api-key-file", "QUOTAFLOW_SIM_API_KEYS", "Default: 8089", "Default: 0.2");
        assertThat(help.toString()).doesNotContain("%%");
    }

    @Test
    void shouldMapTheFaultOptions() {
        SimulatorConfig config = parse("--p500", "0.1", "--p503", "0.05", "--p529", "0.02", "--p-malformed", "0.03",
                "--p-missing-item", "0.04", "--p-hang", "0.01", "--p-stall-body", "0.05", "--outage", "30:90", "--outage", "120:150.5",
                "--fail-auth").toConfig(Map.of());
        assertThat(config.faults()).isEqualTo(Faults.builder().p500(0.1).p503(0.05).p529(0.02)
                .pMalformed(0.03).pMissingItem(0.04).pHang(0.01).pStallBody(0.05).outageSeconds(30, 90)
                .outage(java.time.Duration.ofSeconds(120), java.time.Duration.ofMillis(150_500)).failAuth(true).build());
        assertThat(parse().toConfig(Map.of()).faults().any()).isFalse();
    }

    @Test
    void shouldRejectInvalidFaultOptions() {
        assertThatThrownBy(() -> parse("--outage", "90:30").toConfig(Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("outage");
        assertThatThrownBy(() -> parse("--outage", "soon").toConfig(Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("START:END");
        assertThatThrownBy(() -> parse("--p500", "1.2").toConfig(Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("p500");
        assertThatThrownBy(() -> parse("--p500", "0.7", "--p503", "0.7").toConfig(Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("at most 1");
    }

    @Test
    void shouldDescribeTheFaultOptionsInTheHelp() {
        StringWriter help = new StringWriter();
        CommandLine cl = new CommandLine(new SimCommand());
        cl.setOut(new PrintWriter(help));
        assertThat(cl.execute("--help")).isZero();
        assertThat(help.toString()).contains("--p500", "--p503", "--p529", "--p-malformed", "--p-missing-item",
                "--p-hang", "--p-stall-body", "START:END", "--fail-auth", "/admin/faults");
    }

    @Test
    void shouldServeMoreModelsWithTheirOwnShapeAndKeys() {
        SimulatorConfig config = parse("--rpm", "60", "--serve", "gpt-4o:rpm=100,tpm=30000,burst-seconds=2.5,context-tokens=8192",
                "--serve", "claude-long: tokenizer=chars , key-env=LONG_KEYS", "--serve", "plain")
                .toConfig(Map.of("LONG_KEYS", "sk-long-1,sk-long-2"));

        assertThat(config.models()).extracting(ModelSpec::name).containsExactly("gpt-4o-mini", "gpt-4o", "claude-long", "plain");
        ModelSpec big = config.servedModel("gpt-4o").orElseThrow();
        assertThat(big.rpm()).isEqualTo(100);
        assertThat(big.tpm()).isEqualTo(30_000);
        assertThat(big.burstSeconds()).isEqualTo(2.5);
        assertThat(big.contextTokens()).isEqualTo(8_192);
        ModelSpec longRoute = config.servedModel("claude-long").orElseThrow();
        assertThat(longRoute.tokenizer()).isEqualTo(SimTokenizer.CHARS);
        assertThat(longRoute.apiKeys()).containsExactlyInAnyOrder("sk-long-1", "sk-long-2");
        assertThat(longRoute.rpm()).as("keys left out take the simulator's defaults, not --rpm").isEqualTo(SimulatorConfig.DEFAULT_RPM);
        assertThat(config.servedModel("plain").orElseThrow()).isEqualTo(ModelSpec.of("plain"));
        assertThat(SimCommand.banner(config, "http://localhost:8089/v1")).contains(
                "(RPM 60, TPM 200000, burst 5s, tokenizer o200k_base, context 128000)",
                "  also serving gpt-4o (RPM 100, TPM 30000, burst 2.5s, tokenizer o200k_base, context 8192)",
                "  also serving claude-long (RPM 500, TPM 200000, burst 5s, tokenizer chars (the model's is cl100k_base), "
                        + "context 128000, 2 key(s) of its own)").doesNotContain("sk-long");
        assertThat(config.toString()).doesNotContain("sk-long");
    }

    @Test
    void shouldRejectAnInvalidServeOptionWithClearErrors() {
        assertThatThrownBy(() -> parse("--serve", ":rpm=1").toConfig(Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("starting with the model's name");
        assertThatThrownBy(() -> parse("--serve", "gpt-4o:rmp=1").toConfig(Map.of()))
                .hasMessage("--serve gpt-4o: unknown key 'rmp'; known keys: rpm, tpm, burst-seconds, context-tokens, tokenizer, "
                        + "key-env");
        assertThatThrownBy(() -> parse("--serve", "gpt-4o:rpm=0").toConfig(Map.of()))
                .hasMessage("--serve gpt-4o: rpm must be a positive whole number");
        assertThatThrownBy(() -> parse("--serve", "gpt-4o:tpm").toConfig(Map.of())).hasMessageContaining("key=value");
        assertThatThrownBy(() -> parse("--serve", "gpt-4o:rpm=1,rpm=2").toConfig(Map.of())).hasMessageContaining("given twice");
        assertThatThrownBy(() -> parse("--serve", "gpt-4o:burst-seconds=90").toConfig(Map.of()))
                .hasMessageContaining("burst-seconds must be in (0, 60]");
        assertThatThrownBy(() -> parse("--serve", "gpt-4o:tokenizer=sk-secret").toConfig(Map.of()))
                .hasMessageContaining("tokenizer must be one of").hasMessageNotContaining("sk-secret");
        assertThatThrownBy(() -> parse("--serve", "gpt-4o:key-env=MISSING").toConfig(Map.of()))
                .hasMessage("--serve gpt-4o: the variable MISSING (key-env) is not set or holds no key");
        assertThatThrownBy(() -> parse("--serve", "gpt-4o-mini").toConfig(Map.of()))
                .hasMessageContaining("model gpt-4o-mini is served twice");
    }

    @Test
    void shouldMapAnOutageOfOneServedModel() {
        SimulatorConfig config = parse("--serve", "gpt-4o", "--outage", "gpt-4o@30:90", "--outage", "100:110")
                .toConfig(Map.of());

        assertThat(config.faults().outages()).extracting(Object::toString).containsExactly("gpt-4o@30:90", "100:110");
        assertThat(config.faults().inOutage("gpt-4o", java.time.Duration.ofSeconds(30))).isTrue();
        assertThat(config.faults().inOutage("gpt-4o-mini", java.time.Duration.ofSeconds(30))).isFalse();
        assertThatThrownBy(() -> parse("--outage", "gpt-5@30:90").toConfig(Map.of()))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage("--outage gpt-5@30:90 names model gpt-5, which is not served; served: [gpt-4o-mini]");
    }

    @Test
    void shouldPrintEachModelsCountsWhenItStopsServingSeveral() throws Exception {
        SimulatorConfig config = parse("--port", "0", "--latency-ms", "0", "--per-token-ms", "0", "--serve", "gpt-4o")
                .toConfig(Map.of());
        try (ProviderSimulator sim = ProviderSimulator.start(config)) {
            java.net.http.HttpResponse<String> answer = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(sim.baseUrl() + "/chat/completions"))
                            .header("Authorization", "Bearer sk-any").POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                                    "{\"model\":\"gpt-4o\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                            .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(SimCommand.stoppedLine(sim.stats())).startsWith("Provider simulator stopped: 1 requests, 1 admitted, "
                    + "0 answered 429. By model: gpt-4o-mini 0 requests, 0 admitted, 0 answered 429, 0 answered 400, "
                    + "0 tokens used; gpt-4o 1 requests, 1 admitted, 0 answered 429, 0 answered 400, ");
        }
    }

    @Test
    void shouldDescribeTheSeveralModelOptionsInTheHelp() {
        StringWriter help = new StringWriter();
        CommandLine cl = new CommandLine(new SimCommand());
        cl.setOut(new PrintWriter(help));
        assertThat(cl.execute("--help")).isZero();
        // the usage lines wrap inside long option labels: compare without whitespace
        assertThat(help.toString().replaceAll("\\s+", "")).contains("--serve=NAME[:rpm=R,tpm=T,burst-seconds=S,"
                + "context-tokens=N,tokenizer=NAME,key-env=VAR]", "model_not_found", "/admin/models/NAME/down",
                "/admin/models/NAME/up", "--outage=[MODEL@]START:END", "key-env:thenameofavariable");
    }

    @Test
    void shouldRefuseAnUnknownQuotaflowVariableNamingTheClosestOne() {
        assertThatThrownBy(() -> parse().toConfig(Map.of("QUOTAFLOW_SIM_API_KEY", "sk-typo")))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessage("unknown environment variable QUOTAFLOW_SIM_API_KEY; did you mean QUOTAFLOW_SIM_API_KEYS?");
    }

    @Test
    void shouldLeaveThePipelinesOwnAndOtherVariablesAlone() {
        SimulatorConfig config = parse().toConfig(Map.of("QUOTAFLOW_BOOTSTRAP_SERVERS", "kafka:9092",
                "QUOTAFLOW_QUOTA_RPM", "60", "QUOTAFLOW_KAFKA_SASL_MECHANISM", "PLAIN", "QUOTAFLOW_LLM_API_KEY", "sk-x",
                "PATH", "/usr/bin", SimCommand.API_KEYS_ENV, "sk-a"));

        assertThat(config.rpm()).as("flags only: quota.rpm is the pipeline's").isEqualTo(SimulatorConfig.DEFAULT_RPM);
        assertThat(config.apiKeys()).containsExactly("sk-a");
    }

    @Test
    void shouldReadTheEnvironmentTheCommandLineGivesAndStopWithExitTwoOnATypo() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
                () -> QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true),
                        Map.of("QUOTAFLOW_SIM_APIKEYS", "sk-typo"), QuotaflowDevCommand.commands(), "sim", "--port", "0"));

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("unknown environment variable QUOTAFLOW_SIM_APIKEYS; did you mean "
                + "QUOTAFLOW_SIM_API_KEYS?").doesNotContain("sk-typo");
        assertThat(out.toString()).as("the simulator did not start").isEmpty();
    }

    @Test
    void shouldStopOnTheShutdownHookPrintTheTotalsAndReturnZero() throws Exception {
        SimCommand sim = new SimCommand();
        RecordingHooks hooks = new RecordingHooks();
        sim.hooks = hooks;
        sim.environment(Map.of());
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(sim).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(new StringWriter(), true));
        java.util.concurrent.CompletableFuture<Integer> exit = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> cli.execute("--port", "0", "--bind", "127.0.0.1"));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .untilAsserted(() -> assertThat(out.toString()).contains("Press Ctrl+C to stop."));
        java.util.regex.Matcher port = java.util.regex.Pattern.compile("listening on http://localhost:(\\d+)/v1")
                .matcher(out.toString());
        assertThat(port.find()).as(out.toString()).isTrue();

        Thread hook = hooks.signal();

        assertThat(exit.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(ExitCodes.OK);
        hook.join(5_000);
        assertThat(hook.isAlive()).isFalse();
        assertThat(out.toString()).contains("Provider simulator stopped: 0 requests, 0 admitted, 0 answered 429.");
        assertThatThrownBy(() -> new java.net.Socket("127.0.0.1", Integer.parseInt(port.group(1))).close())
                .as("the simulator no longer listens").isInstanceOf(java.io.IOException.class);
    }

    @Test
    void shouldServeAsAnEngineWhenAsked() {
        assertThat(parse().toConfig(Map.of()).engine()).isEmpty();
        assertThat(parse("--engine", "8/128").toConfig(Map.of()).engine()).contains(io.quotaflow.simulator.EngineMode.of(8, 128));
        assertThat(parse("--engine", "4/16/503").toConfig(Map.of()).engine().orElseThrow().refusalStatus()).isEqualTo(503);
        assertThatThrownBy(() -> parse("--engine", "16/8").toConfig(Map.of())).hasMessageContaining("max-running");
    }
}

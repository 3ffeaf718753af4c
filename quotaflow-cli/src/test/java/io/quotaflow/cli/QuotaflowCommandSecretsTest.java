package io.quotaflow.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** No command-line error ever prints the API key (issue 7), whatever the way it was passed. */
class QuotaflowCommandSecretsTest {

    static final String CANARY = "sk-LEAKCANARY0123456789abcdef2345";
    static final String MASKED = "sk-LEAKC********2345";

    private static CommandRun quotaflow(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new CommandRun(code, out.toString(), err.toString());
    }

    /** Neither the canary, nor its lower- or upper-cased or masked form, nor 8 characters of its body. */
    private static void assertNoCanary(CommandRun run) {
        String all = run.out() + run.err();
        assertThat(all).doesNotContain(CANARY).doesNotContain(MASKED);
        String lower = all.toLowerCase(Locale.ROOT);
        String body = CANARY.substring(3).toLowerCase(Locale.ROOT);
        for (int i = 0; i + 8 <= body.length(); i++) {
            assertThat(lower).as("output %s", all).doesNotContain(body.substring(i, i + 8));
        }
    }

    private static CommandRun assertRefused(String... args) {
        CommandRun run = quotaflow(args);
        assertNoCanary(run);
        assertThat(run.exitCode()).as("exit code, output %s", run.err()).isEqualTo(2);
        return run;
    }

    @Test
    void shouldNameAnUnknownKeyOptionButNeverItsValue() {
        for (String canary : List.of(CANARY, CANARY.toLowerCase(Locale.ROOT), MASKED)) {
            CommandRun run = assertRefused("run", "--llm-api-key", canary);
            assertThat(run.err()).contains("unknown option '--llm-api-key'").contains("1 value not shown")
                    .contains("QUOTAFLOW_LLM_API_KEY").contains("--llm-api-key-file");
        }
    }

    @Test
    void shouldCutAnUnknownOptionAtItsEqualsSign() {
        CommandRun run = assertRefused("run", "--llm-api-key=" + CANARY);
        assertThat(run.err()).contains("unknown option '--llm-api-key'").contains("QUOTAFLOW_LLM_API_KEY");
        run = assertRefused("run", "--api-key=" + CANARY.toLowerCase(Locale.ROOT), "--openai-key", CANARY);
        assertThat(run.err()).contains("unknown options '--api-key', '--openai-key'").contains("2 values not shown");
    }

    @Test
    void shouldNeverPrintTheValueAfterAnyUnknownOption() {
        CommandRun run = assertRefused("run", "--no-such-option", CANARY);
        assertThat(run.err()).contains("unknown option '--no-such-option'").contains("not shown")
                .contains("QUOTAFLOW_LLM_API_KEY");
    }

    @Test
    void shouldNeverPrintAStrayArgument() {
        CommandRun run = assertRefused("run", CANARY);
        assertThat(run.err()).contains("quotaflow run: unexpected argument").contains("not shown");
        run = assertRefused(CANARY.toLowerCase(Locale.ROOT));
        assertThat(run.err()).contains("quotaflow: unexpected argument").contains("not shown");
        run = assertRefused("run", "0123456789abcdefLEAKCANARY");
        assertThat(run.err()).contains("not shown");
    }

    @Test
    void shouldStillNameAMistypedSubcommand() {
        CommandRun run = quotaflow("rnu");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("unexpected argument 'rnu'");
    }

    @Test
    void shouldExplainAKeyFileProblemWithoutNamingTheFile() {
        CommandRun run = assertRefused("run", "--llm-api-key-file", CANARY);
        assertThat(run.err()).contains("--llm-api-key-file").contains("no such file");
        run = assertRefused("run", "--llm-api-key-file=" + CANARY.toLowerCase(Locale.ROOT));
        assertThat(run.err()).contains("--llm-api-key-file").contains("no such file");
    }

    @Test
    void shouldRefuseTheKeyAsAKafkaProperty() {
        for (String[] args : List.of(
                new String[] {"run", "-X", "llm.api-key=" + CANARY},
                new String[] {"run", "-Xllm.api-key=" + CANARY},
                new String[] {"run", "--kafka-property", "kafka.llm.api-key=" + CANARY},
                new String[] {"run", "--kafka-property=llm.api_key=" + CANARY},
                new String[] {"run", "--client-property", "api.key=" + CANARY},
                new String[] {"run", "-X", "llm.apikey=" + CANARY.toLowerCase(Locale.ROOT)})) {
            CommandRun run = assertRefused(args);
            assertThat(run.err()).contains("'-X ").contains("is refused").contains("QUOTAFLOW_LLM_API_KEY")
                    .contains("--llm-api-key-file");
        }
    }

    @Test
    void shouldRefuseTheKeyAsAKafkaPropertyForEveryKafkaCommand() {
        for (String[] args : List.of(
                new String[] {"publish", "--bootstrap-servers", "localhost:1", "--file", "-", "-X", "llm.api-key=" + CANARY},
                new String[] {"results", "--bootstrap-servers", "localhost:1", "-X", "api-key=" + CANARY},
                new String[] {"dlq", "stats", "--bootstrap-servers", "localhost:1", "-X", "llm.api-key=" + CANARY},
                new String[] {"topics", "apply", "--bootstrap-servers", "localhost:1", "-X", "llm.api-key=" + CANARY})) {
            CommandRun run = assertRefused(args);
            assertThat(run.err()).as(String.join(" ", args)).contains("'-X ").contains("is refused");
        }
    }

    @Test
    void shouldNotEchoAMalformedKafkaProperty() {
        CommandRun run = assertRefused("run", "-X", CANARY);
        assertThat(run.err()).contains("invalid value for option").contains("-X").contains("KEY=VALUE");
    }

    @Test
    void shouldRefuseTheKeyInTheConfigFile(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("quotaflow.properties"),
                "bootstrap.servers=localhost:1\nllm.base-url=http://localhost:1/v1\nllm.api-key=" + CANARY + "\n");
        CommandRun run = assertRefused("run", "--config", config.toString());
        assertThat(run.err()).contains("'llm.api-key' in the config file is refused").contains("QUOTAFLOW_LLM_API_KEY");
    }

    @Test
    void shouldRedactAKeyGivenToAnOrdinaryOption() {
        CommandRun run = assertRefused("run", "--rpm", CANARY);
        assertThat(run.err()).contains("--rpm");
        run = assertRefused("run", "--rpm", CANARY.toLowerCase(Locale.ROOT));
        assertThat(run.err()).contains("--rpm");
    }

    @Test
    void shouldNeverEchoTheKeyFromOtherSubcommands() {
        CommandRun run = assertRefused("publish", "--bootstrap-servers", "localhost:1", "--file", "-", "--llm-api-key", CANARY);
        assertThat(run.err()).contains("quotaflow publish: unknown option '--llm-api-key'");
        run = assertRefused("results", "--llm-api-key=" + CANARY);
        assertThat(run.err()).contains("unknown option '--llm-api-key'");
    }

    @Test
    void shouldAcceptKafkasOwnSecretsWithoutEverPrintingThem() {
        CommandRun run = assertRefused("run", "--bootstrap-servers", "localhost:1", "--llm-base-url", "http://localhost:1/v1",
                "-X", "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\""
                        + CANARY + "\";",
                "-X", "ssl.keystore.password=" + CANARY, "--llm-api-key-file", "/nonexistent/key");
        assertThat(run.err()).doesNotContain("is refused").contains("--llm-api-key-file").contains("no such file");
    }

    @Test
    void shouldRedactExecutionErrorsWithTheSuspectValues() {
        SafeErrors safe = new SafeErrors(new String[] {"run", "-X", "ssl.key.password=hunter2hunter2", "--llm-api-key-file", "notapath"},
                Map.of("QUOTAFLOW_LLM_API_KEY", "0123456789abcdefLEAKY"), false);
        assertThat(safe.clean("bad key 0123456789ABCDEFleaky, password hunter2hunter2 in notapath"))
                .isEqualTo("bad key ***, password *** in ***");
        assertThat(safe.clean("Rate limit reached: Limit 30000, Used 29000, Requested 1500. Please try again in 2.5s."))
                .isEqualTo("Rate limit reached: Limit 30000, Used 29000, Requested 1500. Please try again in 2.5s.");
    }

    @Test
    void shouldShowTheTicketKeysOfDlqShowAndReplayButMaskAKeyGivenToAnotherCommand() {
        for (String command : new String[] {"show", "replay"}) {
            SafeErrors safe = new SafeErrors(new String[] {"dlq", command, "--key", "ABC-1", "--key=TICKET-77"}, Map.of(), false);
            assertThat(safe.clean("no dead letter matched (filters: key in [ABC-1, TICKET-77])"))
                    .isEqualTo("no dead letter matched (filters: key in [ABC-1, TICKET-77])");
        }
        SafeErrors run = new SafeErrors(new String[] {"run", "--key", "hunter2hunter2"}, Map.of(), false);
        assertThat(run.clean("unknown value hunter2hunter2")).isEqualTo("unknown value ***");
    }
}

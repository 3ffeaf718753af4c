package io.quotaflow.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class ResultsCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = new CommandLine(new ResultsCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void shouldRejectNonPositiveMaxAndIdleTimeout() {
        assertThat(run("--bootstrap-servers", "localhost:1", "--max", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--max must be at least 1");
        assertThat(run("--bootstrap-servers", "localhost:1", "--idle-timeout", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--idle-timeout must be a positive number");
    }

    @Test
    void shouldRefuseAnIdleTimeoutThatFollowOrUntilEndWouldIgnore() {
        // a client setting no consumer takes: were the idle timeout not refused first, the run would stop there, not wait
        int follow = run("--bootstrap-servers", "localhost:1", "-X", "request.timeout.ms=oops", "--follow", "--idle-timeout", "5");
        String followErr = err.toString();
        err.getBuffer().setLength(0);
        int untilEnd = run("--bootstrap-servers", "localhost:1", "-X", "request.timeout.ms=oops", "--until-end", "--idle-timeout", "5");

        assertThat(follow).isEqualTo(ExitCodes.USAGE);
        assertThat(followErr).contains("--idle-timeout does not apply with --follow, which never exits on idle");
        assertThat(untilEnd).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("--idle-timeout does not apply with --until-end, which never exits on idle");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void shouldDescribeItselfInHelp() {
        int code = run("--help");

        assertThat(code).isZero();
        assertThat(out.toString()).contains("--from-beginning", "--follow", "--max", "--idle-timeout", "read_committed")
                .doesNotContain("--topic=").doesNotContain("--topic ");
    }
    @Test
    void shouldParseOptions() {
        ResultsCommand command = new ResultsCommand();
        new CommandLine(command).parseArgs("--bootstrap-servers", "b:9092", "--from-beginning", "--follow",
                "--max", "5", "--idle-timeout", "2.5", "-X", "security.protocol=SSL");

        assertThat(command.fromBeginning).isTrue();
        assertThat(command.follow).isTrue();
        assertThat(command.max).isEqualTo(5L);
        assertThat(command.idleTimeoutSeconds).isEqualTo(2.5);
        assertThat(command.topic).isEqualTo("tickets.classified");
        assertThat(command.kafka.clientProperties()).containsEntry("security.protocol", "SSL");
    }

    @Test
    void shouldDefaultIdleTimeoutToTenSeconds() {
        ResultsCommand command = new ResultsCommand();
        new CommandLine(command).parseArgs("--bootstrap-servers", "b:9092");

        assertThat(command.idleTimeoutSeconds).isEqualTo(10.0);
        assertThat(command.max).isNull();
        assertThat(command.fromBeginning).isFalse();
    }
}

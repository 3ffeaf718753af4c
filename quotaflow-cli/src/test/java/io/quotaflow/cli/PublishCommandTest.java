package io.quotaflow.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class PublishCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(Object command, String... args) {
        CommandLine cli = new CommandLine(command);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void shouldExitWithUsageErrorWhenFileIsMissing(@TempDir Path dir) {
        Path missing = dir.resolve("nope.jsonl");

        int code = run(new PublishCommand(), "--bootstrap-servers", "localhost:1", "--file", missing.toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("publish: file not found: ").contains("nope.jsonl");
    }

    @Test
    void shouldExitWithUsageErrorWhenFileIsADirectory(@TempDir Path dir) {
        int code = run(new PublishCommand(), "--bootstrap-servers", "localhost:1", "--file", dir.toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("not a regular file");
    }

    @Test
    void shouldRejectUnknownPriority() {
        int code = run(new PublishCommand(), "--bootstrap-servers", "localhost:1", "--file", "-", "--priority", "urgent");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("expected interactive, standard or bulk");
    }

    @Test
    void shouldRequireBootstrapServersAndFile() {
        assertThat(run(new PublishCommand(), "--file", "x")).isEqualTo(2);
        assertThat(err.toString()).contains("--bootstrap-servers");
        assertThat(run(new PublishCommand(), "--bootstrap-servers", "localhost:1")).isEqualTo(2);
        assertThat(err.toString()).contains("--file");
    }

    @Test
    void shouldParseClientPropertiesAndOptions() {
        PublishCommand command = new PublishCommand();
        new CommandLine(command).parseArgs("--bootstrap-servers", "b:9092", "--file", "f", "--priority", "BULK",
                "--send-invalid", "-X", "security.protocol=SSL", "-Xcompression.type=zstd");

        assertThat(command.kafka.bootstrapServers()).isEqualTo("b:9092");
        assertThat(command.kafka.clientProperties())
                .containsEntry("security.protocol", "SSL")
                .containsEntry("compression.type", "zstd");
        assertThat(command.priority).isEqualTo(io.quotaflow.records.Priority.BULK);
        assertThat(command.sendInvalid).isTrue();
        assertThat(command.json).isFalse();
        new CommandLine(command).parseArgs("--bootstrap-servers", "b:9092", "--file", "f", "--json");
        assertThat(command.json).isTrue();
    }

    @Test
    void shouldReportInvalidClientPropertiesAsUsageError(@TempDir Path dir) throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("t.jsonl"), "{\"id\":\"T-1\",\"body\":\"x\"}\n");

        int code = run(new PublishCommand(), "--bootstrap-servers", "localhost:1", "--file", file.toString(),
                "-X", "acks=sometimes");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("invalid Kafka client settings").contains("acks");
    }

    @Test
    void shouldDescribeItselfInHelp() {
        int code = run(new PublishCommand(), "--help");

        assertThat(code).isZero();
        assertThat(out.toString()).contains("--bootstrap-servers", "--file", "--priority", "--send-invalid", "--json",
                "-X", "accepted acme:T-123 tickets.standard-2@17", "The record key is the ticket's key, tenant:id", "Exit codes").doesNotContain("--version");
    }
}

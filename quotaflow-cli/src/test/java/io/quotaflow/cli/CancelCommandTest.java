package io.quotaflow.cli;

import io.quotaflow.publish.Accepted;
import io.quotaflow.publish.CancelOutcome;
import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CancelCommandTest {

    @Test
    void shouldRequireAtLeastOneId() {
        CommandRun run = CommandRun.of(new CancelCommand(), "--bootstrap-servers", "localhost:1");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("Missing required parameter: 'ID'");
    }

    @Test
    void shouldRefuseABlankIdAsAUsageErrorBeforeTalkingToTheCluster() {
        CommandRun run = CommandRun.of(new CancelCommand(), "--bootstrap-servers", "localhost:1", "T-1", " ");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).isEqualTo("cancel: a ticket id must not be blank\n");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void shouldTakeTheTenantOfTheVariableItsHelpNamesFromTheCommandsEnvironment() {
        CancelCommand command = new CancelCommand();
        command.kafka.environment(java.util.Map.of("QUOTAFLOW_CANCEL_TENANT", "not:a-tenant"));

        CommandRun run = CommandRun.of(command, "--bootstrap-servers", "localhost:1", "T-1");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).as("the variable is known, read, and its value checked as --tenant's")
                .startsWith("cancel: --tenant must be 1 to").doesNotContain("unknown environment variable");
    }

    @Test
    void shouldRefuseAnEmptyStandardInputAsAUsageError() {
        CancelCommand command = new CancelCommand();
        command.stdin = new java.io.ByteArrayInputStream(new byte[0]);

        CommandRun run = CommandRun.of(command, "--bootstrap-servers", "localhost:1", "-");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("no ticket id given");
    }

    @Test
    void shouldRejectAnUnknownPriority() {
        CommandRun run = CommandRun.of(new CancelCommand(), "--bootstrap-servers", "localhost:1", "--priority", "urgent",
                "T-1");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("expected interactive, standard or bulk");
    }

    @Test
    void shouldParseTheSharedClusterOptionsPriorityAndIds() {
        CancelCommand command = new CancelCommand();
        new CommandLine(command).parseArgs("--bootstrap-servers", "b:9092", "--topics-prefix", "team-a.", "-X",
                "security.protocol=SSL", "--priority", "BULK", "T-1", "-", "42");

        assertThat(command.kafka.bootstrapServers()).isEqualTo("b:9092");
        assertThat(command.kafka.topics().input(Priority.BULK)).isEqualTo("team-a.tickets.bulk");
        assertThat(command.kafka.clientProperties()).containsEntry("security.protocol", "SSL");
        assertThat(command.priority).isEqualTo(Priority.BULK);
        assertThat(command.ids).containsExactly("T-1", "-", "42");
    }

    @Test
    void shouldPrintOneLinePerIdWrittenAndFailuresAndTheSummaryOnStderr() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<CancelOutcome> outcomes = List.of(
                new CancelOutcome.Written("T-1", List.of(new Accepted("T-1", "tickets.standard", 1, 9),
                        new Accepted("T-1", "tickets.bulk", 0, 2))),
                new CancelOutcome.Failed("T-2", List.of(), "tickets.standard", "TimeoutException: no answer"),
                new CancelOutcome.Written("T-3", List.of(new Accepted("T-3", "tickets.standard", 0, 10),
                        new Accepted("T-3", "tickets.bulk", 0, 3))));

        int code = CancelCommand.report(outcomes, List.of("tickets.standard", "tickets.bulk"),
                new PrintWriter(out, true), new PrintWriter(err, true));

        assertThat(code).isEqualTo(ExitCodes.FAILURE);
        assertThat(out.toString().split("\\R")).containsExactly(
                "tombstone T-1 tickets.standard-1@9 tickets.bulk-0@2",
                "tombstone T-3 tickets.standard-0@10 tickets.bulk-0@3");
        assertThat(err.toString().split("\\R")).containsExactly(
                "cancel: T-2: tombstone to tickets.standard not acknowledged: TimeoutException: no answer",
                "wrote tombstones for 2 ids to tickets.standard, tickets.bulk; FAILED: 1 id not acknowledged");
    }

    @Test
    void shouldExitZeroWhenEveryTombstoneWasAcknowledged() {
        StringWriter err = new StringWriter();
        int code = CancelCommand.report(List.of(new CancelOutcome.Written("T-1",
                        List.of(new Accepted("T-1", "tickets.bulk", 0, 0)))), List.of("tickets.bulk"),
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));

        assertThat(code).isEqualTo(ExitCodes.OK);
        assertThat(err.toString()).isEqualTo("wrote tombstones for 1 id to tickets.bulk" + System.lineSeparator());
    }

    @Test
    void shouldDescribeItselfInHelp() {
        CommandRun run = CommandRun.of(new CancelCommand(), "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("--bootstrap-servers", "--topics-prefix", "--priority", "-X", "ID",
                "tombstone", "Exit codes");
    }
}

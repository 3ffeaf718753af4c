package io.quotaflow.cli;

import io.quotaflow.dlq.DeadLetterReport;
import io.quotaflow.dlq.ReplayOptions;
import io.quotaflow.dlq.ReplaySummary;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DlqCommandTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    private static DlqCommand.Replay replay(String... args) {
        DlqCommand.Replay command = new DlqCommand.Replay();
        command.now = () -> NOW;
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void shouldMapTheReplayOptions() {
        ReplayOptions o = replay("--bootstrap-servers", "b:9092", "--since", "2h", "--until", "2026-11-30T11:30:00Z",
                "--kind", "retries-exhausted,bad-input", "--kind", "too-large", "--status", "503", "--status", "529,0",
                "--key", "T-1", "--key", "T,2", "--dry-run", "--rate", "12.5", "--group", "ops", "--max-replays", "5",
                "--reset", "--max-records", "100").options();

        assertThat(o.since()).isEqualTo(Instant.parse("2026-11-30T10:00:00Z"));
        assertThat(o.until()).isEqualTo(Instant.parse("2026-11-30T11:30:00Z"));
        assertThat(o.kinds()).containsExactly("retries-exhausted", "bad-input", "too-large");
        assertThat(o.statuses()).containsExactly("503", "529", "0");
        assertThat(o.keys()).as("keys are exact: no comma splitting").containsExactly("T-1", "T,2");
        assertThat(o.dryRun()).isTrue();
        assertThat(o.ratePerSecond()).isEqualTo(12.5);
        assertThat(o.groupId()).isEqualTo("ops");
        assertThat(o.transactionalId()).isEqualTo("quotaflow-dlq-replay-ops");
        assertThat(o.maxReplays()).isEqualTo(5);
        assertThat(o.reset()).isTrue();
        assertThat(o.maxRecords()).isEqualTo(100);
        assertThat(o.dlqTopic()).isEqualTo("tickets.dlq");
    }

    @Test
    void shouldDefaultToTheDocumentedValues() {
        assertThat(replay("--bootstrap-servers", "b:9092").options()).isEqualTo(ReplayOptions.builder().build());
    }

    @Test
    void shouldExitWithTwoOnUsageErrors() {
        for (String[] args : List.of(
                new String[] {"--since", "yesterday"},
                new String[] {"--since", "1h", "--until", "2h"},
                new String[] {"--rate", "-1"},
                new String[] {"--max-replays", "0"},
                new String[] {"--status", "server-error"},
                new String[] {"--max-records", "0"})) {
            String[] full = new String[args.length + 2];
            full[0] = "--bootstrap-servers";
            full[1] = "localhost:1";
            System.arraycopy(args, 0, full, 2, args.length);
            CommandRun run = CommandRun.of(new DlqCommand.Replay(), full);
            assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.err()).as(String.join(" ", args)).startsWith("dlq replay: ");
        }
        assertThat(CommandRun.of(new DlqCommand.Replay()).exitCode()).as("--bootstrap-servers is required").isEqualTo(2);
        assertThat(CommandRun.of(new DlqCommand.Replay(), "--bootstrap-servers", "b", "--rate", "fast").exitCode())
                .isEqualTo(2);
        assertThat(CommandRun.of(new DlqCommand()).exitCode()).as("a subcommand is required").isEqualTo(2);
        assertThat(CommandRun.of(new DlqCommand.Stats()).exitCode()).isEqualTo(2);
    }

    @Test
    void shouldBeASubcommandOfQuotaflowWithHelpExplainingResetAndExactlyOnce() {
        CommandLine root = new CommandLine(new QuotaflowCommand());
        assertThat(root.getSubcommands()).containsKey("dlq");
        assertThat(root.getSubcommands().get("dlq").getSubcommands()).containsKeys("stats", "replay");

        StringWriter help = new StringWriter();
        root.setOut(new PrintWriter(help));
        assertThat(root.execute("dlq", "replay", "--help")).isZero();
        String text = help.toString().replaceAll("\\s+", " ");
        assertThat(text).contains("--since", "--until", "--kind", "--status", "--key", "--dry-run", "--rate",
                "--group", "--max-replays", "--reset", "--max-records", "-X", "Default: 50", "Default: quotaflow-dlq-replay",
                "Default: 3", "quotaflow-dlq-replay-<group>", "does not see the records the first one "
                        + "passed over", "qf.replay.count", "qf.replay.of", "2 usage error");
        assertThat(text).doesNotContain("--topic=").doesNotContain("--topic ");
    }

    @Test
    void shouldPrintTheStatsAsTables() {
        DeadLetterReport report = new DeadLetterReport("tickets.dlq", 30,
                Map.of("retries-exhausted", 20L), Map.of("503", 20L), Map.of("tickets.interactive", 20L),
                Instant.parse("2026-11-30T06:00:00Z"), Instant.parse("2026-11-30T06:29:00Z"),
                List.of(new DeadLetterReport.MessageCount("HTTP 503: overloaded", 12),
                        new DeadLetterReport.MessageCount("not JSON", 8)), 3, Map.of("0", 27L, "1", 3L), false);

        String table = DlqCommand.table(report);

        assertThat(table).startsWith("tickets.dlq: 30 dead letters, oldest 2026-11-30T06:00:00Z, newest 2026-11-30T06:29:00Z\n"
                + "replayed before (qf.replay.count > 0): 3\n");
        assertThat(table).contains("\nerror kind         count\nretries-exhausted     20\n");
        assertThat(table).contains("\norigin topic         count\ntickets.interactive     20\n");
        assertThat(table).contains("\ntop error messages\n  12  HTTP 503: overloaded\n   8  not JSON\n");
        assertThat(DlqCommand.table(new DeadLetterReport("tickets.dlq", 0, Map.of(), Map.of(), Map.of(), null, null,
                List.of(), 0, Map.of(), false))).isEqualTo("tickets.dlq: no dead letters\n");
    }

    @Test
    void shouldDescribeTheReplaySummary() {
        ReplayOptions options = ReplayOptions.builder().build();
        ReplaySummary done = new ReplaySummary(false, ReplaySummary.Outcome.COMPLETED, 30, 19, 10, 1,
                Map.of("tickets.interactive", 10L), Map.of("retries-exhausted", 19L), 0, Duration.ofMillis(1_234));
        assertThat(DlqCommand.describe(done, options)).isEqualTo("Replay complete in 1.2 s\n"
                + "  replayed                 19\n"
                + "  skipped (filters)        10\n"
                + "  skipped (max replays 3)   1\n"
                + "  examined                 30\n"
                + "replayed to:\n"
                + "  tickets.interactive  10\n"
                + "by error kind:\n"
                + "  retries-exhausted  19\n");

        ReplaySummary dry = new ReplaySummary(true, ReplaySummary.Outcome.COMPLETED, 3, 2, 1, 0, Map.of(), Map.of(), 0,
                Duration.ZERO);
        assertThat(DlqCommand.describe(dry, options)).startsWith("Dry run complete (nothing written, no offsets committed)")
                .containsPattern("\n  would be replayed +2\n");

        ReplaySummary stopped = new ReplaySummary(false, ReplaySummary.Outcome.STOPPED, 3, 2, 1, 0, Map.of(), Map.of(),
                40, Duration.ZERO);
        assertThat(DlqCommand.describe(stopped, options)).startsWith("Replay stopped on request; run again to continue")
                .contains("left (at most)", "40");
        assertThat(done.toJson().toString()).contains("\"outcome\":\"completed\"", "\"replayed\":19", "\"elapsedMs\":1234");
        assertThat(stopped.progressLine()).isEqualTo("replay: 3 examined, 2 replayed, 1 filtered out, 0 over max replays, 40 left");
    }
}

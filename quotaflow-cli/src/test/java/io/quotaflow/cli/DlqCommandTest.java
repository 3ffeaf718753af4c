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

    private static DlqReplayCommand replay(String... args) {
        DlqReplayCommand command = new DlqReplayCommand();
        command.now = () -> NOW;
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void shouldMapTheReplayOptions() {
        ReplayOptions o = replay("--bootstrap-servers", "b:9092", "--since", "2h", "--until", "2026-11-30T11:30:00Z",
                "--kind", "retries-exhausted,bad-input", "--kind", "too-large", "--status", "503", "--status", "529,0",
                "--key", "T-1", "--key", "T,2", "--dry-run", "--force", "--rate", "12.5", "--group", "ops", "--max-replays", "5",
                "--reset", "--max-records", "100").options();

        assertThat(o.since()).isEqualTo(Instant.parse("2026-11-30T10:00:00Z"));
        assertThat(o.until()).isEqualTo(Instant.parse("2026-11-30T11:30:00Z"));
        assertThat(o.kinds()).containsExactly("retries-exhausted", "bad-input", "too-large");
        assertThat(o.statuses()).containsExactly("503", "529", "0");
        assertThat(o.keys()).as("keys are exact: no comma splitting").containsExactly("T-1", "T,2");
        assertThat(o.dryRun()).isTrue();
        assertThat(o.force()).isTrue();
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
        ReplayOptions defaults = replay("--bootstrap-servers", "b:9092").options();
        assertThat(defaults).isEqualTo(ReplayOptions.builder().build());
        assertThat(defaults.ratePerSecond()).as("no rate limit unless --rate").isZero();
        assertThat(defaults.force()).isFalse();
        assertThat(ReplaySummaryText.headline(defaults)).isEqualTo("Replaying tickets.dlq (group quotaflow-dlq-replay, "
                + "filters: none, max replays 3, rate no limit)");
    }

    @Test
    void shouldDefaultTheGroupUnderTheTopicsPrefixUnlessOneIsGiven() {
        ReplayOptions prefixed = replay("--bootstrap-servers", "b:9092", "--topics-prefix", "team-a.").options();
        assertThat(prefixed.dlqTopic()).isEqualTo("team-a.tickets.dlq");
        assertThat(prefixed.groupId()).isEqualTo("team-a.quotaflow-dlq-replay");
        assertThat(prefixed.transactionalId()).isEqualTo("quotaflow-dlq-replay-team-a.quotaflow-dlq-replay");
        assertThat(replay("--bootstrap-servers", "b:9092", "--topics-prefix", "team-a.", "--group", "ops").options()
                .groupId()).as("an explicit --group wins").isEqualTo("ops");
        assertThat(replay("--bootstrap-servers", "b:9092", "--topics-prefix", "team-a.", "--group",
                "quotaflow-dlq-replay").options().groupId()).as("even when it is the unprefixed default")
                .isEqualTo("quotaflow-dlq-replay");
        assertThat(ReplaySummaryText.headline(prefixed)).startsWith("Replaying team-a.tickets.dlq (group "
                + "team-a.quotaflow-dlq-replay, ");
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
            CommandRun run = CommandRun.of(new DlqReplayCommand(), full);
            assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.err()).as(String.join(" ", args)).startsWith("dlq replay: ");
        }
        assertThat(CommandRun.of(new DlqReplayCommand()).exitCode()).as("--bootstrap-servers is required").isEqualTo(2);
        assertThat(CommandRun.of(new DlqReplayCommand(), "--bootstrap-servers", "b", "--rate", "fast").exitCode())
                .isEqualTo(2);
        assertThat(CommandRun.of(new DlqCommand()).exitCode()).as("a subcommand is required").isEqualTo(2);
        assertThat(CommandRun.of(new DlqStatsCommand()).exitCode()).isEqualTo(2);
    }

    @Test
    void shouldBeASubcommandOfQuotaflowWithHelpExplainingResetAndExactlyOnce() {
        CommandLine root = new CommandLine(new QuotaflowCommand());
        assertThat(root.getSubcommands()).containsKey("dlq");
        assertThat(root.getSubcommands().get("dlq").getSubcommands()).containsKeys("stats", "show", "replay");

        StringWriter help = new StringWriter();
        root.setOut(new PrintWriter(help));
        assertThat(root.execute("dlq", "replay", "--help")).isZero();
        String text = help.toString().replaceAll("\\s+", " ");
        assertThat(text).contains("--since", "--until", "--kind", "--status", "--key", "--dry-run", "--rate",
                "--group", "--max-replays", "--reset", "--max-records", "--force", "-X", "--rate=N Write at most N records per second; 0 = no limit",
                "Default: 0.", "No rate limit by default", "held back and counted unless --force",
                "Default: <topics.prefix>quotaflow-dlq-replay", "fences it before reading the group's offsets",
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

        String table = DlqStatsTable.render(report);

        assertThat(table).startsWith("tickets.dlq: 30 dead letters, oldest 2026-11-30T06:00:00Z, newest 2026-11-30T06:29:00Z\n"
                + "replayed before (qf.replay.count > 0): 3\n");
        assertThat(table).contains("\nerror kind         count\nretries-exhausted     20\n");
        assertThat(table).contains("\norigin topic         count\ntickets.interactive     20\n");
        assertThat(table).contains("\ntop error messages\n  12  HTTP 503: overloaded\n   8  not JSON\n");
        assertThat(DlqStatsTable.render(new DeadLetterReport("tickets.dlq", 0, Map.of(), Map.of(), Map.of(), null, null,
                List.of(), 0, Map.of(), false))).isEqualTo("tickets.dlq: no dead letters\n");
    }

    @Test
    void shouldDescribeTheReplaySummary() {
        ReplayOptions options = ReplayOptions.builder().build();
        ReplaySummary done = new ReplaySummary(false, ReplaySummary.Outcome.COMPLETED, 30, 19, 10, 1,
                Map.of("tickets.interactive", 10L), Map.of("retries-exhausted", 19L), 0, Duration.ofMillis(1_234));
        assertThat(ReplaySummaryText.describe(done, options)).isEqualTo("Replay complete in 1.2 s\n"
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
        assertThat(ReplaySummaryText.describe(dry, options)).startsWith("Dry run complete (nothing written, no offsets committed)")
                .containsPattern("\n  would be replayed +2\n");

        ReplaySummary stopped = new ReplaySummary(false, ReplaySummary.Outcome.STOPPED, 3, 2, 1, 0, Map.of(), Map.of(),
                40, Duration.ZERO);
        assertThat(ReplaySummaryText.describe(stopped, options)).startsWith("Replay stopped on request; run again to continue")
                .contains("left (about)", "40");
        assertThat(done.toJson().toString()).contains("\"outcome\":\"completed\"", "\"replayed\":19", "\"elapsedMs\":1234");
        assertThat(stopped.progressLine()).isEqualTo("replay: 3 examined, 2 replayed, 1 filtered out, 0 need --force, "
                + "0 over max replays, ~40 left, 0/s");
    }

    @Test
    void shouldSayWhyDeadLettersWereHeldBackAndHowToForceThem() {
        ReplaySummary held = new ReplaySummary(false, ReplaySummary.Outcome.COMPLETED, 10, 7, 0, 0, Map.of(), Map.of(), 0,
                Duration.ZERO, 0, Map.of("bad-input", 2L, "too-large", 1L));
        String text = ReplaySummaryText.describe(held, ReplayOptions.builder().build());
        assertThat(text).containsPattern("\n  skipped \\(need --force\\) +3\n").contains("held back (need --force):\n");
        String why = ReplaySummaryText.heldBack(held);
        assertThat(why).contains("dlq replay: held back 2 bad-input dead letters: the value is not a valid ticket")
                .contains("dlq replay: held back 1 too-large dead letter: the ticket alone exceeds the model's context window")
                .contains("quotaflow dlq replay --kind bad-input,too-large --force --reset");
        assertThat(ReplaySummaryText.heldBack(new ReplaySummary(false, ReplaySummary.Outcome.COMPLETED, 1, 1, 0, 0, Map.of(),
                Map.of(), 0, Duration.ZERO))).isEmpty();
    }

    @Test
    void shouldWarnUpFrontWhenAKindNeedsForce() {
        ReplayOptions asked = replay("--bootstrap-servers", "b:9092", "--kind", "retries-exhausted,bad-input",
                "--kind", "too-large").options();
        assertThat(asked.force()).isFalse();
        assertThat(ReplaySummaryText.forceWarnings(asked)).containsExactly(
                "dlq replay: bad-input dead letters are held back without --force: the value is not a valid ticket, so "
                        + "intake would dead-letter the same bytes again; fix the ticket and publish it anew",
                "dlq replay: too-large dead letters are held back without --force: the ticket alone exceeds the model's "
                        + "context window, so it would be dead-lettered again unless the route's context (or "
                        + "context-fallback) grew");
        assertThat(ReplaySummaryText.forceWarnings(asked.toBuilder().force(true).build())).isEmpty();
        assertThat(ReplaySummaryText.forceWarnings(ReplayOptions.builder().build())).as("no --kind: the summary says it").isEmpty();
        assertThat(ReplaySummaryText.headline(asked.toBuilder().force(true).build())).contains(", --force");
    }

    @Test
    void shouldMapTheShowOptionsAndRejectBadOnes() {
        DlqShowCommand show = new DlqShowCommand();
        new CommandLine(show).parseArgs("--bootstrap-servers", "b", "--key", "T-1", "--key", "T,2", "--offset", "3:1042",
                "--offset", "7", "--kind", "bad-input,too-large", "--max", "4");
        io.quotaflow.dlq.DeadLetterQuery q = show.query();
        assertThat(q.keys()).containsExactly("T-1", "T,2");
        assertThat(q.positions()).containsExactly(new io.quotaflow.dlq.DeadLetterQuery.Position(3, 1042),
                new io.quotaflow.dlq.DeadLetterQuery.Position(null, 7));
        assertThat(q.kinds()).containsExactly("bad-input", "too-large");
        assertThat(q.max()).isEqualTo(4);
        assertThat(q.matches(3, 1042, "T-1", "bad-input")).isTrue();
        assertThat(q.matches(5, 7, "T,2", "too-large")).as("an offset without partition matches any").isTrue();
        assertThat(q.matches(2, 1042, "T-1", "bad-input")).isFalse();
        assertThat(q.matches(3, 1042, "T-3", "bad-input")).isFalse();
        assertThat(q.matches(3, 1042, "T-1", "retries-exhausted")).isFalse();

        DlqShowCommand defaults = new DlqShowCommand();
        new CommandLine(defaults).parseArgs("--bootstrap-servers", "b");
        assertThat(defaults.query().max()).isEqualTo(10);
        assertThat(defaults.query().describe()).isEqualTo("none");

        for (String[] args : List.of(new String[] {"--offset", "x"}, new String[] {"--offset", "1:y"},
                new String[] {"--offset", "-1"}, new String[] {"--max", "0"})) {
            CommandRun run = CommandRun.of(new DlqShowCommand(), concat(new String[] {"--bootstrap-servers", "localhost:1"}, args));
            assertThat(run.exitCode()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.err()).as(String.join(" ", args)).startsWith("dlq show: ");
        }
    }

    @Test
    void shouldRenderADeadLetterWithEveryHeaderOnOneLineEach() {
        org.apache.kafka.common.header.internals.RecordHeaders h = new org.apache.kafka.common.header.internals.RecordHeaders();
        h.add("qf.error.kind", "bad-input".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        h.add("qf.error.message", "not JSON:\nline 2".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        h.add("trace-bin", new byte[] {(byte) 0xff, 0x00});
        org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]> r = new org.apache.kafka.clients.consumer.ConsumerRecord<>(
                "tickets.dlq", 2, 17, 1_764_482_405_000L, org.apache.kafka.common.record.TimestampType.CREATE_TIME, 0, 0,
                "T-1".getBytes(java.nio.charset.StandardCharsets.UTF_8), new byte[] {'n', 'o', (byte) 0xff}, h,
                java.util.Optional.empty());

        String text = DeadLetterText.render(io.quotaflow.dlq.DeadLetterView.of(r));

        assertThat(text).isEqualTo("tickets.dlq 2:17  2025-11-30T06:00:05Z  key T-1\n"
                + "  qf.error.kind               bad-input\n"
                + "  qf.error.message            not JSON:\\nline 2\n"
                + "  trace-bin                   base64:/wA=\n"
                + "  value (3 bytes, not UTF-8)  base64:bm//\n");
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}

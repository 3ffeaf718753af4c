package io.quotaflow.cli;

import io.quotaflow.dlq.DeadLetterException;
import io.quotaflow.dlq.DeadLetterReplayer;
import io.quotaflow.dlq.DeadLetterReport;
import io.quotaflow.dlq.DeadLetterStats;
import io.quotaflow.dlq.ReplayOptions;
import io.quotaflow.dlq.ReplaySummary;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.topology.Topics;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** {@code quotaflow dlq}: inspect and replay the dead-letter topic. */
@Command(name = "dlq", sortOptions = false,
        headerHeading = "%n", synopsisHeading = "Usage: ",
        header = "Inspect and replay the dead-letter topic (tickets.dlq).",
        descriptionHeading = "%nDescription:%n",
        description = {
            "Dead letters keep the ticket's original bytes and key; their qf.* headers say why they failed "
                    + "(qf.error.kind, qf.error.status, qf.error.message) and where they came from "
                    + "(qf.origin.topic). 'stats' summarises them; 'replay' writes selected ones back to their "
                    + "origin topics, exactly once."
        },
        optionListHeading = "%nOptions:%n",
        commandListHeading = "%nCommands:%n",
        subcommands = {DlqCommand.Stats.class, DlqCommand.Replay.class})
public final class DlqCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand (stats or replay)");
    }

    /** Error kinds the pipeline writes; others only draw a warning (the set may grow). */
    static final Set<String> KNOWN_KINDS = Set.copyOf(ErrorKind.deadLetterKinds());

    // ---------------------------------------------------------------- stats

    /** {@code quotaflow dlq stats}. */
    @Command(name = "stats", sortOptions = false,
            headerHeading = "%n", synopsisHeading = "Usage: ",
            header = "Summarise the dead letters: counts by error kind, status and origin topic, age, top messages.",
            descriptionHeading = "%nDescription:%n",
            description = {
                "Reads tickets.dlq from the beginning to its current end as a read_committed consumer, without a "
                        + "consumer group and without committing anything, and prints: the number of dead letters, "
                        + "the oldest and newest record timestamps, counts by qf.error.kind, qf.error.status and "
                        + "qf.origin.topic, how many had been replayed before (qf.replay.count > 0), and the ten "
                        + "most frequent qf.error.message values."
            },
            optionListHeading = "%nOptions:%n",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                "0:the summary was printed",
                "1:the topic does not exist or the cluster did not answer",
                "2:usage error (bad option, invalid client property)"
            },
            footerHeading = "%nExamples:%n",
            footer = {
                "  quotaflow dlq stats --bootstrap-servers localhost:9092",
                "  quotaflow dlq stats --bootstrap-servers localhost:9092 --json | jq .byKind"
            })
    public static final class Stats implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
        boolean help;

        @Mixin
        KafkaConnectionOptions kafka = new KafkaConnectionOptions();

        @Option(names = "--json", description = "Print the summary as one JSON object instead of tables.")
        boolean json;

        @Option(names = "--topic", paramLabel = "TOPIC", hidden = true, description = "The dead-letter topic.")
        String topic = Topics.DLQ.name();

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            DeadLetterStats stats;
            try {
                stats = new DeadLetterStats(kafka.bootstrapServers(), kafka.clientProperties(),
                        dlqTopic(topic, kafka));
            } catch (KafkaException e) {
                err.println("dlq stats: invalid Kafka client settings: " + PublishCommand.rootMessage(e));
                return 2;
            }
            DeadLetterReport report;
            try (stats) {
                report = stats.read();
            } catch (DeadLetterException | KafkaException e) {
                err.println("dlq stats: " + PublishCommand.rootMessage(e));
                return 1;
            }
            if (json) {
                out.println(report.toJson().toString());
            } else {
                out.print(table(report));
            }
            out.flush();
            return 0;
        }
    }

    /** The hidden {@code --topic}, or the dead-letter topic under {@code topics.prefix}. */
    static String dlqTopic(String topic, KafkaConnectionOptions kafka) {
        return topic.equals(Topics.DLQ.name()) ? kafka.topics().dlq() : topic;
    }

    /** The human-readable report: a headline, then one table per breakdown. */
    static String table(DeadLetterReport r) {
        StringBuilder sb = new StringBuilder();
        if (r.total() == 0) {
            sb.append(r.topic()).append(": no dead letters\n");
            return sb.toString();
        }
        sb.append(r.topic()).append(": ").append(r.total()).append(r.total() == 1 ? " dead letter" : " dead letters")
                .append(", oldest ").append(r.oldest()).append(", newest ").append(r.newest()).append('\n');
        sb.append("replayed before (qf.replay.count > 0): ").append(r.replayed()).append('\n');
        counts(sb, "error kind", r.byKind());
        counts(sb, "error status", r.byStatus());
        counts(sb, "origin topic", r.byOriginTopic());
        sb.append('\n').append("top error messages").append(r.messagesTruncated() ? " (approximate: too many distinct)" : "")
                .append('\n');
        int width = r.topMessages().stream().mapToInt(m -> Long.toString(m.count()).length()).max().orElse(1);
        for (DeadLetterReport.MessageCount m : r.topMessages()) {
            sb.append("  ").append(" ".repeat(width - Long.toString(m.count()).length())).append(m.count())
                    .append("  ").append(m.message()).append('\n');
        }
        return sb.toString();
    }

    private static void counts(StringBuilder sb, String heading, Map<String, Long> counts) {
        int nameWidth = heading.length();
        int countWidth = "count".length();
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            nameWidth = Math.max(nameWidth, e.getKey().length());
            countWidth = Math.max(countWidth, Long.toString(e.getValue()).length());
        }
        sb.append('\n');
        sb.append(pad(heading, nameWidth)).append("  ").append(padLeft("count", countWidth)).append('\n');
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            sb.append(pad(e.getKey(), nameWidth)).append("  ").append(padLeft(Long.toString(e.getValue()), countWidth))
                    .append('\n');
        }
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.length()));
    }

    private static String padLeft(String s, int width) {
        return " ".repeat(Math.max(0, width - s.length())) + s;
    }

    // ---------------------------------------------------------------- replay

    /** {@code quotaflow dlq replay}. */
    @Command(name = "replay", sortOptions = false,
            headerHeading = "%n", synopsisHeading = "Usage: ",
            header = "Write selected dead letters back to their origin topics, exactly once.",
            descriptionHeading = "%nDescription:%n",
            description = {
                "Reads tickets.dlq from the replay group's committed offsets (the beginning for a new group) up to "
                        + "the end offsets seen at start, then stops. Each selected dead letter is written, original "
                        + "key and value bytes unchanged, to the priority topic named in its qf.origin.topic header "
                        + "(tickets.standard when the header is missing or names no priority topic). The replayed "
                        + "record carries no qf.* header except qf.replay.count (previous count + 1) and "
                        + "qf.replay.of (<dlq partition>:<offset>): it starts afresh.",
                "",
                "Filters combine with AND; a filter given several values (repeated or comma-separated) accepts any "
                        + "of them. Times are ISO-8601 instants (2026-11-30T06:00:00Z) or durations ago (15m, 2h, "
                        + "1d, PT30M) and apply to the dead letter's record timestamp: --since inclusive, --until "
                        + "exclusive. Dead letters already replayed --max-replays times are skipped and counted "
                        + "(loop protection).",
                "",
                "Exactly once: each batch is written by a transactional producer (transactional.id "
                        + "quotaflow-dlq-replay-<group>) and the batch's offsets are committed to the group in the "
                        + "same transaction. A replay interrupted by Ctrl+C or a crash resumes from the committed "
                        + "offsets when run again, without duplicates; starting a second replay with the same group "
                        + "stops the first.",
                "",
                "Dead letters that do not pass the filters are consumed too: the group's offsets move past them. "
                        + "A replay with narrow filters followed by one with wider filters (same group) therefore "
                        + "does not see the records the first one passed over. Use --reset to start the group from "
                        + "the beginning again (records replayed before are then replayed again, up to "
                        + "--max-replays), or a new --group.",
                "",
                "Progress goes to stderr, the summary to stdout."
            },
            optionListHeading = "%nOptions:%n",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                "0:the replay reached its end, --max-records, or was stopped by Ctrl+C (run again to continue)",
                "1:the topic does not exist, the cluster did not answer, or a write failed (the batch in hand was "
                        + "rolled back; run again to continue)",
                "2:usage error (bad option or time, invalid client property)"
            },
            footerHeading = "%nExamples:%n",
            footer = {
                "  quotaflow dlq replay --bootstrap-servers localhost:9092 \\",
                "      --kind retries-exhausted --since 2h --dry-run",
                "  quotaflow dlq replay --bootstrap-servers localhost:9092 \\",
                "      --kind retries-exhausted \\",
                "      --since 2026-11-30T06:00:00Z --until 2026-11-30T07:00:00Z --rate 20",
                "  quotaflow dlq replay --bootstrap-servers localhost:9092 \\",
                "      --status 503,529 --reset"
            })
    public static final class Replay implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
        boolean help;

        @Mixin
        KafkaConnectionOptions kafka = new KafkaConnectionOptions();

        @Option(names = "--since", paramLabel = "TIME",
                description = "Only dead letters with a timestamp at or after TIME: an ISO-8601 instant or a "
                        + "duration ago (15m, 2h, 1d, PT30M).")
        String since;

        @Option(names = "--until", paramLabel = "TIME",
                description = "Only dead letters with a timestamp before TIME (same forms as --since).")
        String until;

        @Option(names = "--kind", paramLabel = "KIND",
                description = "Only this qf.error.kind (bad-input, too-large, invalid-output, retries-exhausted, "
                        + "non-retryable); repeatable or comma-separated.")
        List<String> kinds = new ArrayList<>();

        @Option(names = "--status", paramLabel = "STATUS",
                description = "Only this qf.error.status (an HTTP status; 0 for input rejected before any call); "
                        + "repeatable or comma-separated.")
        List<String> statuses = new ArrayList<>();

        @Option(names = "--key", paramLabel = "KEY",
                description = "Only the dead letter(s) with this exact key (ticket id); repeatable.")
        List<String> keys = new ArrayList<>();

        @Option(names = "--dry-run",
                description = "Count what would be replayed, by error kind and target topic; write nothing and "
                        + "commit no offsets.")
        boolean dryRun;

        @Option(names = "--rate", paramLabel = "N", defaultValue = "" + (int) ReplayOptions.DEFAULT_RATE,
                description = "Write at most N records per second; 0 = unlimited. Default: ${DEFAULT-VALUE}.")
        double rate;

        @Option(names = "--group", paramLabel = "G", defaultValue = ReplayOptions.DEFAULT_GROUP,
                description = "Consumer group whose committed offsets record the replay's progress. "
                        + "Default: ${DEFAULT-VALUE}.")
        String group;

        @Option(names = "--max-replays", paramLabel = "M", defaultValue = "" + ReplayOptions.DEFAULT_MAX_REPLAYS,
                description = "Skip dead letters whose qf.replay.count is already M or more. Default: ${DEFAULT-VALUE}.")
        int maxReplays;

        @Option(names = "--reset",
                description = "Start from the beginning of tickets.dlq instead of the group's committed offsets, so "
                        + "records an earlier replay passed over (or replayed) are considered again.")
        boolean reset;

        @Option(names = "--max-records", paramLabel = "N",
                description = "Stop after replaying N records; the next run continues from there.")
        Long maxRecords;

        @Option(names = "--json", description = "Print the summary as one JSON object.")
        boolean json;

        @Option(names = "--topic", paramLabel = "TOPIC", hidden = true, description = "The dead-letter topic.")
        String topic = Topics.DLQ.name();

        /** The clock of "durations ago"; replaceable in tests. */
        Supplier<Instant> now = Instant::now;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            ReplayOptions options;
            try {
                options = options();
            } catch (IllegalArgumentException e) {
                err.println("dlq replay: " + e.getMessage());
                return 2;
            }
            for (String kind : options.kinds()) {
                if (!KNOWN_KINDS.contains(kind)) {
                    err.println("dlq replay: warning: '" + kind + "' is not an error kind the pipeline writes "
                            + "(known: " + String.join(", ", KNOWN_KINDS.stream().sorted().toList()) + ")");
                }
            }
            err.println((options.dryRun() ? "Dry run of a replay of " : "Replaying ") + options.dlqTopic()
                    + " (group " + options.groupId() + (options.reset() ? ", from the beginning" : "")
                    + ", filters: " + options.describeFilters() + ", max replays " + options.maxReplays()
                    + (options.dryRun() ? "" : ", rate " + (options.ratePerSecond() == 0 ? "unlimited"
                            : trim(options.ratePerSecond()) + "/s")) + ")");
            err.flush();

            DeadLetterReplayer replayer = new DeadLetterReplayer(kafka.bootstrapServers(), kafka.clientProperties(),
                    options);
            ProgressLine status = new ProgressLine(err, ProgressLine.isTerminal(),
                    ProgressLine.isTerminal() ? Duration.ofMillis(100) : Duration.ofSeconds(1));
            // Ctrl+C: commit the record in hand, print the summary
            try (GracefulStop stop = GracefulStop.install("dlq-replay", replayer::requestStop, Duration.ofSeconds(30))) {
                ReplaySummary summary = replayer.run(progress -> status.update(progress.progressLine()));
                status.clear();
                if (json) {
                    out.println(summary.toJson().toString());
                } else {
                    out.print(describe(summary, options));
                }
                out.flush();
                return 0;
            } catch (DeadLetterException | KafkaException e) {
                status.clear();
                err.println("dlq replay: " + PublishCommand.rootMessage(e));
                return hasCause(e, ConfigException.class) ? 2 : 1;
            }
        }

        ReplayOptions options() {
            Instant reference = now.get();
            ReplayOptions.Builder b = ReplayOptions.builder()
                    .since(since == null ? null : ReplayOptions.parseTime(since, reference))
                    .until(until == null ? null : ReplayOptions.parseTime(until, reference))
                    .kinds(ReplayOptions.splitList(kinds))
                    .statuses(ReplayOptions.splitList(statuses))
                    .keys(keys)
                    .dryRun(dryRun).ratePerSecond(rate).groupId(group).maxReplays(maxReplays).reset(reset)
                    .dlqTopic(dlqTopic(topic, kafka));
            if (maxRecords != null) {
                b.maxRecords(maxRecords);
            }
            return b.build();
        }
    }

    /** The summary in words: a headline, then replays by target topic and by error kind. */
    static String describe(ReplaySummary s, ReplayOptions options) {
        StringBuilder sb = new StringBuilder();
        String headline = switch (s.outcome()) {
            case COMPLETED, RUNNING -> s.dryRun() ? "Dry run complete (nothing written, no offsets committed)"
                    : "Replay complete";
            case MAX_RECORDS -> (s.dryRun() ? "Dry run" : "Replay") + " stopped after --max-records "
                    + options.maxRecords() + (s.dryRun() ? "" : "; run again to continue");
            case STOPPED -> (s.dryRun() ? "Dry run" : "Replay") + " stopped on request"
                    + (s.dryRun() ? "" : "; run again to continue from where it stopped");
        };
        sb.append(headline).append(" in ").append(String.format(Locale.ROOT, "%.1f s", s.elapsed().toMillis() / 1000.0))
                .append('\n');
        Map<String, String> lines = new LinkedHashMap<>();
        lines.put(s.dryRun() ? "would be replayed" : "replayed", Long.toString(s.replayed()));
        lines.put("skipped (filters)", Long.toString(s.skippedByFilter()));
        lines.put("skipped (max replays " + options.maxReplays() + ")", Long.toString(s.skippedMaxReplays()));
        if (s.skippedOriginalGone() > 0) {
            lines.put("skipped (truncated; origin no longer holds the record)", Long.toString(s.skippedOriginalGone()));
        }
        lines.put("examined", Long.toString(s.examined()));
        if (s.outcome() != ReplaySummary.Outcome.COMPLETED) {
            lines.put("left (at most)", Long.toString(s.remaining()));
        }
        int width = lines.keySet().stream().mapToInt(String::length).max().orElse(0);
        int valueWidth = lines.values().stream().mapToInt(String::length).max().orElse(0);
        lines.forEach((k, v) -> sb.append("  ").append(pad(k, width)).append("  ").append(padLeft(v, valueWidth))
                .append('\n'));
        if (!s.replayedByTopic().isEmpty()) {
            sb.append(s.dryRun() ? "would be replayed to:\n" : "replayed to:\n");
            breakdown(sb, s.replayedByTopic());
        }
        if (!s.replayedByKind().isEmpty()) {
            sb.append("by error kind:\n");
            breakdown(sb, s.replayedByKind());
        }
        return sb.toString();
    }

    private static void breakdown(StringBuilder sb, Map<String, Long> counts) {
        int width = counts.keySet().stream().mapToInt(String::length).max().orElse(0);
        int valueWidth = counts.values().stream().mapToInt(v -> Long.toString(v).length()).max().orElse(0);
        counts.forEach((k, v) -> sb.append("  ").append(pad(k, width)).append("  ")
                .append(padLeft(Long.toString(v), valueWidth)).append('\n'));
    }

    private static String trim(double d) {
        return java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}

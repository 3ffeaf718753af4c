package io.quotaflow.cli;

import io.quotaflow.dlq.DeadLetterException;
import io.quotaflow.dlq.DeadLetterReplayer;
import io.quotaflow.dlq.ReplayArguments;
import io.quotaflow.dlq.ReplayOptions;
import io.quotaflow.dlq.ReplaySummary;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

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
            "No rate limit by default: the pipeline's quota limiter paces the model calls the replayed "
                    + "tickets cause, so a replay only needs --rate to spare the cluster.",
            "",
            "Filters combine with AND; a filter given several values (repeated or comma-separated) accepts any "
                    + "of them. Times are ISO-8601 instants (2026-11-30T06:00:00Z) or durations ago (15m, 2h, "
                    + "1d, PT30M) and apply to the dead letter's record timestamp: --since inclusive, --until "
                    + "exclusive. Dead letters already replayed --max-replays times are skipped and counted "
                    + "(loop protection).",
            "",
            "Kinds that cannot succeed unchanged are held back and counted unless --force: bad-input (intake "
                    + "rejects the same bytes again) and too-large (the ticket exceeds the model's context). "
                    + "Fix such tickets and publish them anew, or use --force after the cause went away.",
            "",
            "Exactly once: each batch is written by a transactional producer (transactional.id "
                    + "quotaflow-dlq-replay-<group>) and the batch's offsets are committed to the group in the "
                    + "same transaction. A replay interrupted by Ctrl+C or a crash resumes from the committed "
                    + "offsets when run again, without duplicates, and so does a replay run again after one that "
                    + "completed (it finds nothing new). A second replay of the same group started while one runs "
                    + "fences it before reading the group's offsets: the first stops with exit code 1 and a "
                    + "message saying so, the second goes on where the first committed, and no dead letter is "
                    + "written twice.",
            "",
            "The default group is quotaflow-dlq-replay under topics.prefix (team-a.quotaflow-dlq-replay for "
                    + "--topics-prefix team-a.), so the replays of deployments sharing a cluster never fence "
                    + "each other; --group overrides it.",
            "",
            "Dead letters that are not replayed (filtered, held back, over --max-replays) are consumed too: "
                    + "the group's offsets move past them. A replay with narrow filters followed by one with "
                    + "wider filters (same group) therefore does not see the records the first one passed over. "
                    + "Use --reset to start the group from the beginning again (records replayed before are then "
                    + "replayed again, up to --max-replays), or a new --group.",
            "",
            "Progress (in records) goes to stderr, the summary to stdout."
        },
        optionListHeading = "%nOptions:%n",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the replay reached its end, --max-records, or was stopped by Ctrl+C (run again to continue)",
            "1:the topic does not exist, the cluster did not answer, a write failed, or a newer replay of the "
                    + "same group took over (the batch in hand was rolled back; run again to continue)",
            "2:usage error (bad option or time, invalid client property)"
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  quotaflow dlq replay --bootstrap-servers localhost:9092 \\",
            "      --kind retries-exhausted --since 2h --dry-run",
            "  quotaflow dlq replay --bootstrap-servers localhost:9092 \\",
            "      --kind retries-exhausted --since 2026-11-30T06:00:00Z \\",
            "      --until 2026-11-30T07:00:00Z --rate 20",
            "  quotaflow dlq replay --bootstrap-servers localhost:9092 \\",
            "      --kind bad-input --force --reset"
        })
public final class DlqReplayCommand implements Callable<Integer> {

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
            description = "Only this qf.error.kind (retries-exhausted, invalid-output, non-retryable, "
                    + "internal-error; bad-input and too-large need --force); repeatable or comma-separated.")
    List<String> kinds = new ArrayList<>();

    @Option(names = "--status", paramLabel = "STATUS",
            description = "Only this qf.error.status (an HTTP status; 0 for input rejected before any call); "
                    + "repeatable or comma-separated.")
    List<String> statuses = new ArrayList<>();

    @Option(names = "--key", paramLabel = "KEY",
            description = "Only the dead letter(s) with this exact key (the ticket's key: tenant:id, or the id for the default tenant); repeatable.")
    List<String> keys = new ArrayList<>();

    @Option(names = "--dry-run",
            description = "Count what would be replayed, by error kind and target topic; write nothing and "
                    + "commit no offsets.")
    boolean dryRun;

    @Option(names = "--force",
            description = "Replay bad-input and too-large dead letters too, although they fail again "
                    + "unless their cause went away.")
    boolean force;

    @Option(names = "--rate", paramLabel = "N", defaultValue = "0",
            description = "Write at most N records per second; 0 = no limit (the pipeline's limiter paces "
                    + "the calls). Default: ${DEFAULT-VALUE}.")
    double rate;

    @Option(names = "--group", paramLabel = "G",
            description = "Consumer group whose committed offsets record the replay's progress; it names the "
                    + "transactional id too. Default: <topics.prefix>" + ReplayOptions.DEFAULT_GROUP + ".")
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

    @Mixin
    DeadLetterTopicOption dlq = new DeadLetterTopicOption();

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
            return ExitCodes.USAGE;
        }
        DlqCommand.warnUnknownKinds("dlq replay", options.kinds(), err);
        ReplaySummaryText.forceWarnings(options).forEach(err::println);
        err.println(ReplaySummaryText.headline(options));
        err.flush();

        DeadLetterReplayer replayer = new DeadLetterReplayer(kafka.bootstrapServers(), kafka.clientProperties(), options);
        ProgressLine status = new ProgressLine(err, ProgressLine.isTerminal(),
                ProgressLine.isTerminal() ? Duration.ofMillis(100) : Duration.ofSeconds(1));
        // Ctrl+C: commit the record in hand, print the summary
        try (GracefulStop stop = GracefulStop.install("dlq-replay", replayer::requestStop, Duration.ofSeconds(30))) {
            ReplaySummary summary = replayer.run(progress -> status.update(progress.progressLine()));
            status.clear();
            out.print(json ? summary.toJson().toString() + "\n" : ReplaySummaryText.describe(summary, options));
            out.flush();
            if (summary.skippedNeedsForceTotal() > 0) {
                err.print(ReplaySummaryText.heldBack(summary));
                err.flush();
            }
            return ExitCodes.OK;
        } catch (DeadLetterException | KafkaException e) {
            status.clear();
            err.println("dlq replay: " + PublishCommand.rootMessage(e));
            return hasCause(e, ConfigException.class) ? ExitCodes.USAGE : ExitCodes.FAILURE;
        }
    }

    ReplayOptions options() {
        Instant reference = now.get();
        ReplayOptions.Builder b = ReplayOptions.builder()
                .since(since == null ? null : ReplayArguments.parseTime(since, reference))
                .until(until == null ? null : ReplayArguments.parseTime(until, reference))
                .kinds(ReplayArguments.splitList(kinds))
                .statuses(ReplayArguments.splitList(statuses))
                .keys(keys)
                .dryRun(dryRun).force(force).ratePerSecond(rate).maxReplays(maxReplays).reset(reset)
                .dlqTopic(dlq.resolve(kafka))
                // null: the default group of the dead-letter topic's deployment, under its topics.prefix
                .groupId(group);
        if (maxRecords != null) {
            b.maxRecords(maxRecords);
        }
        return b.build();
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

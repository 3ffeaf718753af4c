package io.quotaflow.cli;

import io.quotaflow.settings.Keys;
import io.quotaflow.admin.ApplicationReset;
import io.quotaflow.admin.ApplicationReset.InputOffsets;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.config.ConfigValues;
import io.quotaflow.topology.QuotaflowTopology;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** {@code quotaflow reset}: the application's internal topics, offsets and local state, as Kafka's reset tool does. */
@Command(name = "reset", sortOptions = false,
        headerHeading = "%n", synopsisHeading = "Usage: ",
        header = "Delete the internal topics and local state (stopped instances).",
        descriptionHeading = "%nDescription:%n",
        description = {
            "Deletes the topics Kafka Streams made for this application id (the dispatch repartition topic and "
                    + "the changelogs of its stores) and the group's committed offsets on them, moves the group's input "
                    + "offsets if --input-offsets says so, and deletes this machine's <state.dir>/<application.id>. "
                    + "Run it on every machine (or pod volume) that kept local state.",
            "",
            "Every instance of the application id must be stopped: the reset refuses while its group has a member, "
                    + "under every group protocol (a consumer group, or a streams group under group.protocol=streams). "
                    + "--dry-run works while instances run: it prints the plan and that they run, and deletes nothing. "
                    + "Only the topics quotaflow's topology makes are deleted, never another topic that merely starts "
                    + "with the application id. The input, result, retry and dead-letter topics are kept.",
            "",
            "What is lost: tickets taken from the input topics but not answered yet (waiting, delayed or in "
                    + "flight) live only in the internal topics. Drain first (docs/operations.md, \"Reset\"). The "
                    + "result cache, finished tickets' status and each route's daily usage start empty.",
            "",
            "Without --yes it only prints what it would do (as --dry-run does) and exits 2; while an instance "
                    + "runs it refuses (exit 1). Running it again finds nothing to do."
        },
        optionListHeading = "%nOptions:%n",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:reset done, nothing to do, or a dry run printed (also while instances run)",
            "1:an instance is still running, or the cluster refused or did not answer",
            "2:usage error, or --yes missing"
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  quotaflow reset --bootstrap-servers localhost:9092 --dry-run",
            "  quotaflow reset --bootstrap-servers localhost:9092 --yes",
            "  quotaflow reset --config qf.properties --input-offsets latest --yes"
        })
public final class ResetCommand implements Callable<Integer> {

    /** How long each cluster request may take. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Mixin
    KafkaConnectionOptions kafka = new KafkaConnectionOptions();

    @Option(names = "--application-id", paramLabel = "ID",
            description = "Kafka Streams application id to reset (application.id; default <topics.prefix>quotaflow).")
    String applicationId;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "Local state directory whose <application.id> subdirectory is deleted (state.dir). "
                    + "Not with --keep-local-state.")
    Path stateDir;

    @Option(names = "--keep-local-state",
            description = "Leave local state alone (e.g. on a machine that never ran an instance).")
    boolean keepLocalState;

    @Option(names = "--input-offsets", paramLabel = "keep|earliest|latest", converter = InputOffsetsConverter.class,
            description = {"Where the group's input offsets go (default keep). keep: the next start goes on where the "
                    + "last stopped. latest: tickets not read yet are skipped. earliest: every ticket still in the input "
                    + "topics is classified again (and its result written again)."})
    InputOffsets inputOffsets = InputOffsets.KEEP;

    @Option(names = "--dry-run", description = "Print what would be done; change nothing.")
    boolean dryRun;

    @Option(names = "--yes", description = "Do it (without it, the reset only prints what it would do).")
    boolean yes;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        refuseConflicts();
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put(Keys.APPLICATION_ID, applicationId);
        flags.put(Keys.STATE_DIR, stateDir == null ? null : stateDir.toString());
        ConfigValues values = kafka.settings(flags);
        String id = values.applicationId();
        Path local = keepLocalState ? null : Path.of(values.string(Keys.STATE_DIR)).resolve(id);
        List<String> inputs = values.topics().inputs();
        ApplicationReset.Request request = new ApplicationReset.Request(id, QuotaflowTopology.internalTopics(id), inputs,
                inputOffsets, local);

        try (Admin admin = KafkaClients.admin(values.cluster().bootstrapServers(), values.cluster().kafka())) {
            ApplicationReset reset = new ApplicationReset(admin, TIMEOUT);
            ApplicationReset.Plan plan = reset.plan(request);
            if (plan.group().note() != null) {
                err.println("note: " + plan.group().note());
            }
            if (dryRun) {
                print(out, id, plan);
                if (plan.groupActive()) {
                    out.println(plan.running() + ": a reset with --yes refuses until every instance is stopped");
                }
                return ExitCodes.OK;
            }
            if (plan.groupActive()) {
                err.printf(Locale.ROOT, "reset refused: %s; stop every instance of it first%n", plan.running());
                return ExitCodes.FAILURE;
            }
            if (plan.nothingToDo()) {
                print(out, id, plan);
                return ExitCodes.OK;
            }
            if (!yes) {
                print(out, id, plan);
                err.println("nothing done: add --yes to reset (or --dry-run to only print this)");
                return ExitCodes.USAGE;
            }
            reset.execute(plan).forEach(out::println);
            return ExitCodes.OK;
        } catch (IllegalStateException | UncheckedIOException e) {
            err.println("reset failed: " + e.getMessage());
            return ExitCodes.FAILURE;
        } catch (ExecutionException | TimeoutException | KafkaException e) {
            err.println("reset failed: " + PublishCommand.rootMessage(e));
            return ExitCodes.FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("reset interrupted");
            return ExitCodes.FAILURE;
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** --state-dir names the local state to delete: a usage error beside --keep-local-state, which deletes none. */
    private void refuseConflicts() {
        if (keepLocalState && stateDir != null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "give --state-dir (the local state to delete) or --keep-local-state (delete none), not both");
        }
    }

    private static void print(PrintWriter out, String id, ApplicationReset.Plan plan) {
        if (plan.nothingToDo()) {
            out.println("nothing to reset for application id " + id);
            return;
        }
        out.println("reset of application id " + id + " would:");
        plan.lines().forEach(line -> out.println("  " + line));
    }

    /** {@code keep|earliest|latest}, any case. */
    static final class InputOffsetsConverter implements picocli.CommandLine.ITypeConverter<InputOffsets> {
        @Override
        public InputOffsets convert(String value) {
            try {
                return InputOffsets.valueOf(value.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException("'" + value + "' is not one of keep, earliest, latest");
            }
        }
    }
}

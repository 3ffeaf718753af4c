package io.quotaflow.cli;

import io.quotaflow.failure.ErrorKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.Set;
import java.util.concurrent.Callable;

/** {@code quotaflow dlq}: inspect and replay the dead-letter topic. */
@Command(name = "dlq", sortOptions = false,
        headerHeading = "%n", synopsisHeading = "Usage: ",
        header = "Inspect and replay the dead-letter topic (tickets.dlq).",
        descriptionHeading = "%nDescription:%n",
        description = {
            "Dead letters keep the ticket's original bytes and key; their qf.* headers say why they failed "
                    + "(qf.error.kind, qf.error.status, qf.error.message) and where they came from "
                    + "(qf.origin.topic). 'stats' summarises them, 'show' prints some with their headers, "
                    + "'replay' writes selected ones back to their origin topics, exactly once."
        },
        optionListHeading = "%nOptions:%n",
        commandListHeading = "%nCommands:%n",
        exitCodeList = {
            "0:help shown (each subcommand's help lists its own codes)",
            "2:no subcommand (stats, show or replay), or a bad option"},
        footerHeading = "%nExamples:%n",
        footer = {
            "  quotaflow dlq stats --bootstrap-servers localhost:9092",
            "  quotaflow dlq show --bootstrap-servers kafka:9092 --kind bad-input --max 5",
            "  quotaflow dlq replay --bootstrap-servers kafka:9092 --since 2h --dry-run"},
        subcommands = {DlqStatsCommand.class, DlqShowCommand.class, DlqReplayCommand.class})
public final class DlqCommand implements Callable<Integer> {

    /** Error kinds the pipeline writes; others only draw a warning (the set may grow). */
    static final Set<String> KNOWN_KINDS = Set.copyOf(ErrorKind.deadLetterKinds());

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand (stats, show or replay)");
    }

    /** Warnings for kinds the pipeline never writes (a typo, most likely). */
    static void warnUnknownKinds(String command, Iterable<String> kinds, java.io.PrintWriter err) {
        for (String kind : kinds) {
            if (!KNOWN_KINDS.contains(kind)) {
                err.println(command + ": warning: '" + kind + "' is not an error kind the pipeline writes "
                        + "(known: " + String.join(", ", KNOWN_KINDS.stream().sorted().toList()) + ")");
            }
        }
    }
}

package io.quotaflow.cli;

import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.records.Priority;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.time.Duration;

/** {@code quotaflow publish}: sends a JSON-lines file of tickets to the priority topics. */
@Command(name = "publish", sortOptions = false,
        headerHeading = "%n", synopsisHeading = "Usage: ",
        header = "Publish support tickets (JSON lines) to the priority topics.",
        descriptionHeading = "%nDescription:%n",
        description = {
            "Reads one ticket JSON object per line and sends each to tickets.interactive, tickets.standard or "
                    + "tickets.bulk: the --priority given, else the ticket's \"priority\" field, else standard. "
                    + "The record key is the ticket's key, tenant:id (its \"tenant\" and \"id\" fields; the id "
                    + "alone for the default tenant); the value is the line's bytes, unchanged.",
            "",
            "A file (or input) whose first character other than white space is '[' is read as one JSON array "
                    + "of tickets instead: each element is published as its own bytes, and the numbers in reports "
                    + "count elements.",
            "",
            "Blank lines are ignored. Lines that are not JSON, not a JSON object or have no usable \"id\" are "
                    + "reported on stderr with their line numbers and skipped, unless --send-invalid is given. "
                    + "An unknown \"priority\" value is reported and the ticket goes to standard.",
            "",
            "Each ticket the broker acknowledged is printed on stdout, one line each: "
                    + "'accepted acme:T-123 tickets.standard-2@17' (key, topic-partition@offset), or with --json "
                    + "{\"key\",\"id\",\"tenant\",\"topic\",\"partition\",\"offset\"}. Invalid lines sent anyway are not "
                    + "printed there.",
            "",
            "The producer is idempotent (acks=all), so retries inside one run never duplicate a ticket. "
                    + "Progress, reports on bad lines and the final summary go to stderr, so stdout stays "
                    + "machine-readable."
        },
        optionListHeading = "%nOptions:%n",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every record that should be sent was acknowledged (invalid lines may have been skipped)",
            "1:a send failed, or reading the input failed",
            "2:usage error (bad option, file not found, invalid client property)"
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  quotaflow publish --bootstrap-servers localhost:9092 --file tickets.jsonl",
            "  zcat backlog.jsonl.gz | quotaflow publish --bootstrap-servers localhost:9092 \\",
            "      --file - --priority bulk",
            "  quotaflow publish --bootstrap-servers localhost:9092 --file t.jsonl --json"
        })
public final class PublishCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Mixin
    KafkaConnectionOptions kafka = new KafkaConnectionOptions();

    @Option(names = "--file", required = true, paramLabel = "FILE|-",
            description = "The JSON-lines file (or JSON array) to publish; '-' reads standard input.")
    String file;

    @Option(names = "--priority", paramLabel = "interactive|standard|bulk", converter = PriorityConverter.class,
            description = "Send every line to this priority's topic, whatever its \"priority\" field says.")
    Priority priority;

    @Option(names = "--send-invalid",
            description = {"Send lines that cannot be keyed anyway, unchanged, with key line-N, to the "
                    + "--priority topic (or standard), so the pipeline dead-letters them as bad-input.",
                    "For demos and tests; off by default."})
    boolean sendInvalid;

    @Option(names = "--json",
            description = "Print each accepted ticket as one JSON object per line (id, topic, partition, offset).")
    boolean json;

    /** Standard input; replaceable in tests. */
    InputStream stdin = System.in;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        kafka.cluster(); // a configuration problem is reported before anything else
        InputStream input;
        String source;
        if ("-".equals(file)) {
            input = stdin;
            source = "standard input";
        } else {
            Path path;
            try {
                path = Path.of(file);
            } catch (InvalidPathException e) {
                err.println("publish: not a valid path: " + file);
                return ExitCodes.USAGE;
            }
            if (!Files.exists(path)) {
                err.println("publish: file not found: " + path.toAbsolutePath());
                return ExitCodes.USAGE;
            }
            if (!Files.isRegularFile(path)) {
                err.println("publish: not a regular file: " + path.toAbsolutePath());
                return ExitCodes.USAGE;
            }
            try {
                input = Files.newInputStream(path);
            } catch (IOException e) {
                err.println("publish: cannot read " + path.toAbsolutePath() + ": " + e.getMessage());
                return ExitCodes.USAGE;
            }
            source = path.toString();
        }

        try (InputStream in = input) {
            TicketPublisher publisher;
            try {
                publisher = new TicketPublisher(kafka.bootstrapServers(), kafka.clientProperties(), kafka.topics());
            } catch (KafkaException e) {
                err.println("publish: invalid Kafka client settings: " + rootMessage(e));
                return ExitCodes.USAGE;
            }
            try (publisher) {
                return publish(publisher, in, source, err);
            }
        } catch (IOException e) {
            err.println("publish: closing " + source + " failed: " + e.getMessage());
            return ExitCodes.FAILURE;
        }
    }

    private int publish(TicketPublisher publisher, InputStream in, String source, PrintWriter err) {
        PrintWriter out = spec.commandLine().getOut();
        ProgressLine status = new ProgressLine(err, ProgressLine.isTerminal());
        // Ctrl+C: stop reading, flush what was sent, print the summary
        try (GracefulStop stop = GracefulStop.install("publish", publisher::requestStop, Duration.ofSeconds(35))) {
            PublishSummary summary = publisher.publish(in, Optional.ofNullable(priority), sendInvalid,
                    progress -> {
                        if (progress.done()) {
                            status.clear();
                        } else {
                            status.update("publishing: " + progress.describe());
                        }
                    },
                    issue -> status.println(issue.describe()),
                    accepted -> {
                        status.clear();
                        out.println(json ? accepted.toJson() : accepted.describe());
                    });
            out.flush();
            status.clear();
            err.println(summary.describe());
            err.flush();
            return summary.succeeded() ? ExitCodes.OK : ExitCodes.FAILURE;
        } catch (UncheckedIOException e) {
            status.clear();
            err.println("publish: " + source + ": " + e.getMessage() + ": " + e.getCause().getMessage());
            return ExitCodes.FAILURE;
        } catch (KafkaException e) {
            status.clear();
            err.println("publish: " + rootMessage(e));
            return ExitCodes.FAILURE;
        }
    }

    /** {@code e}'s type in words: {@code HttpConnectTimeoutException} is "http connect timeout". */
    private static String describe(Throwable e) {
        if (e instanceof java.net.ConnectException) {
            return "could not connect";
        }
        String name = e.getClass().getSimpleName().replaceAll("(Exception|Error)$", "");
        return name.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT);
    }

    static String rootMessage(Throwable e) {
        // an exception without a message (an HTTP connect timeout, a refused connection) is named by its type, never "null"
        StringBuilder sb = new StringBuilder(e.getMessage() == null || e.getMessage().isBlank()
                ? describe(e) : e.getMessage());
        Throwable cause = e.getCause();
        while (cause != null && cause != cause.getCause()) {
            if (cause.getMessage() != null && !sb.toString().contains(cause.getMessage())) {
                sb.append(": ").append(cause.getMessage());
            }
            cause = cause.getCause();
        }
        return sb.toString();
    }
}

package io.quotaflow.cli;

import io.quotaflow.publish.ResultsReader;
import io.quotaflow.publish.ResultsReader.ReadResult;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code quotaflow results}: prints classification results, one JSON per line. */
@Command(name = "results", sortOptions = false,
        headerHeading = "%n", synopsisHeading = "Usage: ",
        header = "Print classification results, one JSON object per line.",
        descriptionHeading = "%nDescription:%n",
        description = {
            "Reads tickets.classified as a read_committed consumer, so only results of committed pipeline "
                    + "transactions appear, each exactly once. Each record value is printed unchanged on its "
                    + "own line of standard output; nothing else goes to standard output.",
            "",
            "Without --from-beginning only results committed after the start are printed. The command exits "
                    + "after --max results, or after --idle-timeout seconds without a new one, unless --follow "
                    + "is given; with --until-end it exits once it has read up to the end offsets of the start "
                    + "(on a topic that keeps growing the idle timeout never comes). It uses no consumer group and "
                    + "commits no offsets."
        },
        optionListHeading = "%nOptions:%n",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:stopped after --max results, after the idle timeout, at the end (--until-end), or on Ctrl+C",
            "1:the topic does not exist or the cluster did not answer",
            "2:usage error"
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  quotaflow results --bootstrap-servers localhost:9092 --from-beginning",
            "  quotaflow results --bootstrap-servers localhost:9092 \\",
            "      --from-beginning --until-end > results.jsonl",
            "  quotaflow results --bootstrap-servers localhost:9092 --follow \\",
            "      | jq -c '{id, category, urgency}'"
        })
public final class ResultsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Mixin
    KafkaConnectionOptions kafka = new KafkaConnectionOptions();

    @Option(names = "--from-beginning", description = "Start at the oldest result instead of the current end.")
    boolean fromBeginning;

    @Option(names = "--follow", description = "Keep waiting for new results; never exit on idle (not with "
            + "--idle-timeout). Stop with --max or Ctrl+C.")
    boolean follow;

    @Option(names = "--until-end", description = "Exit once every partition is read up to the end it had at the start "
            + "(as kcat -e): with --from-beginning, everything committed so far, even while results keep coming.")
    boolean untilEnd;

    @Option(names = "--max", paramLabel = "N", description = "Exit after N results.")
    Long max;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "Exit after this many seconds without a new result (default: ${DEFAULT-VALUE}). "
                    + "Fractions allowed. Not with --follow or --until-end, which never exit on idle.")
    double idleTimeoutSeconds;

    @Option(names = "--topic", paramLabel = "TOPIC", defaultValue = ResultsReader.DEFAULT_TOPIC, hidden = true,
            description = "The results topic (default: ${DEFAULT-VALUE}, under --topics-prefix).")
    String topic;

    @Override
    public Integer call() {
        refuseInvalidOptions();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Duration idle = Duration.ofMillis(Math.max(1, Math.round(idleTimeoutSeconds * 1000)));

        String topic = topic();
        ResultsReader reader;
        try {
            reader = new ResultsReader(kafka.bootstrapServers(), kafka.clientProperties(), topic);
        } catch (KafkaException e) {
            err.println("results: invalid Kafka client settings: " + PublishCommand.rootMessage(e));
            return ExitCodes.USAGE;
        }
        // Ctrl+C: end the read, flush stdout, close the consumer
        try (GracefulStop stop = GracefulStop.install("results", reader::wakeup, Duration.ofSeconds(10)); reader) {
            ReadResult result = reader.read(fromBeginning, untilEnd, follow || untilEnd ? Optional.empty() : Optional.of(idle),
                    max == null ? Long.MAX_VALUE : max,
                    value -> {
                        out.print(value);
                        out.print('\n');
                    },
                    out::flush);
            out.flush();
            if (result.reason() == ResultsReader.StopReason.TOPIC_NOT_FOUND) {
                // --until-end reads what the topic holds at the start: it does not wait for a missing one
                err.printf(Locale.ROOT, "results: topic %s not found%s: is %s reachable, and were the "
                        + "topics created (quotaflow topics apply)?%n", topic,
                        untilEnd ? "" : String.format(Locale.ROOT, " within %.1f s", idleTimeoutSeconds), kafka.bootstrapServers());
                return ExitCodes.FAILURE;
            }
            return ExitCodes.OK;
        } catch (KafkaException e) {
            out.flush();
            err.println("results: " + PublishCommand.rootMessage(e));
            return ExitCodes.FAILURE;
        }
    }

    /** A usage error (exit 2) for a bad --max or --idle-timeout, or an --idle-timeout nothing would apply. */
    private void refuseInvalidOptions() {
        if (max != null && max < 1) {
            throw new ParameterException(spec.commandLine(), "--max must be at least 1, was " + max);
        }
        if (!(idleTimeoutSeconds > 0) || Double.isInfinite(idleTimeoutSeconds)) {
            throw new ParameterException(spec.commandLine(),
                    "--idle-timeout must be a positive number of seconds, was " + idleTimeoutSeconds);
        }
        if ((follow || untilEnd) && spec.commandLine().getParseResult().hasMatchedOption("--idle-timeout")) {
            throw new ParameterException(spec.commandLine(), "--idle-timeout does not apply with " + (follow ? "--follow" : "--until-end")
                    + ", which never exits on idle: leave it out, or drop " + (follow ? "--follow" : "--until-end"));
        }
    }

    /** The hidden {@code --topic}, or the results topic under {@code topics.prefix}. */
    private String topic() {
        return topic.equals(ResultsReader.DEFAULT_TOPIC) ? kafka.topics().classified() : topic;
    }
}

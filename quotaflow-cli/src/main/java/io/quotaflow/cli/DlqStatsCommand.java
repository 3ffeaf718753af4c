package io.quotaflow.cli;

import io.quotaflow.dlq.DeadLetterException;
import io.quotaflow.dlq.DeadLetterReport;
import io.quotaflow.dlq.DeadLetterStats;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code quotaflow dlq stats}. */
@Command(name = "stats", sortOptions = false,
        headerHeading = "%n", synopsisHeading = "Usage: ",
        header = "Summarise the dead letters: counts by kind, status and origin, age, top messages.",
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
public final class DlqStatsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Mixin
    KafkaConnectionOptions kafka = new KafkaConnectionOptions();

    @Option(names = "--json", description = "Print the summary as one JSON object instead of tables.")
    boolean json;

    @Mixin
    DeadLetterTopicOption dlq = new DeadLetterTopicOption();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DeadLetterStats stats;
        try {
            stats = new DeadLetterStats(kafka.bootstrapServers(), kafka.clientProperties(),
                    dlq.resolve(kafka));
        } catch (KafkaException e) {
            err.println("dlq stats: invalid Kafka client settings: " + PublishCommand.rootMessage(e));
            return ExitCodes.USAGE;
        }
        DeadLetterReport report;
        try (stats) {
            report = stats.read();
        } catch (DeadLetterException | KafkaException e) {
            err.println("dlq stats: " + PublishCommand.rootMessage(e));
            return ExitCodes.FAILURE;
        }
        out.print(json ? report.toJson().toString() + "\n" : DlqStatsTable.render(report));
        out.flush();
        return ExitCodes.OK;
    }
}

package io.quotaflow.cli;

import io.quotaflow.dlq.DeadLetterBrowser;
import io.quotaflow.dlq.DeadLetterException;
import io.quotaflow.dlq.DeadLetterQuery;
import io.quotaflow.dlq.DeadLetterView;
import io.quotaflow.dlq.ReplayArguments;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code quotaflow dlq show}. */
@Command(name = "show", sortOptions = false,
        headerHeading = "%n", synopsisHeading = "Usage: ",
        header = "Print dead letters with their headers: why each failed, where it came from.",
        descriptionHeading = "%nDescription:%n",
        description = {
            "Reads tickets.dlq as a read_committed consumer without a consumer group (it commits nothing) "
                    + "and prints each dead letter asked for: its partition:offset, timestamp and key, every "
                    + "header in order (qf.error.kind, qf.error.status, qf.error.message, qf.origin.*, "
                    + "qf.replay.*, the producer's own), and its value. Filters combine with AND; each may be "
                    + "repeated (or, for --kind, comma-separated) to accept any of its values. Without a "
                    + "filter it prints the first --max dead letters.",
            "",
            "Header values are printed as the pipeline wrote them (qf.error.message was scrubbed of "
                    + "anything shaped like a credential before it was written); values that are not UTF-8 "
                    + "are printed as base64."
        },
        optionListHeading = "%nOptions:%n",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:dead letters were printed, or there are none (no filter: prints \"no dead letters in TOPIC\")",
            "1:a filter matched none, the topic does not exist or the cluster did not answer",
            "2:usage error (bad option or offset, invalid client property)"
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  quotaflow dlq show --bootstrap-servers localhost:9092 --key T-1042",
            "  quotaflow dlq show --bootstrap-servers localhost:9092 --offset 3:1042",
            "  quotaflow dlq show --bootstrap-servers localhost:9092 \\",
            "      --kind bad-input --max 5 --json | jq '.headers'"
        })
public final class DlqShowCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Mixin
    KafkaConnectionOptions kafka = new KafkaConnectionOptions();

    @Option(names = "--key", paramLabel = "KEY", description = "Only dead letters with this exact key (the ticket's key: "
            + "tenant:id, or the id for the default tenant); repeatable.")
    List<String> keys = new ArrayList<>();

    @Option(names = "--offset", paramLabel = "[P:]OFFSET",
            description = "Only the dead letter at partition P, this offset (3:1042), or at this offset on any "
                    + "partition (1042); repeatable.")
    List<String> offsets = new ArrayList<>();

    @Option(names = "--kind", paramLabel = "KIND",
            description = "Only this qf.error.kind; repeatable or comma-separated.")
    List<String> kinds = new ArrayList<>();

    @Option(names = "--max", paramLabel = "N", defaultValue = "" + DeadLetterQuery.DEFAULT_MAX,
            description = "Print at most N dead letters. Default: ${DEFAULT-VALUE}.")
    int max;

    @Option(names = "--json", description = "Print one JSON object per dead letter, one per line.")
    boolean json;

    @Mixin
    DeadLetterTopicOption dlq = new DeadLetterTopicOption();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DeadLetterQuery query;
        try {
            query = query();
        } catch (IllegalArgumentException e) {
            err.println("dlq show: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        DlqCommand.warnUnknownKinds("dlq show", query.kinds(), err);
        DeadLetterBrowser browser;
        try {
            browser = new DeadLetterBrowser(kafka.bootstrapServers(), kafka.clientProperties());
        } catch (KafkaException e) {
            err.println("dlq show: invalid Kafka client settings: " + PublishCommand.rootMessage(e));
            return ExitCodes.USAGE;
        }
        List<DeadLetterView> found;
        try (browser) {
            found = browser.find(query);
        } catch (DeadLetterException | KafkaException e) {
            err.println("dlq show: " + PublishCommand.rootMessage(e));
            return ExitCodes.FAILURE;
        }
        return found.isEmpty() ? none(query, out, err) : print(found, out);
    }

    /** Nothing found: on an unfiltered query the healthy answer (a cron job's), exit 0; a filter that matched nothing, exit 1. */
    private int none(DeadLetterQuery query, PrintWriter out, PrintWriter err) {
        if (unfiltered()) {
            PrintWriter to = json ? err : out; // --json keeps stdout to JSON lines
            to.println("dlq show: no dead letters in " + query.topic());
            to.flush();
            return ExitCodes.OK;
        }
        err.println("dlq show: no dead letter in " + query.topic() + " matched (filters: " + query.describe() + ")");
        return ExitCodes.FAILURE;
    }

    private int print(List<DeadLetterView> found, PrintWriter out) {
        for (int i = 0; i < found.size(); i++) {
            if (json) {
                out.println(found.get(i).toJson().toString());
            } else {
                out.print((i == 0 ? "" : "\n") + DeadLetterText.render(found.get(i)));
            }
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** Whether no filter (--key, --offset, --kind) narrows the query. */
    private boolean unfiltered() {
        return keys.isEmpty() && offsets.isEmpty() && kinds.isEmpty();
    }

    DeadLetterQuery query() {
        return DeadLetterQuery.builder().keys(keys).offsets(offsets).kinds(ReplayArguments.splitList(kinds)).max(max)
                .topic(dlq.resolve(kafka)).build();
    }
}

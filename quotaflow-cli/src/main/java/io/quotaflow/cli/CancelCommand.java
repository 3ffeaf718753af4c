package io.quotaflow.cli;

import io.quotaflow.admin.KafkaClients;
import io.quotaflow.publish.CancelOutcome;
import io.quotaflow.publish.TicketCanceller;
import io.quotaflow.records.Priority;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** {@code quotaflow cancel}: writes cancellation tombstones for ticket ids. */
@Command(name = "cancel", sortOptions = false,
        headerHeading = "%n", synopsisHeading = "Usage: ",
        header = "Cancel tickets that have not been sent yet (writes tombstones).",
        descriptionHeading = "%nDescription:%n",
        description = {
            "For each ID, writes a tombstone (key = the ticket's key: the id, or tenant:id with --tenant; null value) "
                    + "to the --priority topic, or, "
                    + "without --priority, to all three of tickets.interactive, tickets.standard and "
                    + "tickets.bulk (under topics.prefix). An ID '-' reads further ids from standard input, "
                    + "one per line (blank lines ignored).",
            "",
            "The pipeline cancels a ticket it still holds and has not sent (waiting, delayed, or on its way "
                    + "back from retry): nothing is written to tickets.classified or tickets.dlq for it and "
                    + "quotaflow_tickets_cancelled_total counts it; one whose call is out is answered if that call "
                    + "answers it, and ends cancelled instead of being retried if it fails. A tombstone cancels only "
                    + "the ticket of the tenant its key names. "
                    + "Every tombstone is counted in quotaflow_cancel_requests_total; one for an unknown or "
                    + "finished id changes nothing, so writing to every priority topic is safe.",
            "",
            "Prints one line per id on stdout once every tombstone for it was acknowledged: "
                    + "'tombstone T-1 tickets.interactive-0@4 tickets.standard-1@9 tickets.bulk-0@2'. "
                    + "Failures and the summary go to stderr."
        },
        parameterListHeading = "%nParameters:%n",
        optionListHeading = "%nOptions:%n",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every tombstone was acknowledged",
            "1:a send failed, a topic does not exist or the cluster did not answer",
            "2:usage error (no id, a blank id, bad option, invalid client property)"
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  quotaflow cancel --bootstrap-servers localhost:9092 T-1042 T-1043",
            "  quotaflow cancel --bootstrap-servers localhost:9092 --priority bulk T-7",
            "  quotaflow cancel --bootstrap-servers localhost:9092 --tenant acme 1042",
            "  cut -f1 ids.txt | quotaflow cancel --bootstrap-servers localhost:9092 -"
        })
public final class CancelCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Mixin
    KafkaConnectionOptions kafka = new KafkaConnectionOptions();

    @Option(names = "--priority", paramLabel = "interactive|standard|bulk", converter = PriorityConverter.class,
            description = "Write the tombstones to this priority's topic only (default: all three).")
    Priority priority;

    /** The variable of {@code --tenant}'s default, read from the command's environment (as the settings are). */
    static final String TENANT_VARIABLE = "QUOTAFLOW_CANCEL_TENANT";

    @Option(names = "--tenant", paramLabel = "NAME",
            description = "The tenant whose tickets these ids are (default: the default tenant; an ID may also be "
                    + "given as tenant:id). Env: " + TENANT_VARIABLE + ".")
    String tenant;

    @Parameters(paramLabel = "ID", arity = "1..*",
            description = "Ticket ids to cancel; '-' reads ids from standard input, one per line.")
    List<String> ids = new ArrayList<>();

    /** Standard input; replaceable in tests. */
    InputStream stdin = System.in;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        kafka.cluster(); // a configuration problem is reported before anything else
        List<String> wanted;
        try {
            wanted = keyed(CancelIds.resolve(ids, stdin));
        } catch (IllegalArgumentException e) {
            err.println("cancel: " + e.getMessage());
            return ExitCodes.USAGE;
        } catch (IOException e) {
            err.println("cancel: reading ids from standard input failed: " + e.getMessage());
            return ExitCodes.FAILURE;
        }
        List<Priority> priorities = priority == null ? List.of(Priority.values()) : List.of(priority);
        List<String> topics = priorities.stream().map(kafka.topics()::input).toList();
        String missing = missingTopics(topics);
        if (missing != null) {
            err.println("cancel: " + missing);
            return ExitCodes.FAILURE;
        }
        TicketCanceller canceller;
        try {
            canceller = new TicketCanceller(kafka.bootstrapServers(), kafka.clientProperties(), kafka.topics());
        } catch (KafkaException e) {
            err.println("cancel: invalid Kafka client settings: " + PublishCommand.rootMessage(e));
            return ExitCodes.USAGE;
        }
        try (canceller) {
            List<CancelOutcome> outcomes = canceller.cancel(wanted, priorities);
            return report(outcomes, topics, out, err);
        } catch (KafkaException e) {
            err.println("cancel: " + PublishCommand.rootMessage(e));
            return ExitCodes.FAILURE;
        }
    }

    /** The ids as keys of --tenant's tenant, else of {@link #TENANT_VARIABLE}'s, else as given; a bad tenant is refused. */
    private List<String> keyed(List<String> given) {
        String t = tenant != null ? tenant : kafka.environment.get(TENANT_VARIABLE);
        if (t == null || t.isBlank()) {
            return given;
        }
        if (!io.quotaflow.records.TicketKey.validTenant(t)) {
            throw new IllegalArgumentException("--tenant must be 1 to " + io.quotaflow.records.TicketKey.MAX_TENANT_LENGTH
                    + " characters without ':' or control characters");
        }
        return given.stream().map(id -> io.quotaflow.records.TicketKey.key(t, id)).toList();
    }

    /** Prints each outcome; the exit code. */
    static int report(List<CancelOutcome> outcomes, List<String> topics, PrintWriter out, PrintWriter err) {
        int failed = 0;
        for (CancelOutcome outcome : outcomes) {
            if (outcome instanceof CancelOutcome.Written written) {
                out.println(written.describe());
            } else {
                failed++;
                err.println("cancel: " + ((CancelOutcome.Failed) outcome).describe());
            }
        }
        out.flush();
        int ok = outcomes.size() - failed;
        StringBuilder summary = new StringBuilder("wrote tombstones for ").append(ok)
                .append(ok == 1 ? " id" : " ids").append(" to ").append(String.join(", ", topics));
        if (failed > 0) {
            summary.append("; FAILED: ").append(failed).append(failed == 1 ? " id" : " ids").append(" not acknowledged");
        }
        err.println(summary);
        err.flush();
        return failed == 0 ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /** Null when every topic exists, else which do not. */
    private String missingTopics(List<String> topics) {
        try (Admin admin = KafkaClients.admin(kafka.bootstrapServers(), kafka.clientProperties())) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<String> missing = topics.stream().filter(t -> !existing.contains(t)).toList();
            return missing.isEmpty() ? null : "no such topic: " + String.join(", ", missing)
                    + " (check --topics-prefix, or create them with quotaflow topics apply)";
        } catch (ExecutionException | TimeoutException e) {
            return "listing topics failed: " + PublishCommand.rootMessage(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}

package io.quotaflow.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.quotaflow.admin.TopicsApplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code quotaflow topics}: manage the topics declared in {@code topics/*.json}. */
@Command(
        name = "topics",
        usageHelpAutoWidth = true,
        header = "Manage the quotaflow topics.",
        descriptionHeading = "%n",
        optionListHeading = "%nOptions:%n",
        description = {
                "The topics are declared as JSON files (partitions, replication factor,",
                "topic configs), one per topic: tickets.interactive, tickets.standard,",
                "tickets.bulk, tickets.retry, tickets.classified and tickets.dlq.",
                "They are bundled in the jar and kept under topics/ in the repository.",
                "With topics.prefix (--topics-prefix) every name starts with that prefix."},
        commandListHeading = "%nCommands:%n",
        exitCodeList = {
                "0:help shown (each subcommand's help lists its own codes)",
                "2:no subcommand (apply), or a bad option"},
        subcommands = {TopicsCommand.Apply.class})
public class TopicsCommand implements Callable<Integer> {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand (apply)");
    }

    /** {@code quotaflow topics apply}. */
    @Command(
            name = "apply",
            usageHelpAutoWidth = true,
            header = "Create or update the topics to match their declarations.",
            descriptionHeading = "%n",
            optionListHeading = "%nOptions:%n",
            description = {
                    "Creates missing topics, raises partition counts to the declared count and",
                    "sets the declared configs that differ. Idempotent, and safe to run from",
                    "several processes at once. Prints one line per change, or",
                    "`topics up to date`.",
                    "",
                    "It never deletes a topic, never lowers a partition count (a higher count",
                    "only draws a warning), never changes an existing topic's replication",
                    "factor and leaves undeclared configs alone. On a cluster with fewer",
                    "brokers than a declared replication factor, new topics get one replica",
                    "per live broker (with a warning), and min.insync.replicas is capped at",
                    "the topic's replication factor."},
            footerHeading = "%nExamples:%n",
            footer = {
                    "  quotaflow topics apply --bootstrap-servers localhost:9092",
                    "  quotaflow topics apply --bootstrap-servers kafka-1:9093 \\",
                    "      -X security.protocol=SSL \\",
                    "      -X ssl.truststore.location=/etc/kafka/truststore.jks"},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                    "0:the topics match their declarations",
                    "1:invalid declarations, or the cluster refused a change or did not answer",
                    "2:invalid command line"})
    public static class Apply implements Callable<Integer> {

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
        boolean help;

        @Mixin
        KafkaConnectionOptions kafka = new KafkaConnectionOptions();

        @Option(names = "--topics-dir", paramLabel = "DIR",
                description = "Read the *.json declarations from this directory instead of the ones"
                        + " bundled in the jar.")
        Path topicsDir;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            String prefix = kafka.topics().prefix();
            TopicsApplier applier;
            try {
                applier = TopicsApplier.load(topicsDir).withPrefix(prefix);
            } catch (RuntimeException e) {
                err.println("Invalid topic declarations: " + e.getMessage());
                return ExitCodes.FAILURE;
            }
            try (Admin admin = Admin.create(adminConfig())) {
                List<String> changes = applier.apply(admin);
                if (changes.isEmpty()) {
                    out.println("topics up to date");
                } else {
                    changes.forEach(out::println);
                }
                out.flush();
                return ExitCodes.OK;
            } catch (KafkaException e) {
                err.println("topics apply failed: " + e.getMessage());
                return ExitCodes.FAILURE;
            }
        }

        Map<String, Object> adminConfig() {
            Map<String, Object> config = new LinkedHashMap<>();
            config.put(AdminClientConfig.CLIENT_ID_CONFIG, "quotaflow-topics");
            config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 15_000);
            config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
            config.putAll(kafka.clientProperties());
            config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            return config;
        }
    }
}

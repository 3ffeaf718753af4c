package io.quotaflow.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import io.quotaflow.admin.TopicDifference;
import io.quotaflow.admin.TopicSpec;
import io.quotaflow.admin.TopicState;
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
                "The 7 topics are declared as JSON files (partitions, replication factor,",
                "topic configs), one per topic: tickets.interactive, tickets.standard,",
                "tickets.bulk, tickets.retry, tickets.classified, tickets.handoff and",
                "tickets.dlq. They are bundled in the jar and kept under topics/ in the",
                "repository. With topics.prefix (--topics-prefix) every name starts with",
                "that prefix."},
        commandListHeading = "%nCommands:%n",
        footerHeading = "%nExamples:%n",
        footer = {
                "  quotaflow topics apply --bootstrap-servers localhost:9092",
                "  quotaflow topics diff --bootstrap-servers kafka:9092 --topics-prefix team-a.",
                "  quotaflow topics describe --bootstrap-servers kafka:9092 --topics-dir topics"},
        exitCodeList = {
                "0:help shown (each subcommand's help lists its own codes)",
                "2:no subcommand, or a bad option"},
        subcommands = {TopicsCommand.Apply.class, TopicsCommand.ListTopics.class, TopicsCommand.Describe.class,
                TopicsCommand.Diff.class, TopicsCommand.Acls.class})
public class TopicsCommand implements Callable<Integer> {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "Missing required subcommand (apply, list, describe, diff or acls)");
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
    public static class Apply extends Declared implements Callable<Integer> {

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            TopicsApplier applier = applier(err);
            if (applier == null) {
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
    }

    /** What every subcommand shares: the connection, the declarations and where they are read from. */
    abstract static class Declared {

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
        boolean help;

        @Mixin
        KafkaConnectionOptions kafka = new KafkaConnectionOptions();

        @Option(names = "--topics-dir", paramLabel = "DIR",
                description = "Read the *.json declarations from this directory instead of the ones"
                        + " bundled in the jar (not with acls).")
        Path topicsDir;

        @Spec
        CommandSpec spec;

        /** The declarations under this deployment's prefix, or null (said on {@code err}) when they are invalid. */
        TopicsApplier applier(PrintWriter err) {
            String prefix = kafka.topics().prefix();
            kafka.bootstrapServers();
            try {
                return TopicsApplier.load(topicsDir).withPrefix(prefix).withTenantTopics(kafka.tenants(), kafka.topics());
            } catch (RuntimeException e) {
                err.println("Invalid topic declarations: " + e.getMessage());
                return null;
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

        /** Runs {@code read} against the cluster; a cluster problem is said on {@code err} and is exit 1. */
        int reading(String what, java.util.function.ToIntFunction<Admin> read) {
            PrintWriter err = spec.commandLine().getErr();
            try (Admin admin = Admin.create(adminConfig())) {
                int code = read.applyAsInt(admin);
                spec.commandLine().getOut().flush();
                return code;
            } catch (KafkaException e) {
                err.println("topics " + what + " failed: " + e.getMessage());
                return ExitCodes.FAILURE;
            }
        }
    }

    /** {@code quotaflow topics list}. */
    @Command(
            name = "list",
            usageHelpAutoWidth = true,
            header = "List the declared topics and whether the cluster has them.",
            descriptionHeading = "%n",
            optionListHeading = "%nOptions:%n",
            description = {"One line per declared topic: its name (with topics.prefix) and its partitions",
                    "and replication factor on the cluster, or `missing`. Changes nothing."},
            footerHeading = "%nExamples:%n",
            footer = {
                    "  quotaflow topics list --bootstrap-servers localhost:9092"},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                    "0:listed",
                    "1:invalid declarations, or the cluster did not answer",
                    "2:invalid command line"})
    public static class ListTopics extends Declared implements Callable<Integer> {
        @Override
        public Integer call() {
            TopicsApplier applier = applier(spec.commandLine().getErr());
            return applier == null ? ExitCodes.FAILURE : reading("list", admin -> {
                applier.describe(admin).forEach(t -> spec.commandLine().getOut().println(t.summary()));
                return ExitCodes.OK;
            });
        }
    }

    /** {@code quotaflow topics describe}. */
    @Command(
            name = "describe",
            usageHelpAutoWidth = true,
            header = "Show each declared topic as the cluster has it, beside its declaration.",
            descriptionHeading = "%n",
            optionListHeading = "%nOptions:%n",
            description = {"For each declared topic: partitions and replication factor, then each",
                    "declared config with the cluster's value and the declared one. Changes nothing."},
            footerHeading = "%nExamples:%n",
            footer = {
                    "  quotaflow topics describe --bootstrap-servers kafka:9092 \\",
                    "      --topics-prefix team-a."},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                    "0:described",
                    "1:invalid declarations, or the cluster did not answer",
                    "2:invalid command line"})
    public static class Describe extends Declared implements Callable<Integer> {
        @Override
        public Integer call() {
            TopicsApplier applier = applier(spec.commandLine().getErr());
            return applier == null ? ExitCodes.FAILURE : reading("describe", admin -> {
                PrintWriter out = spec.commandLine().getOut();
                for (TopicState t : applier.describe(admin)) {
                    TopicSpec declared = t.declared();
                    out.println(declared.name());
                    if (!t.exists()) {
                        out.println("  missing (declared: " + declared.partitions() + " partitions, rf " + declared.replicationFactor() + ")");
                        continue;
                    }
                    out.println("  partitions          " + t.partitions() + " (declared " + declared.partitions() + ")");
                    out.println("  replication factor  " + t.replication() + " (declared " + declared.replicationFactor() + ")");
                    declared.configs().forEach((key, value) -> out.println("  " + key + "  " + t.configs().getOrDefault(key, "unset")
                            + " (declared " + value + ")"));
                }
                return ExitCodes.OK;
            });
        }
    }

    /** {@code quotaflow topics diff}. */
    @Command(
            name = "diff",
            usageHelpAutoWidth = true,
            header = "Show how the cluster differs from the declarations, changing nothing.",
            descriptionHeading = "%n",
            optionListHeading = "%nOptions:%n",
            description = {"One line per difference: a missing topic, fewer partitions or another value of",
                    "a declared config (what `topics apply` would change, and what",
                    "topics.manage=verify refuses to start on), and, marked as notes, more partitions",
                    "or a lower replication factor than declared (never changed by quotaflow).",
                    "Prints `topics match their declarations` when there is nothing to change."},
            footerHeading = "%nExamples:%n",
            footer = {
                    "  quotaflow topics diff --bootstrap-servers kafka:9092 --topics-dir topics"},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                    "0:nothing `topics apply` would change (notes may be printed)",
                    "1:invalid declarations, or the cluster did not answer",
                    "2:invalid command line",
                    "3:the cluster differs: `topics apply` would change something"})
    public static class Diff extends Declared implements Callable<Integer> {

        /** Exit code of a diff that found something {@code topics apply} would change. */
        static final int DIFFERS = 3;

        @Override
        public Integer call() {
            TopicsApplier applier = applier(spec.commandLine().getErr());
            return applier == null ? ExitCodes.FAILURE : reading("diff", admin -> {
                PrintWriter out = spec.commandLine().getOut();
                List<TopicDifference> differences = applier.diff(admin);
                differences.forEach(d -> out.println((d.kind().blocking() ? "" : "note: ") + d.describe()));
                if (differences.stream().noneMatch(d -> d.kind().blocking())) {
                    out.println("topics match their declarations");
                    return ExitCodes.OK;
                }
                return DIFFERS;
            });
        }
    }

    /** {@code quotaflow topics acls}. */
    @Command(
            name = "acls",
            usageHelpAutoWidth = true,
            header = "Print (or create) the Kafka ACLs that bind each tenant's topics to its principal.",
            descriptionHeading = "%n",
            optionListHeading = "%nOptions:%n",
            description = {"Under tenants.from=principal: for every tenant of tenants.allowed, its",
                    "tenant.<name>.principal gets Write and Describe on the tenant's three input",
                    "topics (literal names) and IdempotentWrite on the cluster. Prints the",
                    "kafka-acls.sh commands ($BROKER for the bootstrap servers); with --apply",
                    "creates the ACLs instead (creating an existing ACL changes nothing). Prints",
                    "nothing under any other tenants.from."},
            footerHeading = "%nExamples:%n",
            footer = {
                    "  quotaflow topics acls --config quotaflow.properties",
                    "  quotaflow topics acls --apply --config quotaflow.properties"},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {
                    "0:the commands printed, or the ACLs created",
                    "1:the cluster refused the ACLs or did not answer",
                    "2:invalid command line or configuration"})
    public static class Acls extends Declared implements Callable<Integer> {

        @Option(names = "--apply", description = "Create the ACLs on the cluster instead of printing the commands.")
        boolean apply;

        @Override
        public Integer call() {
            if (topicsDir != null) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--topics-dir does not apply to acls: "
                        + "the ACLs follow from the tenants (tenant.<name>.principal), not from the topic declarations");
            }
            io.quotaflow.settings.TenantAccess access = kafka.tenants();
            if (!apply) {
                PrintWriter out = spec.commandLine().getOut();
                io.quotaflow.admin.TenantAcls.commands(access, kafka.topics()).forEach(out::println);
                out.flush();
                return ExitCodes.OK;
            }
            List<org.apache.kafka.common.acl.AclBinding> bindings = io.quotaflow.admin.TenantAcls.all(access, kafka.topics());
            return reading("acls", admin -> {
                try {
                    admin.createAcls(bindings).all().get(30, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    throw new KafkaException(e.getCause() == null ? e.toString() : e.getCause().getMessage(), e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new KafkaException("interrupted", e);
                }
                spec.commandLine().getOut().println(bindings.size() + " ACLs in place");
                return ExitCodes.OK;
            });
        }
    }
}

package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.testkit.KafkaBrokerExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(KafkaBrokerExtension.class)
class TopicsCommandIT {

    @Test
    void shouldPrintEachChangeThenReportTopicsUpToDate(@TempDir Path dir) throws Exception {
        String name = KafkaBrokerExtension.uniqueName("cli");
        declare(dir, name);
        String[] args = {"apply", "--bootstrap-servers", KafkaBrokerExtension.bootstrapServers(),
                "--topics-dir", dir.toString(), "-X", "client.id=topics-command-it"};

        CommandRun first = run(args);
        CommandRun second = run(args);

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out()).isEqualTo("created " + name + " (2 partitions, rf 1)\n");
        assertThat(second.exitCode()).as(second.err()).isZero();
        assertThat(second.out()).isEqualTo("topics up to date\n");
    }

    @Test
    void shouldListDescribeAndDiffWithoutChangingAnything(@TempDir Path dir) throws Exception {
        String name = KafkaBrokerExtension.uniqueName("diff");
        declare(dir, name);
        String[] where = {"--bootstrap-servers", KafkaBrokerExtension.bootstrapServers(), "--topics-dir", dir.toString()};

        CommandRun missingList = run(concat("list", where));
        CommandRun missingDiff = run(concat("diff", where));
        assertThat(missingList.exitCode()).as(missingList.err()).isZero();
        assertThat(missingList.out()).isEqualTo(name + "  missing\n");
        assertThat(missingDiff.exitCode()).as("differs").isEqualTo(TopicsCommand.Diff.DIFFERS);
        assertThat(missingDiff.out()).isEqualTo(name + ": missing (declared with 2 partitions, rf 1)\n");
        assertThat(topicExists(name)).as("diff and list create nothing").isFalse();

        assertThat(run(concat("apply", where)).exitCode()).isZero();
        alterRetention(name, "3600000");
        CommandRun diff = run(concat("diff", where));
        CommandRun describe = run(concat("describe", where));

        assertThat(diff.exitCode()).isEqualTo(TopicsCommand.Diff.DIFFERS);
        assertThat(diff.out()).isEqualTo(name + ": retention.ms is 3600000, declared 86400000\n");
        assertThat(describe.exitCode()).as(describe.err()).isZero();
        assertThat(describe.out()).contains(name + "\n", "  partitions          2 (declared 2)",
                "  retention.ms  3600000 (declared 86400000)");
        assertThat(retention(name)).as("diff and describe change nothing").isEqualTo("3600000");

        assertThat(run(concat("apply", where)).out()).isEqualTo(name + ": retention.ms 3600000 -> 86400000\n");
        // the broker answers describeConfigs from its metadata, a moment behind the controller
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).untilAsserted(() -> {
            CommandRun same = run(concat("diff", where));
            assertThat(same.exitCode()).isZero();
            assertThat(same.out()).isEqualTo("topics match their declarations\n");
        });
    }

    @Test
    void verifyShouldRefuseToStartNamingTheDifferenceAndChangeNothing(@TempDir Path dir) throws Exception {
        String name = KafkaBrokerExtension.uniqueName("verify");
        declare(dir, name);
        TopicsApplier applier = TopicsApplier.fromDirectory(dir);
        assertThat(prepare(TopicsAtStart.Mode.APPLY, applier)).isEmpty();
        alterRetention(name, "3600000");

        Optional<String> refused = prepare(TopicsAtStart.Mode.VERIFY, applier);

        assertThat(refused).get().asString().contains(name + ": retention.ms is 3600000, declared 86400000")
                .contains("topics.manage=none").contains("QUOTAFLOW_TOPICS_MANAGE");
        assertThat(retention(name)).as("verify never alters").isEqualTo("3600000");
        assertThat(prepare(TopicsAtStart.Mode.APPLY, applier)).isEmpty();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(prepare(TopicsAtStart.Mode.VERIFY, applier)).as("matches now").isEmpty());
    }

    @Test
    void noneShouldNeverCreateATopic(@TempDir Path dir) throws Exception {
        String name = KafkaBrokerExtension.uniqueName("none");
        declare(dir, name);

        assertThat(prepare(TopicsAtStart.Mode.NONE, TopicsApplier.fromDirectory(dir))).isEmpty();
        assertThat(prepare(TopicsAtStart.Mode.VERIFY, TopicsApplier.fromDirectory(dir))).get().asString()
                .contains(name + ": missing");

        assertThat(topicExists(name)).isFalse();
    }

    private static Optional<String> prepare(TopicsAtStart.Mode mode, TopicsApplier applier) {
        return TopicsAtStart.prepare(mode, applier, KafkaBrokerExtension.bootstrapServers(), Map.of(),
                new PrintWriter(new StringWriter()));
    }

    private static void declare(Path dir, String name) throws Exception {
        Files.writeString(dir.resolve(name + ".json"), "{\"name\":\"" + name + "\",\"partitions\":2,"
                + "\"replicationFactor\":3,\"configs\":{\"retention.ms\":\"86400000\",\"min.insync.replicas\":\"2\"}}");
    }

    private static boolean topicExists(String name) throws Exception {
        try (Admin admin = KafkaBrokerExtension.admin()) {
            Set<String> names = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            return names.contains(name);
        }
    }

    private static void alterRetention(String name, String value) throws Exception {
        try (Admin admin = KafkaBrokerExtension.admin()) {
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, name);
            admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(new ConfigEntry("retention.ms", value),
                    AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
        }
        // the broker answers describeConfigs from its metadata, a moment behind the controller
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> value.equals(retention(name)));
    }

    private static String retention(String name) throws Exception {
        try (Admin admin = KafkaBrokerExtension.admin()) {
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, name);
            return admin.describeConfigs(List.of(topic)).all().get(30, TimeUnit.SECONDS).get(topic).get("retention.ms").value();
        }
    }

    private static String[] concat(String command, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = command;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    private static CommandRun run(String... args) {
        return CommandRun.of(new TopicsCommand(), args);
    }
}

package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import io.quotaflow.testkit.KafkaBrokerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(KafkaBrokerExtension.class)
class TopicsCommandIT {

    @Test
    void shouldPrintEachChangeThenReportTopicsUpToDate(@TempDir Path dir) throws Exception {
        String name = KafkaBrokerExtension.uniqueName("cli");
        Files.writeString(dir.resolve(name + ".json"), "{\"name\":\"" + name + "\",\"partitions\":2,"
                + "\"replicationFactor\":3,\"configs\":{\"retention.ms\":\"86400000\",\"min.insync.replicas\":\"2\"}}");
        String[] args = {"apply", "--bootstrap-servers", KafkaBrokerExtension.bootstrapServers(),
                "--topics-dir", dir.toString(), "-X", "client.id=topics-command-it"};

        CommandRun first = run(args);
        CommandRun second = run(args);

        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out()).isEqualTo("created " + name + " (2 partitions, rf 1)\n");
        assertThat(second.exitCode()).as(second.err()).isZero();
        assertThat(second.out()).isEqualTo("topics up to date\n");
    }

    private static CommandRun run(String... args) {
        return CommandRun.of(new TopicsCommand(), args);
    }
}

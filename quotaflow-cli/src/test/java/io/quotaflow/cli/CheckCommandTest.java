package io.quotaflow.cli;

import io.quotaflow.admin.TopicSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code quotaflow check}'s parts that need no cluster (the checks themselves: CheckCommandIT). */
class CheckCommandTest {

    @Test
    void shouldCheckTheTenantsTopicsAsTopicsDiffAndRunDo(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("quotaflow.properties"), String.join("\n",
                "bootstrap.servers=localhost:1", "topics.prefix=team-a.", "tenants.from=principal", "tenants.allowed=acme",
                "tenant.acme.principal=User:alice", ""));
        CheckCommand check = new CheckCommand();
        new CommandLine(check).parseArgs("--config", config.toString());
        TopicsCommand.Diff diff = new TopicsCommand.Diff();
        new CommandLine(diff).parseArgs("--config", config.toString());

        assertThat(CheckCommand.declared(check.kafka).specs()).extracting(TopicSpec::name)
                .contains("team-a.tickets.acme.interactive", "team-a.tickets.acme.standard", "team-a.tickets.acme.bulk")
                .containsExactlyInAnyOrderElementsOf(diff.applier(new java.io.PrintWriter(java.io.Writer.nullWriter())).specs().stream()
                        .map(TopicSpec::name).toList());
    }
}

package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopicsCommandTest {

    @Test
    void shouldRequireASubcommand() {
        CommandRun result = CommandRun.of(new TopicsCommand());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("Missing required subcommand").contains("apply");
    }

    @Test
    void shouldRequireBootstrapServers() {
        CommandRun result = CommandRun.of(new TopicsCommand(), "apply");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("--bootstrap-servers");
    }

    @Test
    void shouldRefuseTopicsDirForAclsWhichReadNoDeclarations(@TempDir Path dir) {
        CommandRun result = CommandRun.of(new TopicsCommand(), "acls", "--bootstrap-servers", "localhost:1",
                "--topics-dir", dir.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(result.err()).contains("--topics-dir does not apply to acls");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void shouldFailWithoutContactingKafkaWhenTheDeclarationsAreInvalid(@TempDir Path dir) {
        CommandRun result = CommandRun.of(new TopicsCommand(), "apply", "--bootstrap-servers", "localhost:1",
                "--topics-dir", dir.resolve("missing").toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err()).contains("Invalid topic declarations").contains("not found");
    }

    @Test
    void shouldPassKafkaPropertiesThroughButKeepTheBootstrapServersOption() {
        TopicsCommand.Apply apply = new TopicsCommand.Apply();
        new picocli.CommandLine(apply).parseArgs("--bootstrap-servers", "b:9092",
                "-X", "security.protocol=SASL_SSL", "--kafka-property", "bootstrap.servers=other:1",
                "-X", "sasl.jaas.config=Module required username=\"u\" password=\"p=q\";");

        assertThat(apply.adminConfig())
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.jaas.config", "Module required username=\"u\" password=\"p=q\";")
                .containsEntry("bootstrap.servers", "b:9092");
    }

    @Test
    void shouldPrintTheAclsOfEachTenantsPrincipalWithoutContactingKafka(@TempDir Path dir) throws java.io.IOException {
        Path config = java.nio.file.Files.writeString(dir.resolve("quotaflow.properties"), String.join("\n",
                "bootstrap.servers=localhost:1", "topics.prefix=team-a.", "tenants.from=principal", "tenants.allowed=acme,globex",
                "tenant.acme.principal=User:alice", "tenant.globex.principal=User:bob", ""));

        CommandRun result = CommandRun.of(new TopicsCommand(), "acls", "--config", config.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out().lines().toList()).hasSize(4).contains(
                "kafka-acls.sh --bootstrap-server $BROKER --add --allow-principal User:bob --operation Write --operation Describe"
                        + " --topic team-a.tickets.globex.interactive --topic team-a.tickets.globex.standard"
                        + " --topic team-a.tickets.globex.bulk",
                "kafka-acls.sh --bootstrap-server $BROKER --add --allow-principal User:alice --operation IdempotentWrite --cluster");
    }
}

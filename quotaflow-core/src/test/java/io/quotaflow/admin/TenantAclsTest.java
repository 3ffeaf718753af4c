package io.quotaflow.admin;

import io.quotaflow.settings.TenantAccess;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.testkit.RepositoryFiles;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TenantAclsTest {

    private static final TopicNames TEAM_A = new TopicNames("team-a.");

    private static TenantAccess principal() {
        return TenantAccess.builder().from(TenantAccess.From.PRINCIPAL).allowed(List.of("globex", "acme"))
                .principal("acme", "User:alice").principal("globex", "User:bob").build();
    }

    @Test
    void shouldAllowEachPrincipalWriteAndDescribeOnItsTenantsLiteralTopicsAndIdempotentWriteOnly() {
        List<AclBinding> acme = TenantAcls.bindings(principal(), TEAM_A).get("acme");

        assertThat(acme).allSatisfy(b -> {
            assertThat(b.entry().principal()).isEqualTo("User:alice");
            assertThat(b.entry().host()).isEqualTo("*");
            assertThat(b.entry().permissionType()).isEqualTo(AclPermissionType.ALLOW);
            assertThat(b.pattern().patternType()).isEqualTo(PatternType.LITERAL);
        });
        assertThat(acme.stream().filter(b -> b.pattern().resourceType() == ResourceType.TOPIC)
                .map(b -> b.pattern().name() + " " + b.entry().operation())).containsExactly(
                "team-a.tickets.acme.interactive WRITE", "team-a.tickets.acme.interactive DESCRIBE",
                "team-a.tickets.acme.standard WRITE", "team-a.tickets.acme.standard DESCRIBE",
                "team-a.tickets.acme.bulk WRITE", "team-a.tickets.acme.bulk DESCRIBE");
        assertThat(acme.stream().filter(b -> b.pattern().resourceType() == ResourceType.CLUSTER))
                .singleElement().satisfies(b -> assertThat(b.entry().operation()).isEqualTo(AclOperation.IDEMPOTENT_WRITE));
        assertThat(TenantAcls.all(principal(), TEAM_A)).hasSize(14)
                .noneMatch(b -> b.pattern().name().equals("team-a.tickets.standard") || b.pattern().name().equals("team-a.tickets.retry"))
                .filteredOn(b -> b.entry().principal().equals("User:bob")).allMatch(b -> !b.pattern().name().contains(".acme."));
    }

    @Test
    void shouldGrantNothingUnlessTenantsComeFromThePrincipal() {
        TenantAccess topic = TenantAccess.builder().from(TenantAccess.From.TOPIC).allowed(List.of("acme")).build();

        assertThat(TenantAcls.bindings(topic, TEAM_A)).isEmpty();
        assertThat(TenantAcls.bindings(TenantAccess.DEFAULT, TEAM_A)).isEmpty();
        assertThat(TenantAcls.commands(topic, TEAM_A)).isEmpty();
    }

    @Test
    void shouldPrintTheKafkaAclsCommandsThatOperationsMdShows() throws IOException {
        List<String> commands = TenantAcls.commands(principal(), TEAM_A);
        String docs = Files.readString(RepositoryFiles.path("docs/operations.md")).replace("\\\n  ", "");

        assertThat(commands).hasSize(4).first().isEqualTo("kafka-acls.sh --bootstrap-server $BROKER --add --allow-principal "
                + "User:alice --operation Write --operation Describe --topic team-a.tickets.acme.interactive "
                + "--topic team-a.tickets.acme.standard --topic team-a.tickets.acme.bulk");
        assertThat(commands).allSatisfy(c -> assertThat(docs).as("docs/operations.md, \"Producers\"").contains(c));
    }
}

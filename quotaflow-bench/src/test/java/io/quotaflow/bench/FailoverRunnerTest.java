package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class FailoverRunnerTest {

    @Test
    void shouldSpreadTheTicketsEvenlyOverOneTenantPerScope() {
        List<GeneratedTicket> tickets = FailoverRunner.tickets(42, 60);
        Map<String, Long> perTenant = tickets.stream().collect(Collectors.groupingBy(GeneratedTicket::tenant, Collectors.counting()));
        assertThat(perTenant).hasSize(FailoverRunner.SCOPES).allSatisfy((tenant, n) -> assertThat(n).isEqualTo(10));
        assertThat(tickets.get(0).id()).isEqualTo(new TicketGenerator(42).generate(1).get(0).id());
    }

    @Test
    void shouldConfigureSixRoutesATenantEachAndTheVariantsKafkaSettings() {
        FailoverVariant v = FailoverVariant.select("static-6s").get(0);
        String config = FailoverRunner.instanceConfig("localhost:9092", List.of("http://127.0.0.1:1/v1", "http://127.0.0.1:2/v1"), 40_000, 1, v);
        assertThat(config).contains("bootstrap.servers=localhost:9092\n", "application.id=failover\n", "routes=s0,s1\n",
                "route.s1.base-url=http://127.0.0.1:2/v1\n", "route.s0.tpm=40000\n", "routing.tenant.t1=s1\n",
                "kafka.client.id=fo-2\n", "kafka.session.timeout.ms=6000\n", "kafka.heartbeat.interval.ms=1000\n",
                "instance.id=auto\n");
    }

    @Test
    void shouldLeaveTheLimitsToTheHeadersInTheLearnedVariant() {
        FailoverVariant v = FailoverVariant.select("defaults-learned").get(0);
        String config = FailoverRunner.instanceConfig("localhost:9092", List.of("http://127.0.0.1:1/v1"), 40_000, 1, v);
        assertThat(config).contains("route.s0.base-url=http://127.0.0.1:1/v1\n").doesNotContain(".tpm=", ".rpm=");
        assertThat(v.withRestart().limitsSet()).isFalse();
        assertThat(FailoverVariant.select("defaults").get(0).limitsSet()).isTrue();
    }

    @Test
    void shouldKnowAnInstanceByTheClientIdPrefixOfItsGroupMembers() {
        List<String> labels = List.of("fo-1", "fo-2", "fo-3");
        assertThat(GroupOwnership.label("fo-2-StreamThread-1-consumer", labels)).hasValue("fo-2");
        assertThat(GroupOwnership.label("fo-3", labels)).hasValue("fo-3");
        assertThat(GroupOwnership.label("fo-12-StreamThread-1-consumer", labels)).isEmpty();
        assertThat(GroupOwnership.label(null, labels)).isEmpty();
        assertThat(GroupOwnership.dispatchTopic("failover")).isEqualTo("failover-dispatch-repartition");
    }
}

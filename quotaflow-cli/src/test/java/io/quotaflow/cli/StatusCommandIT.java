package io.quotaflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.testkit.KafkaBrokerExtension;
import io.quotaflow.records.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code quotaflow status --bootstrap-servers B ID} finds the application's instances through its consumer group. */
@ExtendWith(KafkaBrokerExtension.class)
class StatusCommandIT {

    private record Run(int code, String out, String err) {
    }

    private static Run run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), env, args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldFindAnInstanceThroughTheClusterAndPrintTheTicketsStatus() throws Exception {
        String prefix = KafkaBrokerExtension.uniqueName("status") + ".";
        String app = KafkaBrokerExtension.uniqueName("status-app");
        Map<String, String> env = new HashMap<>(Map.of("QUOTAFLOW_BOOTSTRAP_SERVERS", KafkaBrokerExtension.bootstrapServers(),
                "QUOTAFLOW_TOPICS_PREFIX", prefix));
        assertThat(run(env, "topics", "apply").code()).isZero();
        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(600).tpm(200_000)
                .apiKeys(Set.of("sk-it-status-cli")).build())) {
            DispatcherSettings settings = DispatcherSettings.builder(ModelSettings.of(URI.create(sim.baseUrl()), "gpt-4o-mini",
                    Secret.of("sk-it-status-cli")), QuotaSettings.ofDefaults().withRpm(600).withTpm(200_000), BatchSettings.ofDefaults(),
                    RetrySettings.ofDefaults()).build().withTopics(new TopicNames(prefix));
            QuotaflowConfig config = new QuotaflowConfig(KafkaBrokerExtension.bootstrapServers(), app, io.quotaflow.testkit.TestDirs.temporary("qf-st"),
                    0, Map.of("num.standby.replicas", "0"), settings).withHttp("127.0.0.1", 0);
            // the server binds a free port itself: a port picked beforehand may be taken by another test meanwhile
            try (Pipeline pipeline = Pipeline.start(config)) {
                env.put("QUOTAFLOW_HTTP_PORT", Integer.toString(pipeline.httpPort()));
                assertThat(pipeline.awaitRunning(Duration.ofSeconds(90))).isTrue();
                try (TicketPublisher publisher = new TicketPublisher(KafkaBrokerExtension.bootstrapServers(), Map.of(),
                        new TopicNames(prefix))) {
                    assertThat(publisher.publish(new StringReader("{\"id\":\"CLI-1\",\"subject\":\"Refund\",\"body\":\"Please refund "
                            + "order 77.\",\"tenant\":\"acme\",\"priority\":\"standard\"}\n"), Optional.empty(), p -> { }).succeeded())
                            .isTrue();
                }
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    Run r = run(env, "status", "--application-id", app, "--tenant", "acme", "CLI-1");
                    assertThat(r.code()).as(r.err()).isZero();
                    JsonNode answer = Json.MAPPER.readTree(r.out());
                    assertThat(answer.get("state").asText()).isEqualTo("classified");
                    assertThat(answer.get("priority").asText()).isEqualTo("standard");
                    assertThat(answer.get("tenant").asText()).isEqualTo("acme");
                });
                Map<String, String> noPort = new HashMap<>(env);
                String port = noPort.remove("QUOTAFLOW_HTTP_PORT");
                Run byKey = run(noPort, "status", "--application-id", app, "--http-port", port, "acme:CLI-1");
                assertThat(byKey.code()).as("the instances' port as a flag: %s", byKey.err()).isZero();
                assertThat(Json.MAPPER.readTree(byKey.out()).get("state").asText()).isEqualTo("classified");
                Run otherTenant = run(env, "status", "--application-id", app, "CLI-1");
                assertThat(otherTenant.code()).as("the default tenant's CLI-1 is another ticket").isEqualTo(1);
                Run unknown = run(env, "status", "--application-id", app, "NOPE");
                assertThat(unknown.code()).isEqualTo(1);
                assertThat(Json.MAPPER.readTree(unknown.out()).get("state").asText()).isEqualTo("unknown");
            }
            // no instance runs now: the results topic answers
            Map<String, String> elsewhere = new HashMap<>(env);
            elsewhere.put("QUOTAFLOW_HTTP_PORT", "1");
            Run finished = run(elsewhere, "status", "--application-id", app, "--tenant", "acme", "CLI-1");
            assertThat(finished.code()).as(finished.err()).isZero();
            JsonNode answer = Json.MAPPER.readTree(finished.out());
            assertThat(answer.get("state").asText()).isEqualTo("classified");
            assertThat(answer.get("id").asText()).isEqualTo("CLI-1");
            assertThat(answer.get("tenant").asText()).isEqualTo("acme");
            assertThat(answer.get("source").asText()).startsWith(prefix + "tickets.classified-");
            assertThat(answer.path("result").path("category").asText()).isNotBlank();
            // one shape: every field of an instance's answer, then where it was found
            java.util.List<String> fields = new java.util.ArrayList<>();
            answer.fieldNames().forEachRemaining(fields::add);
            assertThat(fields).startsWith("id", "state", "route", "routeState", "priority", "tenant", "position", "positionEstimated",
                    "estimatedStartAt", "estimatedDoneAt");
            assertThat(answer.get("estimatedDoneAt").asText()).isNotBlank();
            assertThat(answer.get("route").asText()).isEqualTo(answer.path("result").path("route").asText());
            Run none = run(elsewhere, "status", "--application-id", app, "NOPE");
            assertThat(none.code()).isEqualTo(1);
            assertThat(none.out()).isEmpty();
        }
    }
}

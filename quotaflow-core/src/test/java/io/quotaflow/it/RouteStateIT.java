package io.quotaflow.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.records.Json;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A pipeline whose provider is a port nobody listens on: the start check and the real calls make the
 * route {@code unreachable: connection refused}; {@code /status} says so for the route and is not
 * healthy; a ticket waiting on it carries the route's state and no ETA (never one of "now").
 */
class RouteStateIT {

    private static final String UNREACHABLE = "unreachable: connection refused";

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-route-state", 600, 200_000, 20);

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldShowTheRouteUnreachableInStatusAndInTicketStatusWithoutAnEta() throws Exception {
        try (io.quotaflow.testkit.DeadPort port = io.quotaflow.testkit.DeadPort.open()) {
            deadRoute(URI.create(port.url("/v1")));
        }
    }

    private void deadRoute(URI dead) throws Exception {
        QuotaflowConfig config = new QuotaflowConfig(it.bootstrapServers(), it.topics().prefix() + "quotaflow-dead",
                io.quotaflow.testkit.TestDirs.temporary("qf-dead"), 0, Map.of(),
                DispatcherSettings.builder(ModelSettings.of(dead, "gpt-4o-mini", Secret.of(it.key)), QuotaSettings.ofDefaults().withRpm(600)
                        .withTpm(200_000), BatchSettings.ofDefaults(), RetrySettings.ofDefaults()).build()
                        .withTopics(it.topics()).withDispatchPartitions(ItSupport.IT_PARTITIONS)).withHttp("127.0.0.1", 0);
        try (Pipeline pipeline = Pipeline.start(config)) {
            pipeline.startCheck().done().get(30, TimeUnit.SECONDS);
            JsonNode first = get(pipeline, "/status");
            assertThat(first.path("healthy").asBoolean(true)).as("healthy while the only route cannot serve").isFalse();
            assertThat(first.path("routes")).singleElement().satisfies(r -> {
                assertThat(r.path("route").asText()).isEqualTo("default");
                assertThat(r.path("routeState").asText()).isEqualTo(UNREACHABLE);
                assertThat(r.path("canServe").asBoolean(true)).isFalse();
            });
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(90))).isTrue();

            it.publish("DEAD", 1);
            // the ticket is taken, called for (connection refused) and waits for its retry
            AtomicReference<JsonNode> seen = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
                seen.set(get(pipeline, "/tickets/DEAD-0?tenant=t0"));
                return pipeline.metrics().calls() > 0 && List.of("pending", "delayed").contains(seen.get().path("state").asText());
            });
            JsonNode ticket = seen.get();
            assertThat(ticket.path("route").asText()).isEqualTo("default");
            assertThat(ticket.path("routeState").asText()).isEqualTo(UNREACHABLE);
            assertThat(ticket.path("estimatedStartAt").isNull()).as("no ETA while the route cannot serve: " + ticket).isTrue();
            assertThat(ticket.path("estimatedDoneAt").isNull()).as("no ETA while the route cannot serve: " + ticket).isTrue();
            JsonNode status = get(pipeline, "/status");
            assertThat(status.path("healthy").asBoolean(true)).isFalse();
            assertThat(status.path("routes").get(0).path("routeState").asText()).as("a real call's connection error keeps it")
                    .isEqualTo(UNREACHABLE);
            System.out.printf("RouteStateIT: /status routes %s; ticket %s%n", status.path("routes"), ticket);
        }
    }

    private JsonNode get(Pipeline p, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p.httpPort() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }
}

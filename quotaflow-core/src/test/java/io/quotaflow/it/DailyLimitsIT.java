package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.DailyLimits;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.Prices;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.testkit.PrometheusText;
import io.quotaflow.records.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A route's daily request limit on a real broker, the real (epoch-anchored) limiter clock and the
 * provider simulator over HTTP: exactly rpd calls (one ticket each), then the route is out for the day until the next
 * midnight UTC, in /status and in the metrics.
 */
class DailyLimitsIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-daily", 1_000, 400_000, 20);

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldMakeExactlyRpdCallsAndReportTheRouteOutForTheDay() throws Exception {
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(1_000).withTpm(400_000);
        QuotaflowConfig base = it.config("quotaflow-daily", quota, RetrySettings.ofDefaults()).withHttp("127.0.0.1", 0);
        DispatcherSettings d = base.dispatcher();
        RouteSettings route = new RouteSettings(RouteSettings.DEFAULT_NAME, d.model(), quota, List.of(), null, Prices.NONE,
                new DailyLimits(4, 0, 0), 0, 0);
        Routing routing = new Routing(Map.of(route.name(), route), route.name(), Map.of(), Map.of(), Map.of(), Duration.ZERO);
        DispatcherSettings dispatcher = DispatcherSettings.builder(d.model(), quota, BatchSettings.ofDefaults().withMaxItems(1), d.retry())
                .limits(d.limits()).topics(d.topics()).routing(routing).build();
        QuotaflowConfig config = new QuotaflowConfig(base.bootstrapServers(), base.applicationId(), base.stateDir(), base.httpPort(),
                base.kafka(), dispatcher, base.instanceId(), base.httpBind());

        it.publish("day", 30);
        try (Pipeline pipeline = Pipeline.start(config);
             OutcomeCounter counter = it.counter()) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classified() >= 4;
            });
            // nothing more may come: the day's four calls are spent
            ItSupport.awaitQuiet(Duration.ofSeconds(3), Duration.ofSeconds(33), () -> {
                counter.poll(Duration.ofMillis(100));
                return List.of(counter.read(), it.sim.stats().totalRequests());
            });
            assertThat(counter.classified()).isEqualTo(4);
            assertThat(counter.deadLettered()).isZero();
            assertThat(it.sim.stats().totalRequests()).isEqualTo(4);
            assertThat(it.sim.stats().http429()).isZero();

            int port = pipeline.httpPort();
            JsonNode scope = Json.MAPPER.readTree(get(port, "/status").body()).get("scopes").get(0);
            Instant now = Instant.now();
            Instant midnight = now.truncatedTo(ChronoUnit.DAYS).plus(Duration.ofDays(1));
            assertThat(Instant.parse(scope.get("outForDayUntil").asText())).as("the next midnight UTC")
                    .isIn(midnight, midnight.minus(Duration.ofDays(1)));
            assertThat(scope.get("limits").get("requests-per-day").get("available").asDouble()).isZero();
            PrometheusText metrics = PrometheusText.parse(get(port, "/metrics").body());
            Map<String, String> rpd = Map.of("route", "default", "dimension", "requests-per-day");
            assertThat(metrics.value("quotaflow_quota_limit", rpd)).contains(4.0);
            assertThat(metrics.value("quotaflow_quota_available", rpd)).contains(0.0);
            System.out.printf("DailyLimitsIT: %d calls, %d classified, out for the day until %s%n", it.sim.stats().totalRequests(),
                    counter.classified(), scope.get("outForDayUntil").asText());
        }
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}

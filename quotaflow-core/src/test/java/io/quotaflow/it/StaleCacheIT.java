package io.quotaflow.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.records.Json;
import io.quotaflow.settings.Routing;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.simulator.Faults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.StringReader;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A stale cached answer against a real broker: an answer past its TTL answers a new identical ticket, marked
 * stale, while the provider refuses the key (the route halts), and is asked again once the route serves.
 */
class StaleCacheIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-stale", 2_000, 1_000_000, 20);

    private static final RetrySettings RETRY = RetrySettings.ofDefaults().withHaltProbeInterval(Duration.ofSeconds(2));

    private static QuotaflowConfig config(String app, java.util.function.UnaryOperator<DispatcherSettings> change) {
        return it.config(app, QuotaSettings.ofDefaults().withRpm(2_000).withTpm(1_000_000), RETRY, change);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldAnswerFromAnExpiredAnswerMarkedStaleOnlyWhileTheRouteCannotServe() throws Exception {
        it.sim.setFaults(Faults.none());
        try (Pipeline pipeline = Pipeline.start(config("quotaflow-stale", d -> {
                Routing r = d.routing();
                return d.withRouting(new Routing(r.routes(), r.defaultRoute(), r.byPriority(), r.byTenant(), r.maxWait(),
                        Duration.ofSeconds(2), r.cacheShared(), Duration.ofDays(7)));
            }));
             OutcomeCounter counter = it.counter()) {
            publish("A", "Refund for a double charge");
            awaitResult(counter, "acme:A");
            // the answer's TTL (2 s) runs out: nothing marks that moment but time
            await().pollDelay(Duration.ofMillis(2_500)).atMost(Duration.ofSeconds(5)).until(() -> true);

            it.sim.setFaults(Faults.builder().failAuth(true).build());
            publish("K", "Something else entirely");
            await().atMost(Duration.ofSeconds(60)).until(() -> !pipeline.metrics().healthy());
            publish("B", "Refund for a double charge");
            JsonNode b = awaitResult(counter, "acme:B");
            assertThat(b.get("cached").asBoolean()).isTrue();
            assertThat(b.get("stale").asBoolean()).isTrue();
            assertThat(counter.classifiedIds()).as("K waits for the route").doesNotContain("acme:K");

            it.sim.setFaults(Faults.none());
            await().atMost(Duration.ofSeconds(60)).until(() -> pipeline.metrics().healthy());
            publish("C", "Refund for a double charge");
            JsonNode c = awaitResult(counter, "acme:C");
            assertThat(c.has("stale")).as("the route serves again: asked, not stale").isFalse();
            assertThat(c.get("cached").asBoolean()).isFalse();
            awaitResult(counter, "acme:K");
            assertThat(counter.duplicates()).isZero();
        }
    }

    private static void publish(String id, String subject) throws Exception {
        try (TicketPublisher publisher = new TicketPublisher(it.bootstrapServers(), Map.of(), it.topics())) {
            assertThat(publisher.publish(new StringReader("{\"id\":\"" + id + "\",\"subject\":\"" + subject + "\",\"body\":\"Order 77.\","
                    + "\"tenant\":\"acme\",\"priority\":\"interactive\"}\n"), Optional.empty(), p -> { }).succeeded()).isTrue();
        }
    }

    private static JsonNode awaitResult(OutcomeCounter counter, String key) throws Exception {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            counter.poll(Duration.ofMillis(100));
            return counter.results().containsKey(key);
        });
        return Json.MAPPER.readTree(counter.results().get(key));
    }
}

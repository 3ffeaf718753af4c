package io.quotaflow.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.status.QueueView;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances, one route: {@code GET /tickets/{id}} on the instance that does not own the route
 * answers what the owner answers (it forwards through {@code application.server}), for a waiting
 * ticket and a classified one.
 */
class TicketStatusIT {

    private static final int TICKETS = 120;
    /** A slow quota, so tickets wait long enough to be asked about. */
    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-status", 12, 100_000, 40);

    private final HttpClient http = HttpClient.newHttpClient();

    private JsonNode get(Pipeline p, String id) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p.httpPort() + "/tickets/" + id))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return Json.MAPPER.readTree(r.body());
    }

    private static Pipeline owner(List<Pipeline> instances) {
        List<Pipeline> owners = instances.stream().filter(p -> !p.metrics().tickets().views().isEmpty()).toList();
        return owners.size() == 1 ? owners.get(0) : null;
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldAnswerOnTheInstanceThatDoesNotOwnTheRouteWhatTheOwnerAnswers() throws Exception {
        List<Pipeline> instances = new ArrayList<>();
        QuotaSettings quota = QuotaSettings.ofDefaults().withRpm(12).withTpm(100_000);
        for (int i = 0; i < 2; i++) {
            QuotaflowConfig c = it.config("quotaflow-status", quota, RetrySettings.ofDefaults()).withHttp("127.0.0.1", 0);
            instances.add(Pipeline.start(c));
        }
        try {
            for (Pipeline p : instances) {
                assertThat(p.awaitRunning(Duration.ofSeconds(90))).isTrue();
            }
            Set<String> ids = it.publish("S", TICKETS);
            AtomicReference<Pipeline> owner = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
                owner.set(owner(instances));
                return owner.get() != null && owner.get().metrics().tickets().views().get(0).size() > 20;
            });
            Pipeline other = instances.stream().filter(p -> p != owner.get()).findFirst().orElseThrow();
            assertThat(get(other, "nope").get("state").asText()).isEqualTo("unknown");

            // a waiting ticket: the last of the queue, while the queue does not move between the two answers
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
                QueueView view = owner.get().metrics().tickets().views().get(0);
                String id = lastWaiting(view);
                JsonNode before = get(owner.get(), id);
                JsonNode forwarded = get(other, id);
                JsonNode after = get(owner.get(), id);
                assertThat(before.get("position")).as("the queue did not move meanwhile").isEqualTo(after.get("position"));
                assertThat(forwarded.get("state").asText()).isEqualTo("pending");
                for (String field : List.of("id", "state", "route", "priority", "tenant", "position")) {
                    assertThat(forwarded.get(field)).as(field).isEqualTo(before.get(field));
                }
                long ownerDone = Instant.parse(before.get("estimatedDoneAt").asText()).toEpochMilli();
                long otherDone = Instant.parse(forwarded.get("estimatedDoneAt").asText()).toEpochMilli();
                assertThat(Math.abs(otherDone - ownerDone)).as("ETAs taken moments apart").isLessThan(2_000);
                assertThat(before.get("position").asInt()).isPositive();
            });

            // a classified ticket: its record answers, identically
            String done = ids.iterator().next();
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .until(() -> get(owner.get(), done).get("state").asText().equals("classified"));
            assertThat(get(other, done)).isEqualTo(get(owner.get(), done));
            assertThat(get(other, done).get("estimatedDoneAt").isTextual()).isTrue();
        } finally {
            for (Pipeline p : instances) {
                p.close();
            }
        }
    }

    private static String lastWaiting(QueueView view) {
        String last = null;
        int best = -1;
        for (int i = 0; i < TICKETS; i++) {
            String key = "t" + i % 3 + ":S-" + i; // the key of ItSupport.publish's ticket S-i
            var place = view.place(key);
            if (place.isPresent() && place.get().position() > best) {
                best = place.get().position();
                last = key;
            }
        }
        assertThat(last).as("some ticket waits").isNotNull();
        return last;
    }
}

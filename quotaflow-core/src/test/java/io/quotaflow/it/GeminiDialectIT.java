package io.quotaflow.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.records.Json;
import io.quotaflow.settings.Dialect;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimDialect;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Gemini: {@code RetryInfo.retryDelay} is waited out, and its per-day quota ends the route's day (its waiting
 * tickets fall back, all but the one kept as the probe).
 */
@Order(7) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
class GeminiDialectIT extends DialectItBase {

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldWaitGeminisRetryDelayAndEndTheDayOnItsPerDayQuota() throws Exception {
        // one call every 5 s after the first, told only in the body (RetryInfo.retryDelay: no headers)
        try (ProviderSimulator gemini = sim(SimDialect.GEMINI, 12, 5);
             ProviderSimulator backup = sim(SimDialect.OPENAI, 6_000, 5);
             Pipeline pipeline = Pipeline.start(config("gemini", RetrySettings.ofDefaults(),
                     route("gemini", gemini, Dialect.GEMINI, List.of("backup")), route("backup", backup, Dialect.OPENAI, List.of())));
             OutcomeCounter counter = new OutcomeCounter(broker.bootstrapServers(), Map.of(), topics.prefix())) {
            Set<String> paced = ItSupport.publish(broker, topics, "GP", 8);
            awaitAll(counter, paced);
            long calls = gemini.stats().requestsWithStatus(200);
            long limited = gemini.stats().http429();
            assertThat(backup.stats().totalRequests()).as("all served by gemini, at its pace").isZero();
            assertThat(limited).as("the simulator held the calls back with 429s").isPositive();
            assertThat(limited).as("each 429 waits its retryDelay (5 s), not the 1 s default").isLessThanOrEqualTo(waitedOut(calls));

            gemini.setDown(MODEL, 429);
            Set<String> moved = ItSupport.publish(broker, topics, "GD", 12);
            // every waiting ticket but one falls back: the last stays as the probe that tells when the day is back
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return moved.stream().filter(counter.classifiedIds()::contains).count() >= moved.size() - 1;
            });
            ItSupport.awaitQuiet(Duration.ofSeconds(3), counter);
            long perDay = gemini.stats().http429() - limited;
            // as many as the calls out when the first came back: each carries a ticket at least, and on a loaded machine a
            // tick may send every one of them at once (eight calls once, in a full verify)
            assertThat(perDay).as("the day ends at the first per-day 429s (the calls out then)").isBetween(1L, (long) moved.size());
            ItSupport.awaitQuiet(Duration.ofSeconds(3), counter);
            assertThat(gemini.stats().inFlight()).as("no call out").isZero();
            assertThat(gemini.stats().http429() - limited).as("nothing is sent once the day ended").isEqualTo(perDay);
            assertThat(moved.stream().filter(counter.classifiedIds()::contains).count()).isEqualTo(moved.size() - 1);
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).as("the one left waits for the reset, it is not lost").isZero();
            for (String key : moved) {
                if (counter.results().containsKey(key)) {
                    JsonNode result = Json.MAPPER.readTree(counter.results().get(key));
                    assertThat(result.path("route").asText()).as(key).isEqualTo("backup");
                    assertThat(result.path("fallbackReason").asText()).as(key).isEqualTo("out-for-day");
                }
            }
            System.out.printf("GeminiDialectIT gemini: %d tickets in %d calls with %d retryDelay 429s; then %d per-day 429s ended the day and "
                    + "%d of %d tickets fell back%n", paced.size(), calls, limited, perDay, moved.size() - 1, moved.size());
        }
    }
}

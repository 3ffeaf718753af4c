package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.simulator.SimulatorStats;
import io.quotaflow.testkit.DemoDataset;
import io.quotaflow.records.TicketKey;
import io.quotaflow.publish.PublishSummary;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.records.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The whole pipeline on an in-process KRaft broker, calling the provider simulator over HTTP. */
class PipelineIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-pipeline", 1_000, 400_000, 40);

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldClassifyEveryValidTicketExactlyOnceWithNo429() throws Exception {
        // TPM binds: the bundled set needs well over a burst's worth of tokens
        QuotaflowConfig config = it.config("quotaflow-it", QuotaSettings.ofDefaults().withRpm(1_000).withTpm(400_000),
                RetrySettings.ofDefaults());

        PublishSummary summary;
        try (TicketPublisher publisher = new TicketPublisher(it.bootstrapServers(), Map.of(), it.topics())) {
            summary = publisher.publish(DemoDataset.openTickets(), Optional.empty(), true, p -> { }, i -> { });
        }
        assertThat(summary.succeeded()).isTrue();
        assertThat(summary.acknowledged()).isEqualTo(500);

        // every labelled ticket, T-HUGE-1 too: its 700 000 characters are a pasted log, which the lean
        // prompt cuts to head and tail (TicketText), so it fits the context window
        Set<String> expected = new HashSet<>(DemoDataset.labels().keySet());

        try (Pipeline pipeline = Pipeline.start(config);
             OutcomeCounter counter = it.counter()) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classified() + counter.deadLettered() >= 500;
            });
            // anything late would be a duplicate: give it a moment to show up
            ItSupport.awaitQuiet(Duration.ofSeconds(1), counter);

            assertThat(ids(counter.classifiedIds())).isEqualTo(expected);
            assertThat(counter.duplicates()).isZero();
            assertThat(byId(counter.deadLetters())).containsEntry("T-EMPTY-1", "bad-input")
                    .hasSize(4);
            assertThat(counter.deadLettersByKind()).containsOnly(Map.entry("bad-input", 4L));

            int agree = 0;
            for (Map.Entry<String, byte[]> e : counter.results().entrySet()) {
                JsonNode json = Json.MAPPER.readTree(e.getValue());
                assertThat(TicketKey.key(json.get("tenant").asText(), json.get("id").asText())).isEqualTo(e.getKey());
                assertThat(ModelSettings.DEFAULT_CATEGORIES).contains(json.get("category").asText());
                assertThat(ModelSettings.DEFAULT_URGENCIES).contains(json.get("urgency").asText());
                var label = DemoDataset.labels().get(TicketKey.parse(e.getKey()).id());
                if (label.category().equals(json.get("category").asText())) {
                    agree++;
                }
            }
            SimulatorStats stats = it.sim.stats();
            assertThat(stats.http429()).isZero();
            // calls carry several tickets. How many depends on how fast intake feeds the dispatcher and on
            // how many calls the banked quota pays for (quota.max-in-flight=auto divides it by the mean
            // cost of a call, which the lean prompt lowered): 137 and 260 calls in two runs on a loaded 2-core machine
            assertThat(stats.totalRequests()).isPositive().isLessThan(expected.size());
            System.out.printf("PipelineIT: %d calls, %d prompt + %d completion tokens, category agreement %d/%d%n",
                    stats.totalRequests(), stats.promptTokens(), stats.completionTokens(), agree, expected.size());
        }
    }

    /** The ticket ids of result keys ({@code tenant:id}: the demo tickets name their tenants). */
    private static Set<String> ids(Set<String> keys) {
        return keys.stream().map(k -> TicketKey.parse(k).id()).collect(java.util.stream.Collectors.toSet());
    }

    private static Map<String, String> byId(Map<String, String> byKey) {
        Map<String, String> out = new java.util.HashMap<>();
        byKey.forEach((k, v) -> out.put(TicketKey.parse(k).id(), v));
        return out;
    }
}

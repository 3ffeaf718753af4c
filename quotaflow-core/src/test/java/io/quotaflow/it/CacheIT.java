package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.Pipeline;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RecordLimits;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.llm.ModelClient;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.llm.OpenAiChatClient;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.records.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The cache and coalescing on a real broker: a copy of every ticket under a new id costs no call (docs/design.md, "Cache"). */
class CacheIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-cache", 3_000, 2_000_000, 40);

    /**
     * Counts how often the model answered about each subject (the text of a ticket and its copy are the same). A ticket
     * left out of an answer cut at {@code max_tokens} is asked again with a larger reservation, by design (FailurePathTest):
     * that second asking is the completion budget's, not a copy's, so only the answers count here.
     */
    private static final class Counting implements ModelClient {
        final ModelClient inner;
        final Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();

        Counting(ModelClient inner) {
            this.inner = inner;
        }

        @Override
        public CompletionStage<ModelOutcome> classify(ModelRequest request) {
            return inner.classify(request).whenComplete((outcome, failure) -> {
                if (outcome instanceof ModelOutcome.Answered answered) {
                    for (ModelItem item : request.items()) {
                        if (answered.labels().containsKey(item.id())) {
                            asked.computeIfAbsent(item.subject().strip().replaceAll("\\s+", " "), s -> new AtomicInteger()).incrementAndGet();
                        }
                    }
                }
            });
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    private static byte[] tickets(String prefix, int n, boolean messy) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < n; i++) {
            lines.append("{\"id\":\"").append(prefix).append(i).append("\",\"subject\":\"").append(messy ? "  Order  " : "Order ")
                    .append(i)
                    .append(" not delivered\",\"body\":\"The tracking for my package has not moved for ").append(i % 9 + 2)
                    .append(" days.   \",\"tenant\":\"t").append(i % 3).append("\",\"priority\":\"standard\"}\n");
        }
        return lines.toString().getBytes(StandardCharsets.UTF_8);
    }

    private void publish(byte[] lines, int n) {
        try (TicketPublisher publisher = new TicketPublisher(it.bootstrapServers(), Map.of(), it.topics())) {
            var summary = publisher.publish(new ByteArrayInputStream(lines), Optional.empty(), false, p -> { }, i -> { });
            assertThat(summary.acknowledged()).isEqualTo(n);
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldAskTheModelAboutEachContentOnceForATicketAndItsCopyUnderANewId() throws Exception {
        QuotaflowConfig base = it.config("quotaflow-cache", QuotaSettings.ofDefaults().withRpm(3_000).withTpm(2_000_000),
                RetrySettings.ofDefaults());
        DispatcherSettings single = base.dispatcher();
        Routing routing = new Routing(single.routing().routes(), single.routing().defaultRoute(), Map.of(), Map.of(), Map.of(),
                Duration.ofHours(24));
        QuotaflowConfig config = new QuotaflowConfig(base.bootstrapServers(), base.applicationId(),
                io.quotaflow.testkit.TestDirs.temporary("qf-cache"), -1, Map.of(), DispatcherSettings.of(routing, BatchSettings.ofDefaults(),
                RetrySettings.ofDefaults(), RecordLimits.ofDefaults(), it.topics()));
        Counting counting = new Counting(new OpenAiChatClient(single.model()));
        try (Pipeline pipeline = Pipeline.start(config, ModelClients.of(counting));
             OutcomeCounter counter = it.counter()) {
            publish(tickets("A-", 500, false), 500);
            // the copies (whitespace aside, the same text) arrive while their originals wait, fly or are answered
            publish(tickets("B-", 500, true), 500);
            Set<String> ids = new LinkedHashSet<>();
            for (int i = 0; i < 500; i++) {
                // results are keyed tenant:id (the tickets name tenants t0, t1, t2)
                ids.add("t" + i % 3 + ":A-" + i);
                ids.add("t" + i % 3 + ":B-" + i);
            }
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                return counter.classifiedIds().containsAll(ids);
            });
            counter.poll(Duration.ofSeconds(1));

            assertThat(counter.classifiedIds()).isEqualTo(ids);
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).isZero();
            assertThat(counting.asked).hasSize(500);
            assertThat(counting.asked.values()).allSatisfy(n -> assertThat(n.get()).as("asked once per content").isEqualTo(1));
            int cached = 0;
            for (int i = 0; i < 500; i++) {
                JsonNode a = Json.MAPPER.readTree(counter.results().get("t" + i % 3 + ":A-" + i));
                JsonNode b = Json.MAPPER.readTree(counter.results().get("t" + i % 3 + ":B-" + i));
                assertThat(b.get("category").asText()).isEqualTo(a.get("category").asText());
                assertThat(b.get("urgency").asText()).isEqualTo(a.get("urgency").asText());
                cached += a.path("cached").asBoolean() ? 1 : 0;
                cached += b.path("cached").asBoolean() ? 1 : 0;
            }
            assertThat(cached).as("one of each pair answered by the other's call").isEqualTo(500);
            System.out.printf("CacheIT: 1000 tickets, %d distinct contents asked once each, %d answered from the cache or by an "
                    + "identical ticket's call, %d calls%n", counting.asked.size(), cached, it.sim.stats().totalRequests());
        }
    }
}

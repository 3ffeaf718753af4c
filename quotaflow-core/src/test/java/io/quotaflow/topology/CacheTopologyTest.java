package io.quotaflow.topology;

import io.quotaflow.records.DeadLetterHeaders;
import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.Routing;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import io.quotaflow.dispatch.report.DispatcherListener;

import static org.assertj.core.api.Assertions.assertThat;

/** The cache and coalescing through the whole topology (docs/design.md, "Cache"). */
class CacheTopologyTest {

    private final AtomicInteger hits = new AtomicInteger();
    private final AtomicInteger misses = new AtomicInteger();

    private final DispatcherListener counting = new DispatcherListener() {
        @Override
        public void cacheHit(String scope) {
            hits.incrementAndGet();
        }

        @Override
        public void cacheMiss(String scope) {
            misses.incrementAndGet();
        }
    };

    private static DispatcherSettings withTtl(Duration ttl) {
        DispatcherSettings s = Fixtures.settings();
        Routing r = s.routing();
        return s.withRouting(new Routing(r.routes(), r.defaultRoute(), r.byPriority(), r.byTenant(), r.maxWait(), ttl));
    }

    private static byte[] ticket(String id, String subject) {
        return ("{\"id\":\"" + id + "\",\"subject\":\"" + subject + "\",\"body\":\"My invoice is wrong, please help.\","
                + "\"tenant\":\"default\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static Map<String, JsonNode> byId(List<TestRecord<String, byte[]>> records) throws Exception {
        Map<String, JsonNode> out = new HashMap<>();
        for (TestRecord<String, byte[]> r : records) {
            assertThat(out.put(r.key(), Json.MAPPER.readTree(r.value()))).as("one result per ticket: " + r.key()).isNull();
        }
        return out;
    }

    @Test
    void shouldAnswerACopyUnderANewIdFromTheCacheWithoutACall() throws Exception {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "high");
        try (PipelineHarness h = new PipelineHarness(withTtl(Duration.ofHours(24)), client, counting)) {
            h.pipe(Priority.INTERACTIVE, "A", ticket("A", "Invoice wrong"));
            h.advance(Duration.ofMillis(500));
            h.pipe(Priority.INTERACTIVE, "B", ticket("B", "  Invoice   wrong "));
            h.advance(Duration.ofMillis(500));
            Map<String, JsonNode> results = byId(h.classified());

            assertThat(results.get("A").get("cached").asBoolean()).isFalse();
            JsonNode b = results.get("B");
            assertThat(b.get("cached").asBoolean()).isTrue();
            assertThat(b.get("category").asText()).isEqualTo("billing");
            assertThat(b.get("urgency").asText()).isEqualTo("high");
            assertThat(b.get("attempts").asInt()).isZero();
            assertThat(b.get("promptTokens").asLong()).isZero();
            assertThat(b.get("route").asText()).isEqualTo("default");
            assertThat(client.requestedIds()).containsExactly("A");
            assertThat(hits.get()).isEqualTo(1);
            assertThat(misses.get()).isEqualTo(1);
        }
    }

    @Test
    void shouldAnswerAnIdenticalTicketWaitingOrInFlightByTheSameCall() throws Exception {
        FakeModelClient client = FakeModelClient.labellingAll("technical", "low").hold();
        try (PipelineHarness h = new PipelineHarness(withTtl(Duration.ofHours(24)), client, counting)) {
            h.pipe(Priority.INTERACTIVE, "A", ticket("A", "Login fails"));
            h.advance(Duration.ofMillis(200));
            h.pipe(Priority.INTERACTIVE, "B", ticket("B", "Login fails"));
            h.pipe(Priority.INTERACTIVE, "C", ticket("C", "Login fails"));
            h.advance(Duration.ofMillis(200));
            client.completeAll();
            h.advance(Duration.ofMillis(200));
            Map<String, JsonNode> results = byId(h.classified());

            assertThat(results).containsOnlyKeys("A", "B", "C");
            assertThat(results.get("B").get("cached").asBoolean()).isTrue();
            assertThat(results.get("C").get("category").asText()).isEqualTo("technical");
            assertThat(client.requestedIds()).containsExactly("A");
        }
    }

    @Test
    void shouldAskAgainOnceTheAnswerExpired() throws Exception {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(withTtl(Duration.ofMinutes(1)), client, counting)) {
            h.pipe(Priority.INTERACTIVE, "A", ticket("A", "Refund please"));
            h.advance(Duration.ofSeconds(2));
            h.advance(Duration.ofMinutes(2));
            h.pipe(Priority.INTERACTIVE, "B", ticket("B", "Refund please"));
            h.advance(Duration.ofSeconds(1));

            Map<String, JsonNode> results = byId(h.classified());
            assertThat(results).containsOnlyKeys("A", "B");
            assertThat(results.get("B").has("stale")).as("the route serves: an expired answer is not used").isFalse();
            assertThat(client.requestedIds()).containsExactly("A", "B");
        }
    }

    @Test
    void shouldAnswerFromAnExpiredAnswerMarkedStaleOnlyWhileTheRouteCannotServe() throws Exception {
        AtomicInteger stale = new AtomicInteger();
        DispatcherListener listener = new DispatcherListener() {
            @Override
            public void staleCacheHit(String scope) {
                stale.incrementAndGet();
            }
        };
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(withTtl(Duration.ofMinutes(1)), client, listener)) {
            h.pipe(Priority.INTERACTIVE, "A", ticket("A", "Refund please"));
            h.advance(Duration.ofSeconds(2));
            h.advance(Duration.ofMinutes(2));
            client.respondWith(r -> FakeModelClient.failed(ModelOutcome.FailureKind.HALT, 401, "invalid api key"));
            h.pipe(Priority.INTERACTIVE, "K", ticket("K", "Something else"));
            h.advance(Duration.ofSeconds(2));
            h.pipe(Priority.INTERACTIVE, "B", ticket("B", "Refund please"));
            h.pipe(Priority.INTERACTIVE, "C", ticket("C", "Never asked before"));
            h.advance(Duration.ofSeconds(2));

            Map<String, JsonNode> results = byId(h.classified());
            assertThat(results).as("K and C wait for the halted route; B is answered stale").containsOnlyKeys("A", "B");
            JsonNode b = results.get("B");
            assertThat(b.get("cached").asBoolean()).isTrue();
            assertThat(b.get("stale").asBoolean()).isTrue();
            assertThat(b.get("category").asText()).isEqualTo("billing");
            assertThat(b.get("attempts").asInt()).isZero();
            assertThat(results.get("A").has("stale")).isFalse();
            assertThat(client.requestedIds()).as("B made no call").doesNotContain("B").contains("A", "K");
            assertThat(stale.get()).isEqualTo(1);
        }
    }

    @Test
    void shouldAskForEveryTicketWithTheCacheOff() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(withTtl(Duration.ZERO), client, counting)) {
            h.pipe(Priority.INTERACTIVE, "A", ticket("A", "Refund please"));
            h.advance(Duration.ofMillis(500));
            h.pipe(Priority.INTERACTIVE, "B", ticket("B", "Refund please"));
            h.advance(Duration.ofMillis(500));

            assertThat(h.classified()).hasSize(2);
            assertThat(client.requestedIds()).containsExactly("A", "B");
            assertThat(hits.get()).isZero();
        }
    }

    @Test
    void shouldDeadLetterTheFollowersWithTheirLeader() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.NON_RETRYABLE, 400,
                "unsupported parameter")).hold();
        try (PipelineHarness h = new PipelineHarness(withTtl(Duration.ofHours(24)), client, counting)) {
            h.pipe(Priority.INTERACTIVE, "A", ticket("A", "Strange request"));
            h.advance(Duration.ofMillis(200));
            h.pipe(Priority.INTERACTIVE, "B", ticket("B", "Strange request"));
            h.advance(Duration.ofMillis(200));
            client.completeAll();
            h.advance(Duration.ofMillis(200));

            List<TestRecord<String, byte[]>> dead = h.deadLetters();
            assertThat(dead).extracting(TestRecord::key).containsExactlyInAnyOrder("A", "B");
            assertThat(dead).allSatisfy(d -> assertThat(new String(d.headers().lastHeader(DeadLetterHeaders.ERROR_KIND).value(),
                    StandardCharsets.UTF_8)).isEqualTo("non-retryable"));
            assertThat(h.classified()).isEmpty();
            assertThat(client.requestedIds()).containsExactly("A");
        }
    }
}

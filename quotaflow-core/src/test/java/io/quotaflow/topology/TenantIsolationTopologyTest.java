package io.quotaflow.topology;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.Routing;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A ticket's identity is (tenant, id): no tenant replaces, cancels or learns about another's (docs/design.md, "Tenants and identity"). */
class TenantIsolationTopologyTest {

    private static byte[] ticket(String tenant, String id, String subject) {
        return ("{\"id\":\"" + id + "\",\"tenant\":\"" + tenant + "\",\"subject\":\"" + subject + "\",\"body\":\"Details of "
                + subject + ".\"}").getBytes(StandardCharsets.UTF_8);
    }

    private static DispatcherSettings cache(boolean global) {
        DispatcherSettings s = Fixtures.settings();
        Routing r = s.routing();
        return s.withRouting(new Routing(r.routes(), r.defaultRoute(), r.byPriority(), r.byTenant(), r.maxWait(), Duration.ofHours(24),
                global));
    }

    private static Map<String, JsonNode> byKey(List<TestRecord<String, byte[]>> records) throws Exception {
        Map<String, JsonNode> out = new HashMap<>();
        for (TestRecord<String, byte[]> r : records) {
            assertThat(out.put(r.key(), Json.MAPPER.readTree(r.value()))).as("one result per ticket: " + r.key()).isNull();
        }
        return out;
    }

    @Test
    void shouldKeepTwoTenantsTicketsWithOneIdApartAndNameTheTenantInEachResult() throws Exception {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.answer(r, "account", "low"));
        try (PipelineHarness h = new PipelineHarness(cache(false), client)) {
            h.pipe(Priority.STANDARD, "1042", ticket("acme", "1042", "Data breach on our account"));
            h.pipe(Priority.STANDARD, "1042", ticket("globex", "1042", "How do I change my avatar"));
            h.advance(Duration.ofSeconds(5));

            Map<String, JsonNode> results = byKey(h.classified());
            assertThat(results).containsOnlyKeys("acme:1042", "globex:1042");
            assertThat(results.get("acme:1042").get("tenant").asText()).isEqualTo("acme");
            assertThat(results.get("acme:1042").get("id").asText()).isEqualTo("1042");
            assertThat(results.get("globex:1042").get("tenant").asText()).isEqualTo("globex");
            assertThat(client.requestedIds()).containsExactlyInAnyOrder("acme:1042", "globex:1042");
        }
    }

    @Test
    void shouldNotAnswerATenantFromAnotherTenantsCachedAnswer() throws Exception {
        FakeModelClient client = FakeModelClient.labellingAll("security", "critical");
        try (PipelineHarness h = new PipelineHarness(cache(false), client)) {
            h.pipe(Priority.INTERACTIVE, "A-1", ticket("acme", "A-1", "Data breach"));
            h.advance(Duration.ofSeconds(1));
            h.pipe(Priority.INTERACTIVE, "G-1", ticket("globex", "G-1", "Data breach"));
            h.advance(Duration.ofSeconds(1));
            h.pipe(Priority.INTERACTIVE, "A-2", ticket("acme", "A-2", "Data breach"));
            h.advance(Duration.ofSeconds(1));

            Map<String, JsonNode> results = byKey(h.classified());
            assertThat(results.get("globex:G-1").get("cached").asBoolean()).as("a probe with another tenant's text").isFalse();
            assertThat(results.get("acme:A-2").get("cached").asBoolean()).as("the same tenant still gets its cache").isTrue();
            assertThat(client.requestedIds()).containsExactly("acme:A-1", "globex:G-1");
        }
    }

    @Test
    void shouldShareAnswersAcrossTenantsOnlyWhenTheCacheIsGlobal() throws Exception {
        FakeModelClient client = FakeModelClient.labellingAll("security", "critical");
        try (PipelineHarness h = new PipelineHarness(cache(true), client)) {
            h.pipe(Priority.INTERACTIVE, "A-1", ticket("acme", "A-1", "Data breach"));
            h.advance(Duration.ofSeconds(1));
            h.pipe(Priority.INTERACTIVE, "G-1", ticket("globex", "G-1", "Data breach"));
            h.advance(Duration.ofSeconds(1));

            assertThat(byKey(h.classified()).get("globex:G-1").get("cached").asBoolean()).isTrue();
            assertThat(client.requestedIds()).containsExactly("acme:A-1");
        }
    }

    @Test
    void shouldNotNameTheLeaderInAFollowersDeadLetter() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.NON_RETRYABLE, 400,
                "unsupported parameter")).hold();
        try (PipelineHarness h = new PipelineHarness(cache(true), client)) {
            h.pipe(Priority.INTERACTIVE, "A-10", ticket("acme", "A-10", "Strange request"));
            h.advance(Duration.ofMillis(200));
            h.pipe(Priority.INTERACTIVE, "G-7", ticket("globex", "G-7", "Strange request"));
            h.advance(Duration.ofMillis(200));
            client.completeAll();
            h.advance(Duration.ofMillis(200));

            List<TestRecord<String, byte[]>> dead = h.deadLetters();
            assertThat(dead).extracting(TestRecord::key).containsExactlyInAnyOrder("acme:A-10", "globex:G-7");
            TestRecord<String, byte[]> follower = dead.stream().filter(d -> d.key().equals("globex:G-7")).findFirst().orElseThrow();
            String message = new String(follower.headers().lastHeader(DeadLetterHeaders.ERROR_MESSAGE).value(), StandardCharsets.UTF_8);
            assertThat(message).doesNotContain("A-10").doesNotContain("acme");
            assertThat(new String(follower.headers().lastHeader(DeadLetterHeaders.TENANT).value(), StandardCharsets.UTF_8))
                    .isEqualTo("globex");
            assertThat(new String(follower.value(), StandardCharsets.UTF_8)).doesNotContain("acme");
        }
    }

    @Test
    void shouldReplaceOnlyTheSameTenantsTicketWhenAnIdIsPublishedAgain() throws Exception {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low").hold();
        try (PipelineHarness h = new PipelineHarness(cache(false), client)) {
            h.pipe(Priority.BULK, "acme:9", ticket("acme", "9", "First text"));
            h.pipe(Priority.BULK, "globex:9", ticket("globex", "9", "Other tenant"));
            h.pipe(Priority.BULK, "acme:9", ticket("acme", "9", "Second text"));
            for (int i = 0; i < 40; i++) {
                h.advance(Duration.ofSeconds(1));
                client.completeAll();
            }

            Map<String, JsonNode> results = byKey(h.classified());
            assertThat(results).containsOnlyKeys("acme:9", "globex:9");
            String asked = client.requests().stream().flatMap(r -> r.items().stream())
                    .filter(i -> i.id().equals("acme:9")).map(i -> i.subject()).reduce((a, b) -> b).orElseThrow();
            assertThat(asked).isEqualTo("Second text");
        }
    }
}

package io.quotaflow.topology;

import io.quotaflow.records.TicketKey;
import io.quotaflow.records.DeadLetterHeaders;
import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.quotaflow.dispatch.report.DispatcherListener;

import static org.assertj.core.api.Assertions.assertThat;

/** Routing, fallback and context fallback through the whole topology (docs/design.md, "Routes"). */
class RoutesTopologyTest {

    private final Map<String, FakeModelClient> clients = new HashMap<>();
    private final List<String[]> fallbacks = new ArrayList<>();

    private FakeModelClient client(String route) {
        return clients.computeIfAbsent(route, r -> FakeModelClient.labellingAll("billing", "low"));
    }

    private PipelineHarness harness(DispatcherSettings settings) {
        DispatcherListener listener = new DispatcherListener() {
            @Override
            public void fellBack(String from, String to, String reason) {
                fallbacks.add(new String[]{from, to, reason});
            }
        };
        return new PipelineHarness(settings, ModelClients.perScope(route -> client(route.name())), listener);
    }

    private static Map<String, JsonNode> byId(List<TestRecord<String, byte[]>> records) throws Exception {
        Map<String, JsonNode> out = new HashMap<>();
        for (TestRecord<String, byte[]> r : records) {
            assertThat(out.put(r.key(), Json.MAPPER.readTree(r.value()))).as("one result per ticket: " + r.key()).isNull();
        }
        return out;
    }

    private static byte[] bigTicket(String id, int words) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < words; i++) {
            body.append("word").append(i % 97).append(' ');
        }
        return Fixtures.ticket(id, "default", body.toString().strip());
    }

    @Test
    void shouldMoveEveryWaitingTicketToTheFallbackWhileTheRouteIsHaltedProbeApartAndComeBackAfter() throws Exception {
        DispatcherSettings settings = Fixtures.routed(Map.of(), Fixtures.route("primary", 128_000, List.of("backup"), null),
                Fixtures.route("backup", 128_000, List.of(), null));
        client("primary").respondWith(r -> FakeModelClient.failed(ModelOutcome.FailureKind.HALT, 401, "invalid api key"));
        try (PipelineHarness h = harness(settings)) {
            for (int i = 0; i < 5; i++) {
                h.pipe(Priority.INTERACTIVE, "T-" + i, Fixtures.ticket("T-" + i));
            }
            h.advance(Duration.ofSeconds(3));
            Map<String, JsonNode> first = byId(h.classified());

            assertThat(first).as("every ticket moves: none stays behind as the probe").hasSize(5);
            first.values().forEach(json -> {
                assertThat(json.get("route").asText()).isEqualTo("backup");
                assertThat(json.get("fallbackFrom").asText()).isEqualTo("primary");
                assertThat(json.get("fallbackReason").asText()).isEqualTo("halted");
            });
            assertThat(fallbacks).hasSize(5).allSatisfy(f -> assertThat(f).containsExactly("primary", "backup", "halted"));

            // refused probes keep the halt; each is a one-token call of its own, no ticket
            h.advance(Duration.ofMinutes(2));
            List<ModelRequest> sent = client("primary").requests();
            assertThat(sent.get(0).items()).as("the call that found the halt").isNotEmpty();
            List<ModelRequest> probes = sent.subList(1, sent.size());
            assertThat(probes).as("a probe every retry.halt-probe-ms").hasSizeBetween(2, 10).allSatisfy(p -> {
                assertThat(p.items()).isEmpty();
                assertThat(p.prompt().maxTokens()).isEqualTo(1);
                assertThat(p.prompt().body().get("max_tokens").asInt()).isEqualTo(1);
                assertThat(p.prompt().body().get("messages").get(0).get("content").asText()).isEqualTo("Reply with OK.");
            });

            // the key works again: the next probe is accepted and new tickets use the primary again
            client("primary").respondWith(r -> FakeModelClient.answer(r, "technical", "high"));
            h.advance(Duration.ofMinutes(2));
            h.pipe(Priority.INTERACTIVE, "T-new", Fixtures.ticket("T-new"));
            h.advance(Duration.ofSeconds(1));
            Map<String, JsonNode> second = byId(h.classified());
            assertThat(second).containsOnlyKeys("T-new");
            assertThat(second.get("T-new").get("route").asText()).isEqualTo("primary");
            assertThat(second.get("T-new").has("fallbackFrom")).isFalse();
            assertThat(h.deadLetters()).isEmpty();
        }
    }

    @Test
    void shouldSendTicketsWhoseExpectedWaitExceedsMaxWaitToTheFallback() throws Exception {
        RouteSettings slow = Fixtures.route("primary", 128_000, List.of("backup"), null);
        slow = new RouteSettings(slow.name(), slow.model(), slow.quota().withRpm(6).withTpm(2_000_000), slow.fallback(), null,
                null, null, 0, 0);
        DispatcherSettings settings = Fixtures.routed(Map.of(Priority.INTERACTIVE, Duration.ofSeconds(30)), slow,
                Fixtures.route("backup", 128_000, List.of(), null));
        try (PipelineHarness h = harness(settings)) {
            // 6 calls a minute of 10 tickets: 100 tickets would take ~10 minutes here
            for (int i = 0; i < 100; i++) {
                h.pipe(Priority.INTERACTIVE, "T-" + i, Fixtures.ticket("T-" + i));
            }
            h.advance(Duration.ofSeconds(2));
            h.advance(Duration.ofMinutes(1));
            Map<String, JsonNode> results = byId(h.classified());

            assertThat(results).hasSize(100);
            long moved = results.values().stream().filter(j -> j.get("route").asText().equals("backup")).count();
            assertThat(moved).isBetween(80L, 97L);
            results.values().stream().filter(j -> j.get("route").asText().equals("backup"))
                    .forEach(j -> assertThat(j.get("fallbackReason").asText()).isEqualTo("max-wait"));
            // a moved ticket was never asked of the primary: it asked about exactly the ones it kept
            assertThat(client("primary").requestedIds()).hasSize((int) (100 - moved));
        }
    }

    @Test
    void shouldSendATicketTooLargeForItsRouteToTheContextFallbackWithoutCallingIt() throws Exception {
        DispatcherSettings settings = Fixtures.routed(Map.of(), Fixtures.route("primary", 8_192, List.of(), "long"),
                Fixtures.route("long", 200_000, List.of(), null));
        try (PipelineHarness h = harness(settings)) {
            h.pipe(Priority.STANDARD, "small", Fixtures.ticket("small"));
            h.pipe(Priority.STANDARD, "huge", bigTicket("huge", 20_000));
            h.advance(Duration.ofSeconds(3));
            Map<String, JsonNode> results = byId(h.classified());

            assertThat(results.get("small").get("route").asText()).isEqualTo("primary");
            assertThat(results.get("huge").get("route").asText()).isEqualTo("long");
            assertThat(results.get("huge").get("fallbackFrom").asText()).isEqualTo("primary");
            assertThat(results.get("huge").get("fallbackReason").asText()).isEqualTo("context");
            assertThat(client("primary").requestedIds()).containsExactly("small");
            assertThat(client("long").requestedIds()).containsExactly("huge");
        }
    }

    @Test
    void shouldDeadLetterATicketNoRouteOfTheChainHolds() {
        DispatcherSettings settings = Fixtures.routed(Map.of(), Fixtures.route("primary", 8_192, List.of(), "long"),
                Fixtures.route("long", 16_000, List.of(), null));
        try (PipelineHarness h = harness(settings)) {
            h.pipe(Priority.STANDARD, "huge", bigTicket("huge", 20_000));
            h.advance(Duration.ofSeconds(1));

            assertThat(h.classified()).isEmpty();
            List<TestRecord<String, byte[]>> dead = h.deadLetters();
            assertThat(dead).hasSize(1);
            assertThat(new String(dead.get(0).headers().lastHeader(DeadLetterHeaders.ERROR_KIND).value(), StandardCharsets.UTF_8))
                    .isEqualTo("too-large");
            assertThat(new String(dead.get(0).headers().lastHeader(DeadLetterHeaders.ERROR_MESSAGE).value(), StandardCharsets.UTF_8))
                    .contains("context-fallback chain");
        }
    }

    @Test
    void shouldMoveATicketToTheContextFallbackOnceThePrimarysSmallerWindowIsLearned() throws Exception {
        DispatcherSettings settings = Fixtures.routed(Map.of(), Fixtures.route("primary", 128_000, List.of(), "long"),
                Fixtures.route("long", 200_000, List.of(), null));
        client("primary").respondWith(r -> r.prompt().promptTokens() > 4_000
                ? new ModelOutcome.Failed(ModelOutcome.FailureKind.CONTEXT_LENGTH, 400,
                "This model's maximum context length is 4096 tokens. However, your messages resulted in "
                        + r.prompt().promptTokens() + " tokens.", java.util.Optional.empty(),
                io.quotaflow.quota.RateLimitInfo.EMPTY, 5)
                : FakeModelClient.answer(r, "billing", "low"));
        try (PipelineHarness h = harness(settings)) {
            h.pipe(Priority.STANDARD, "big", bigTicket("big", 3_000));
            h.advance(Duration.ofSeconds(3));
            h.pipe(Priority.STANDARD, "big-2", bigTicket("big-2", 3_000));
            h.advance(Duration.ofSeconds(3));
            Map<String, JsonNode> results = byId(h.classified());

            assertThat(results.get("big").get("route").asText()).isEqualTo("long");
            assertThat(results.get("big-2").get("route").asText()).isEqualTo("long");
            assertThat(results.get("big-2").get("fallbackReason").asText()).isEqualTo("context");
            // the first was refused once; the second never reached the primary
            assertThat(client("primary").requestedIds()).containsExactly("big");
            assertThat(h.deadLetters()).isEmpty();
        }
    }

    @Test
    void shouldReturnARetryToTheRouteItWasOn() throws Exception {
        DispatcherSettings settings = Fixtures.routed(Map.of(), Fixtures.route("primary", 8_192, List.of(), "long"),
                Fixtures.route("long", 200_000, List.of(), null));
        client("long").respondWith(r -> FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 503, "overloaded"));
        try (PipelineHarness h = harness(settings)) {
            h.pipe(Priority.INTERACTIVE, "huge", bigTicket("huge", 20_000));
            h.advance(Duration.ofSeconds(2));
            // the driver feeds tickets.retry back to the intake, as the topology does
            List<TestRecord<String, byte[]>> retries = h.retries();
            assertThat(retries).isNotEmpty();
            retries.forEach(retry -> {
                assertThat(new String(retry.headers().lastHeader(DeadLetterHeaders.ROUTE).value(), StandardCharsets.UTF_8))
                        .isEqualTo("long");
                assertThat(new String(retry.headers().lastHeader(DeadLetterHeaders.FALLBACK_REASON).value(), StandardCharsets.UTF_8))
                        .isEqualTo("context");
            });

            client("long").respondWith(r -> FakeModelClient.answer(r, "billing", "low"));
            h.advance(Duration.ofMinutes(1));
            Map<String, JsonNode> results = byId(h.classified());
            assertThat(results.get("huge").get("route").asText()).isEqualTo("long");
            assertThat(results.get("huge").get("fallbackFrom").asText()).isEqualTo("primary");
            assertThat(results.get("huge").get("attempts").asInt()).isGreaterThanOrEqualTo(2);
            assertThat(client("long").requestedIds()).allMatch("huge"::equals).hasSizeGreaterThanOrEqualTo(2);
            assertThat(client("primary").requests()).isEmpty();
        }
    }

    /** Route a takes standard tickets, b interactive ones, each its own scope (so its own task when partitions allow). */
    private static DispatcherSettings byPriority() {
        RouteSettings a = Fixtures.route("a", 128_000, List.of(), null);
        RouteSettings b = Fixtures.route("b", 128_000, List.of(), null);
        DispatcherSettings base = Fixtures.routed(Map.of(), a, b);
        return base.withRouting(new io.quotaflow.settings.Routing(base.routing().routes(), "a",
                Map.of(Priority.INTERACTIVE, "b"), Map.of(), Map.of(), Duration.ZERO));
    }

    @Test
    void shouldAnswerOnlyTheNewestContentOfATicketRepublishedToAnotherRoute() throws Exception {
        client("a").respondWith(r -> FakeModelClient.failed(ModelOutcome.FailureKind.HALT, 401, "invalid api key"));
        try (PipelineHarness h = harness(byPriority())) {
            h.pipe(Priority.STANDARD, "D-1", Fixtures.ticket("D-1", "default", "Old text: my parcel is late."));
            h.advance(Duration.ofSeconds(2));
            h.pipe(Priority.INTERACTIVE, "D-1", Fixtures.ticket("D-1", "default", "New text: my account was hacked!"));
            h.advance(Duration.ofSeconds(2));
            client("a").respondWith(r -> FakeModelClient.answer(r, "shipping", "low"));
            h.advance(Duration.ofMinutes(6));

            List<TestRecord<String, byte[]>> results = h.classified();
            assertThat(results).extracting(TestRecord::key).containsExactly("D-1");
            assertThat(Json.MAPPER.readTree(results.get(0).value()).get("route").asText()).isEqualTo("b");
            assertThat(client("b").requests()).singleElement()
                    .satisfies(r -> assertThat(r.items().get(0).body()).startsWith("New text"));
            assertThat(client("a").requests()).allSatisfy(r -> assertThat(r.items()).allSatisfy(
                    i -> assertThat(i.body()).as("route a is never asked again about the old text once it is back")
                            .startsWith("Old text")));
            assertThat(h.deadLetters()).isEmpty();
        }
    }

    @Test
    void shouldDropAnOlderPublicationThatArrivesAfterTheNewerOne() throws Exception {
        client("a").hold();
        try (PipelineHarness h = harness(byPriority())) {
            org.apache.kafka.streams.TestInputTopic<String, byte[]> standard = h.driver().createInputTopic("tickets.standard",
                    new org.apache.kafka.common.serialization.StringSerializer(),
                    new org.apache.kafka.common.serialization.ByteArraySerializer());
            org.apache.kafka.streams.TestInputTopic<String, byte[]> interactive = h.driver().createInputTopic("tickets.interactive",
                    new org.apache.kafka.common.serialization.StringSerializer(),
                    new org.apache.kafka.common.serialization.ByteArraySerializer());
            java.time.Instant t = h.now();
            // the newer publication is read first (its partition was ahead), the older one after it
            interactive.pipeInput("D-2", Fixtures.ticket("D-2", "default", "New text"), t.plusMillis(500));
            standard.pipeInput("D-2", Fixtures.ticket("D-2", "default", "Old text"), t);
            h.advance(Duration.ofSeconds(3));
            client("a").completeAll();
            h.advance(Duration.ofSeconds(3));

            List<TestRecord<String, byte[]>> results = h.classified();
            assertThat(results).extracting(TestRecord::key).containsExactly("D-2");
            assertThat(Json.MAPPER.readTree(results.get(0).value()).get("route").asText()).isEqualTo("b");
            assertThat(client("a").requests()).isEmpty();
        }
    }

    @Test
    void shouldWithdrawAnOlderCopyWhoseCallIsOutWhenTheTicketIsRepublishedElsewhere() throws Exception {
        client("a").hold();
        try (PipelineHarness h = harness(byPriority())) {
            h.pipe(Priority.STANDARD, "D-3", Fixtures.ticket("D-3", "default", "Old text"));
            h.advance(Duration.ofSeconds(2));
            assertThat(client("a").requests()).hasSize(1);
            h.pipe(Priority.INTERACTIVE, "D-3", Fixtures.ticket("D-3", "default", "New text"));
            h.advance(Duration.ofSeconds(2));
            client("a").completeAll();
            h.advance(Duration.ofSeconds(2));

            List<TestRecord<String, byte[]>> results = h.classified();
            assertThat(results).extracting(TestRecord::key).containsExactly("D-3");
            assertThat(Json.MAPPER.readTree(results.get(0).value()).get("route").asText()).isEqualTo("b");
        }
    }

    @Test
    void shouldRouteByTenantBeforePriorityBeforeTheDefault() throws Exception {
        RouteSettings a = Fixtures.route("a", 128_000, List.of(), null);
        RouteSettings b = Fixtures.route("b", 128_000, List.of(), null);
        RouteSettings c = Fixtures.route("c", 128_000, List.of(), null);
        DispatcherSettings base = Fixtures.routed(Map.of(), a, b, c);
        io.quotaflow.settings.Routing routing = new io.quotaflow.settings.Routing(base.routing().routes(), "a",
                Map.of(Priority.BULK, "b"), Map.of("vip", "c"), Map.of(), Duration.ZERO);
        try (PipelineHarness h = harness(base.withRouting(routing))) {
            h.pipe(Priority.STANDARD, "std", Fixtures.ticket("std"));
            h.pipe(Priority.BULK, "bulk", Fixtures.ticket("bulk"));
            h.pipe(Priority.BULK, TicketKey.key("vip", "vip-bulk"), Fixtures.ticket("vip-bulk", "vip", "Where is my parcel?"));
            h.advance(Duration.ofSeconds(3));
            Map<String, JsonNode> results = byId(h.classified());

            assertThat(results.get("std").get("route").asText()).isEqualTo("a");
            assertThat(results.get("bulk").get("route").asText()).isEqualTo("b");
            assertThat(results.get("vip:vip-bulk").get("route").asText()).isEqualTo("c");
            assertThat(client("c").requestedIds()).containsExactly("vip:vip-bulk");
        }
    }

    @Test
    void shouldMoveTicketsToTheFallbackOnceTheRoutesDayIsSpent() throws Exception {
        RouteSettings daily = Fixtures.route("primary", 128_000, List.of("backup"), null);
        daily = new RouteSettings(daily.name(), daily.model(), daily.quota(), daily.fallback(), null, null,
                new io.quotaflow.settings.DailyLimits(2, 0, 0), 0, 0);
        DispatcherSettings settings = Fixtures.routed(Map.of(), daily, Fixtures.route("backup", 128_000, List.of(), null));
        try (PipelineHarness h = harness(settings)) {
            for (int i = 0; i < 2; i++) {
                h.pipe(Priority.INTERACTIVE, "D-" + i, Fixtures.ticket("D-" + i));
                h.advance(Duration.ofMillis(300));
            }
            for (int i = 2; i < 8; i++) {
                h.pipe(Priority.INTERACTIVE, "D-" + i, Fixtures.ticket("D-" + i));
            }
            h.advance(Duration.ofSeconds(3));
            Map<String, JsonNode> results = byId(h.classified());

            assertThat(client("primary").requests()).as("two calls a day").hasSize(2);
            assertThat(results).hasSize(7);
            long moved = results.values().stream().filter(j -> "out-for-day".equals(j.path("fallbackReason").asText())).count();
            assertThat(moved).isEqualTo(5);
            assertThat(results.values().stream().filter(j -> j.get("route").asText().equals("backup")).count()).isEqualTo(5);
            assertThat(fallbacks).allSatisfy(f -> assertThat(f).containsExactly("primary", "backup", "out-for-day"));
        }
    }
}

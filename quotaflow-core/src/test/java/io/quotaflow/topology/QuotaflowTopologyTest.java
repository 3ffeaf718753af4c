package io.quotaflow.topology;

import io.quotaflow.records.TicketKey;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.settings.DispatcherSettings;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import io.quotaflow.dispatch.report.DispatcherListener;

import static org.assertj.core.api.Assertions.assertThat;

class QuotaflowTopologyTest {

    private static String header(TestRecord<String, byte[]> r, String key) {
        return FailureHeaders.string(r.headers(), key).orElse(null);
    }

    @Test
    void shouldDeadLetterBadInputWithItsReasonAndOriginalBytes() throws Exception {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            byte[][] bad = {
                    "not json at all".getBytes(StandardCharsets.UTF_8),
                    "{\"subject\":\"no id\"}".getBytes(StandardCharsets.UTF_8),
                    "{\"id\":\"T-9\"}".getBytes(StandardCharsets.UTF_8),
                    "[1,2,3]".getBytes(StandardCharsets.UTF_8),
            };
            for (int i = 0; i < bad.length; i++) {
                h.pipe(Priority.STANDARD, "k" + i, bad[i]);
            }
            h.advance(Duration.ofSeconds(1));

            List<TestRecord<String, byte[]>> dlq = h.deadLetters();
            assertThat(dlq).hasSize(4);
            for (int i = 0; i < bad.length; i++) {
                TestRecord<String, byte[]> r = dlq.get(i);
                assertThat(r.key()).isEqualTo("k" + i);
                assertThat(r.value()).isEqualTo(bad[i]);
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("bad-input");
                assertThat(header(r, DeadLetterHeaders.ORIGIN_TOPIC)).isEqualTo("tickets.standard");
                assertThat(header(r, DeadLetterHeaders.ORIGIN_OFFSET)).isEqualTo(Integer.toString(i));
            }
            assertThat(header(dlq.get(0), DeadLetterHeaders.ERROR_MESSAGE)).startsWith("not JSON");
            assertThat(header(dlq.get(1), DeadLetterHeaders.ERROR_MESSAGE)).isEqualTo("missing id");
            assertThat(header(dlq.get(2), DeadLetterHeaders.ERROR_MESSAGE)).isEqualTo("missing subject and body");
            assertThat(header(dlq.get(3), DeadLetterHeaders.ERROR_MESSAGE)).isEqualTo("not a JSON object");
            assertThat(client.requests()).isEmpty();
            assertThat(h.classified()).isEmpty();
        }
    }

    @Test
    void shouldDeadLetterATicketTooLargeForTheContextBudget() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model().withContextTokens(2_000),
                Fixtures.settings().quota(), BatchSettings.ofDefaults(), Fixtures.settings().retry()).build();
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            h.pipe(Priority.BULK, "big", Fixtures.ticket("big", "default", "log line 42 failed ".repeat(2_000)));
            h.pipe(Priority.BULK, "small", Fixtures.ticket("small"));
            h.advance(Duration.ofSeconds(2));

            List<TestRecord<String, byte[]>> dlq = h.deadLetters();
            assertThat(dlq).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("big");
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("too-large");
            });
            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("small");
        }
    }

    @Test
    void shouldForwardCompletionsAsClassificationJson() throws Exception {
        FakeModelClient client = FakeModelClient.labellingAll("shipping", "high");
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.pipe(Priority.INTERACTIVE, "T-1", Fixtures.ticket("T-1"));
            h.pipe(Priority.INTERACTIVE, "T-2", Fixtures.ticket("T-2"));
            h.advance(Duration.ofMillis(500));

            List<TestRecord<String, byte[]>> out = h.classified();
            assertThat(out).extracting(TestRecord::key).containsExactlyInAnyOrder("T-1", "T-2");
            JsonNode json = Json.MAPPER.readTree(out.get(0).value());
            assertThat(json.get("category").asText()).isEqualTo("shipping");
            assertThat(json.get("urgency").asText()).isEqualTo("high");
            assertThat(json.get("model").asText()).isEqualTo("gpt-4o-mini");
            assertThat(json.get("route").asText()).isEqualTo("default");
            assertThat(json.get("cached").asBoolean()).isFalse();
            assertThat(json.has("fallbackFrom")).isFalse();
            assertThat(json.get("attempts").asInt()).isEqualTo(1);
            assertThat(json.get("promptTokens").asLong()).isPositive();
            assertThat(json.get("completionTokens").asLong()).isPositive();
            assertThat(json.get("latencyMs").asLong()).isEqualTo(42);
            assertThat(json.has("queuedMs")).isTrue();
            assertThat(json.get("classifiedAt").asText()).startsWith("2026-01-01T00:00");
            assertThat(client.requests()).hasSize(1);
        }
    }

    @Test
    void shouldNeverExceedTheItemOrTokenCapsOfABatch() {
        FakeModelClient client = FakeModelClient.labellingAll("other", "low");
        BatchSettings batch = BatchSettings.ofDefaults().withMaxItems(4).withMaxPromptTokens(600);
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(), Fixtures.settings().quota(), batch,
                Fixtures.settings().retry()).build();
        PromptBuilder prompts = new PromptBuilder(Fixtures.model());
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            for (int i = 0; i < 60; i++) {
                String body = "words ".repeat(5 + (i * 37) % 140) + (i == 13 ? "huge ".repeat(900) : "");
                h.pipe(Priority.STANDARD, TicketKey.key("tenant-" + (i % 3), "T-" + i), Fixtures.ticket("T-" + i, "tenant-" + (i % 3), body));
            }
            h.advance(Duration.ofSeconds(5));

            assertThat(h.classified()).hasSize(60);
            for (ModelRequest request : client.requests()) {
                assertThat(request.items()).hasSizeBetween(1, 4);
                int tokens = request.items().stream().mapToInt(prompts::itemTokens).sum();
                if (request.items().size() > 1) {
                    assertThat(tokens).as("tokens of a multi-ticket batch").isLessThanOrEqualTo(600);
                }
            }
            assertThat(client.requests()).anySatisfy(r -> assertThat(r.items()).extracting(ModelItem::id).containsExactly("tenant-1:T-13"));
        }
    }

    @Test
    void shouldDispatchInteractiveBeforeStandardBeforeBulk() {
        FakeModelClient client = FakeModelClient.labellingAll("other", "low").hold();
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(), Fixtures.settings().quota().withMaxInFlight(1),
                BatchSettings.ofDefaults().withMaxItems(3), Fixtures.settings().retry()).build();
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            IntStream.range(0, 3).forEach(i -> h.pipe(Priority.BULK, "B-" + i, Fixtures.ticket("B-" + i)));
            IntStream.range(0, 3).forEach(i -> h.pipe(Priority.STANDARD, "S-" + i, Fixtures.ticket("S-" + i)));
            IntStream.range(0, 3).forEach(i -> h.pipe(Priority.INTERACTIVE, "I-" + i, Fixtures.ticket("I-" + i)));
            for (int call = 0; call < 3; call++) {
                h.advance(Duration.ofMillis(500));
                client.completeAll();
            }
            h.advance(Duration.ofMillis(500));

            assertThat(client.requests()).hasSize(3);
            assertThat(client.requests().get(0).items()).extracting(ModelItem::id).containsExactly("I-0", "I-1", "I-2");
            assertThat(client.requests().get(1).items()).extracting(ModelItem::id).containsExactly("S-0", "S-1", "S-2");
            assertThat(client.requests().get(2).items()).extracting(ModelItem::id).containsExactly("B-0", "B-1", "B-2");
            assertThat(h.classified()).hasSize(9);
        }
    }

    @Test
    void shouldSendAnInteractiveTicketAtOnceWhileBulkCallsFillTheInFlightLimit() {
        FakeModelClient client = FakeModelClient.labellingAll("other", "low").hold();
        // auto, held to one call by its ceiling: the extra calls are auto's
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(),
                Fixtures.settings().quota().withMaxInFlight(0).withMaxInFlightCeiling(1),
                BatchSettings.ofDefaults().withMaxItems(3), Fixtures.settings().retry()).build();
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            IntStream.range(0, 6).forEach(i -> h.pipe(Priority.BULK, "B-" + i, Fixtures.ticket("B-" + i)));
            h.advance(Duration.ofSeconds(3));
            assertThat(client.requests()).as("one bulk call out: the limit").hasSize(1);

            h.pipe(Priority.INTERACTIVE, "I-0", Fixtures.ticket("I-0"));
            h.advance(Duration.ofMillis(500));

            assertThat(client.requests()).hasSize(2);
            assertThat(client.requests().get(1).items()).extracting(ModelItem::id).containsExactly("I-0");
            h.advance(Duration.ofSeconds(3));
            assertThat(client.requests()).as("the second bulk call still waits for the first").hasSize(2);
            client.completeAll();
            h.advance(Duration.ofSeconds(3));
            client.completeAll();
            h.advance(Duration.ofSeconds(3));
            assertThat(h.classified()).hasSize(7);
        }
    }

    @Test
    void shouldKeepEvenAnInteractiveTicketWithinAConfiguredInFlightLimit() {
        FakeModelClient client = FakeModelClient.labellingAll("other", "low").hold();
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(), Fixtures.settings().quota().withMaxInFlight(1),
                BatchSettings.ofDefaults().withMaxItems(3), Fixtures.settings().retry()).build();
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            IntStream.range(0, 3).forEach(i -> h.pipe(Priority.BULK, "B-" + i, Fixtures.ticket("B-" + i)));
            h.advance(Duration.ofSeconds(3));
            h.pipe(Priority.INTERACTIVE, "I-0", Fixtures.ticket("I-0"));
            h.advance(Duration.ofSeconds(3));

            assertThat(client.requests()).as("quota.max-in-flight=1: the bulk call alone").hasSize(1);
            client.completeAll();
            h.advance(Duration.ofSeconds(1));
            assertThat(client.requests()).hasSize(2);
            assertThat(client.requests().get(1).items()).extracting(ModelItem::id).containsExactly("I-0");
        }
    }

    @Test
    void shouldShareABatchFairlyBetweenTenants() {
        FakeModelClient client = FakeModelClient.labellingAll("other", "low").hold();
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(), Fixtures.settings().quota().withMaxInFlight(1),
                BatchSettings.ofDefaults().withMaxItems(4), Fixtures.settings().retry()).build();
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            IntStream.range(0, 20).forEach(i -> h.pipe(Priority.STANDARD, TicketKey.key("big", "big-" + i), Fixtures.ticket("big-" + i, "big", "text")));
            h.pipe(Priority.STANDARD, TicketKey.key("small", "small-0"), Fixtures.ticket("small-0", "small", "text"));
            h.advance(Duration.ofSeconds(1));

            assertThat(client.requests()).singleElement()
                    .satisfies(r -> assertThat(r.items()).extracting(ModelItem::id).contains("small:small-0"));
        }
    }

    @Test
    void shouldNotDelayInteractiveWorkBehindABulkBacklog() {
        FakeModelClient client = FakeModelClient.labellingAll("other", "low");
        // TPM binds hard: an 11 760-token bucket (2 940 tokens/s) that bulk work may drain only down to its 25 % reserve
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(),
                QuotaSettings.ofDefaults().withRpm(6_000).withTpm(180_000).withBurstSeconds(4), BatchSettings.ofDefaults(),
                Fixtures.settings().retry()).build();
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            IntStream.range(0, 400).forEach(i -> h.pipe(Priority.BULK, TicketKey.key("t" + (i % 4), "B-" + i), Fixtures.ticket("B-" + i, "t" + (i % 4),
                    "bulk export log line ".repeat(20))));
            h.advance(Duration.ofSeconds(5));
            int before = client.requests().size();
            assertThat(before).as("the bulk backlog is being worked").isGreaterThan(3);
            assertThat(h.classified().size()).isLessThan(400);

            // ~2 400 tokens with its prompt, more than a bulk batch: without the reserve it would wait
            // for ~0.4 s of refill after each bulk call; with it, it goes at once
            h.pipe(Priority.INTERACTIVE, TicketKey.key("vip", "I-1"), Fixtures.ticket("I-1", "vip", "our checkout is down for every customer ".repeat(270)));
            h.advance(Duration.ofMillis(100));
            assertThat(client.requests().subList(before, client.requests().size()))
                    .as("dispatched within two ticks of arriving, from the reserve")
                    .anySatisfy(r -> assertThat(r.items()).extracting(ModelItem::id).contains("vip:I-1"));
        }
    }

    /**
     * An interactive call's headers say the provider had nothing left: a lowering into the reserve
     * while interactive work is about, so bulk leaves what it took on top of the reserve. A backlog's
     * last batch may spend that; the same batch with more bulk behind it waits for it (about 1 s here).
     */
    @Test
    void shouldLetTheLastBatchOfABacklogSpendWhatALoweringAddedToTheReserve() {
        long last = firstBulkCall(0).calledMs();
        long withMore = firstBulkCall(30).calledMs();

        assertThat(last).as("the backlog's last batch").isLessThan(withMore - 500);
    }

    @Test
    void shouldEstimateTheNextCallsWaitAsTheDispatcherWillAskIt() {
        for (int behind : new int[] {0, 30}) {
            BulkCall call = firstBulkCall(behind);
            // the harness steps 50 ms at a time, so the call goes on the first step at or after the predicted moment
            assertThat(call.predictedMs()).as("when the first snapshot said the call would go, %d tickets behind", behind)
                    .isBetween(call.calledMs() - 100, call.calledMs());
        }
    }

    /**
     * When a bulk backlog's first call went, and when the first snapshot after its arrival said it
     * would go (its time plus its {@code estimatedWaitMs}), both in ms from the arrival.
     */
    private record BulkCall(long calledMs, long predictedMs) {
    }

    /** A bulk backlog's first call, with {@code behind} tickets behind its first full batch. */
    private static BulkCall firstBulkCall(int behind) {
        // 120k TPM at 0.98: 1 960 tokens/s, a bucket of 4 s, a quarter of it the reserve
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(),
                QuotaSettings.ofDefaults().withRpm(6_000).withTpm(120_000).withBurstSeconds(4), BatchSettings.ofDefaults(),
                Fixtures.settings().retry()).build();
        RateLimitInfo empty = new RateLimitInfo(OptionalLong.of(6_000), OptionalLong.of(120_000), OptionalLong.of(5_000), OptionalLong.of(0),
                Optional.empty(), Optional.empty(), Optional.empty());
        FakeModelClient client = new FakeModelClient(r -> {
            ModelOutcome.Answered a = (ModelOutcome.Answered) FakeModelClient.answer(r, "other", "low");
            boolean interactive = r.items().stream().anyMatch(i -> i.id().endsWith("I-1"));
            return new ModelOutcome.Answered(a.labels(), a.invalid(), a.finishReason(), a.promptTokens(), a.completionTokens(),
                    interactive ? empty : RateLimitInfo.EMPTY, a.latencyMs());
        });
        List<Long> predicted = new java.util.ArrayList<>();
        DispatcherListener listener = new DispatcherListener() {
            @Override
            public void state(io.quotaflow.dispatch.report.DispatcherSnapshot snapshot) {
                if (snapshot.pending().getOrDefault(Priority.BULK, 0) > 0) {
                    predicted.add(snapshot.at() + snapshot.estimatedWaitMs());
                }
            }
        };
        try (PipelineHarness h = new PipelineHarness(settings, client, listener)) {
            h.advance(Duration.ofSeconds(5));
            h.pipe(Priority.INTERACTIVE, TicketKey.key("vip", "I-1"), Fixtures.ticket("I-1", "vip", "our checkout is down"));
            h.advance(Duration.ofMillis(100));
            assertThat(client.requests()).as("the interactive call, from a full bucket").hasSize(1);
            IntStream.range(0, 10 + behind).forEach(i -> h.pipe(Priority.BULK, TicketKey.key("t", "B-" + i), Fixtures.ticket("B-" + i, "t", "an export failed")));
            long arrived = h.now().toEpochMilli();
            for (int step = 0; step < 200; step++) {
                h.advance(Duration.ofMillis(50));
                if (client.requests().size() > 1) {
                    assertThat(client.requests().get(0).items()).extracting(ModelItem::id).containsExactly("vip:I-1");
                    assertThat(client.requests().get(1).items()).hasSize(10);
                    assertThat(predicted).as("snapshots with the backlog waiting").isNotEmpty();
                    return new BulkCall(50L * (step + 1), predicted.get(0) - arrived);
                }
            }
            throw new AssertionError("no bulk call within 10 s");
        }
    }

    @Test
    void shouldNotDispatchWhileTheLimiterSaysNo() {
        FakeModelClient client = FakeModelClient.labellingAll("other", "low");
        // 6 RPM at 0.98 safety: the bucket starts empty and earns one request every ~10.2 s
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(),
                QuotaSettings.ofDefaults().withRpm(6).withTpm(2_000_000),
                BatchSettings.ofDefaults().withMaxItems(1), Fixtures.settings().retry()).build();
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            IntStream.range(0, 3).forEach(i -> h.pipe(Priority.INTERACTIVE, "T-" + i, Fixtures.ticket("T-" + i)));
            h.advance(Duration.ofSeconds(10));
            assertThat(client.requests()).isEmpty();
            h.advance(Duration.ofMillis(500));
            assertThat(client.requests()).hasSize(1);
            h.advance(Duration.ofSeconds(9));
            assertThat(client.requests()).hasSize(1);
            h.advance(Duration.ofSeconds(2));
            assertThat(client.requests()).hasSize(2);
        }
    }

    @Test
    void shouldSizeBatchesToTheBucketAndStillRunTicketsLargerThanIt() {
        FakeModelClient client = FakeModelClient.labellingAll("other", "low");
        // 12k TPM at 0.98 and 2 s of burst: a 392-token bucket, 294 above the bulk reserve
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(),
                QuotaSettings.ofDefaults().withRpm(6_000).withTpm(12_000), BatchSettings.ofDefaults(), Fixtures.settings().retry()).build();
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            h.pipe(Priority.BULK, "huge", Fixtures.ticket("huge", "default", "a long ticket body ".repeat(120)));
            IntStream.range(0, 6).forEach(i -> h.pipe(Priority.BULK, "T-" + i, Fixtures.ticket("T-" + i)));
            h.advance(Duration.ofSeconds(40));

            assertThat(h.classified()).hasSize(7);
            assertThat(client.requests()).anySatisfy(r -> assertThat(r.items()).extracting(ModelItem::id).containsExactly("huge"));
            PromptBuilder prompts = new PromptBuilder(Fixtures.model());
            for (ModelRequest r : client.requests()) {
                if (r.items().size() > 1) {
                    assertThat(r.prompt().admissionCost()).isLessThanOrEqualTo(392);
                }
            }
        }
    }

    @Test
    void shouldPauseTheScopeOnA429WithoutConsumingAnAttempt() throws Exception {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        client.respondWith(r -> new ModelOutcome.RateLimited(Optional.of(Duration.ofSeconds(3)), "Rate limit reached",
                Optional.empty(), Optional.empty(), RateLimitInfo.EMPTY, 3));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.pipe(Priority.STANDARD, "T-1", Fixtures.ticket("T-1"));
            // buckets start empty: the first call waits for its refill
            for (int i = 0; i < 20 && client.requests().isEmpty(); i++) {
                h.advance(Duration.ofMillis(50));
            }
            assertThat(client.requests()).hasSize(1);
            client.respondWith(r -> FakeModelClient.answer(r, "billing", "low"));
            h.advance(Duration.ofMillis(2_500));
            assertThat(client.requests()).as("no call during the cooldown").hasSize(1);
            h.advance(Duration.ofSeconds(3));

            assertThat(client.requests()).hasSize(2);
            assertThat(h.retries()).isEmpty();
            List<TestRecord<String, byte[]>> out = h.classified();
            assertThat(out).hasSize(1);
            assertThat(Json.MAPPER.readTree(out.get(0).value()).get("attempts").asInt()).isEqualTo(1);
        }
    }

    @Test
    void shouldCalibrateTheCostEstimateFromWhatA429SaysTheProviderCounted() {
        List<Long> costs = new java.util.ArrayList<>();
        DispatcherListener listener = new DispatcherListener() {
            @Override
            public void dispatched(String scope, Priority priority, int items, long admissionCost) {
                costs.add(admissionCost);
            }
        };
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        client.respondWith(r -> new ModelOutcome.RateLimited(Optional.of(Duration.ofMillis(500)),
                "Rate limit reached for gpt-4o-mini on tokens per min (TPM): Limit 200000, Used 199000, Requested "
                        + (r.prompt().admissionCost() * 3 / 2) + ". Please try again in 500ms.",
                Optional.of(199_000L), Optional.of((long) r.prompt().admissionCost() * 3 / 2), RateLimitInfo.EMPTY, 3));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, listener)) {
            h.pipe(Priority.INTERACTIVE, "T-1", Fixtures.ticket("T-1"));
            h.advance(Duration.ofMillis(300));
            client.respondWith(r -> FakeModelClient.answer(r, "billing", "low"));
            h.advance(Duration.ofSeconds(3));
            assertThat(costs).hasSize(2);
            assertThat(costs.get(1)).isBetween(costs.get(0) * 3 / 2 - 1, costs.get(0) * 3 / 2 + 1);
            assertThat(h.classified()).hasSize(1);
        }
    }

    @Test
    void shouldSendTransientFailuresToTheRetryTopicWithHeadersAndHoldThemUntilDue() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 503, "upstream busy"));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            byte[] original = Fixtures.ticket("T-1");
            h.pipe(Priority.INTERACTIVE, "T-1", original);
            h.advance(Duration.ofMillis(200));

            List<TestRecord<String, byte[]>> retries = h.retries();
            assertThat(retries).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("T-1");
                assertThat(r.value()).isEqualTo(original);
                assertThat(header(r, DeadLetterHeaders.ATTEMPT)).isEqualTo("1");
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("transient");
                assertThat(header(r, DeadLetterHeaders.ERROR_STATUS)).isEqualTo("503");
                assertThat(header(r, DeadLetterHeaders.ERROR_MESSAGE)).isEqualTo("upstream busy");
                assertThat(header(r, DeadLetterHeaders.ORIGIN_TOPIC)).isEqualTo("tickets.interactive");
                assertThat(header(r, DeadLetterHeaders.FIRST_FAILURE)).isNotNull();
            });
            TestRecord<String, byte[]> retry = retries.get(0);
            long notBefore = Long.parseLong(header(retry, DeadLetterHeaders.NOT_BEFORE));
            assertThat(notBefore - h.now().toEpochMilli()).isBetween(-200L, 1_000L);

            // the retry comes back through tickets.retry and is held until not-before
            client.respondWith(r -> FakeModelClient.answer(r, "technical", "medium"));
            int before = client.requests().size();
            h.pipeRetry("T-1", retry.value(), retry.headers());
            long due = notBefore - h.now().toEpochMilli();
            if (due > 100) {
                h.advance(Duration.ofMillis(due - 60));
                assertThat(client.requests()).hasSize(before);
            }
            h.advance(Duration.ofMillis(300));
            assertThat(client.requests()).hasSize(before + 1);
            assertThat(h.classified()).singleElement().satisfies(r -> assertThat(r.key()).isEqualTo("T-1"));
        }
    }
}

package io.quotaflow.topology;

import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.settings.DispatcherSettings;

import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.dispatch.report.DispatcherSnapshot;

import static org.assertj.core.api.Assertions.assertThat;

/** One test per row of the failure table (docs/design.md, Failures), with the fake client and advanced wall-clock time. */
class FailurePathTest {

    private static String header(TestRecord<String, byte[]> r, String key) {
        return FailureHeaders.string(r.headers(), key).orElse(null);
    }

    private static DispatcherSettings settings(RetrySettings retry) {
        return DispatcherSettings.builder(Fixtures.model(), Fixtures.settings().quota(), BatchSettings.ofDefaults(), retry).build();
    }

    // TopologyTestDriver feeds what the topology writes to tickets.retry back into it, as the broker would

    @Test
    void shouldHonourTheProvidersRetryHintOverJitter() {
        FakeModelClient client = new FakeModelClient(r -> new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, 503, "busy",
                Optional.of(Duration.ofSeconds(7)), RateLimitInfo.EMPTY, 3));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.pipe(Priority.INTERACTIVE, "T-1", Fixtures.ticket("T-1"));
            h.advance(Duration.ofMillis(200));
            TestRecord<String, byte[]> retry = h.retries().get(0);
            long notBefore = Long.parseLong(header(retry, DeadLetterHeaders.NOT_BEFORE));
            long failedAt = Long.parseLong(header(retry, DeadLetterHeaders.LAST_FAILURE));
            assertThat(notBefore - failedAt).isEqualTo(7_000);
        }
    }

    @Test
    void shouldSplitATicketsTimeIntoQueueRetryWaitAndModelTimeThatAddUp() throws Exception {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        FakeModelClient client = new FakeModelClient(r -> calls.getAndIncrement() == 0
                ? new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, 503, "busy", Optional.of(Duration.ofSeconds(7)),
                RateLimitInfo.EMPTY, 5)
                : FakeModelClient.answer(r, "billing", "low"));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            long intake = h.now().toEpochMilli();
            h.pipe(Priority.INTERACTIVE, "T-1", Fixtures.ticket("T-1"));
            h.advance(Duration.ofSeconds(9));
            long secondIntake = h.now().toEpochMilli();
            h.pipe(Priority.INTERACTIVE, "T-2", Fixtures.ticket("T-2"));
            h.advance(Duration.ofSeconds(1));

            List<TestRecord<String, byte[]>> retries = h.retries();
            assertThat(retries).hasSize(1);
            TestRecord<String, byte[]> retry = retries.get(0);
            assertThat(header(retry, DeadLetterHeaders.RETRY_WAIT_MS)).isEqualTo("7000");
            long failedCall = Long.parseLong(header(retry, DeadLetterHeaders.CALL_MS));
            assertThat(failedCall).isBetween(0L, 100L);
            Map<String, com.fasterxml.jackson.databind.JsonNode> results = new LinkedHashMap<>();
            for (TestRecord<String, byte[]> r : h.classified()) {
                results.put(r.key(), Json.MAPPER.readTree(r.value()));
            }
            assertThat(results).containsOnlyKeys("T-1", "T-2");

            com.fasterxml.jackson.databind.JsonNode retried = results.get("T-1");
            assertThat(retried.get("attempts").asInt()).isEqualTo(2);
            assertThat(retried.get("firstTry").asBoolean()).isFalse();
            assertThat(retried.get("retryWaitMs").asLong()).isEqualTo(7_000);
            assertThat(retried.get("latencyMs").asLong()).as("the answering call's 42 ms and the failed one's").isEqualTo(42 + failedCall);
            assertThat(retried.get("queuedMs").asLong()).isPositive();
            assertThat(sum(retried)).as("queue + retry wait + model time = time in quotaflow")
                    .isEqualTo(java.time.Instant.parse(retried.get("classifiedAt").asText()).toEpochMilli() - intake);

            com.fasterxml.jackson.databind.JsonNode first = results.get("T-2");
            assertThat(first.get("attempts").asInt()).isEqualTo(1);
            assertThat(first.get("firstTry").asBoolean()).isTrue();
            assertThat(first.get("retryWaitMs").asLong()).isZero();
            assertThat(first.get("latencyMs").asLong()).isEqualTo(42);
            assertThat(sum(first)).isEqualTo(java.time.Instant.parse(first.get("classifiedAt").asText()).toEpochMilli() - secondIntake);
        }
    }

    private static long sum(com.fasterxml.jackson.databind.JsonNode result) {
        return result.get("queuedMs").asLong() + result.get("retryWaitMs").asLong() + result.get("latencyMs").asLong();
    }

    @Test
    void shouldCountAttemptsAndDeadLetterWhenTheyRunOut() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 500, "boom"));
        RetrySettings retry = RetrySettings.ofDefaults().withMaxAttempts(3).withBase(Duration.ofMillis(100)).withCap(Duration.ofMillis(400));
        byte[] original = Fixtures.ticket("T-1");
        try (PipelineHarness h = new PipelineHarness(settings(retry), client)) {
            h.pipe(Priority.STANDARD, "T-1", original);
            for (int i = 0; i < 6; i++) {
                h.advance(Duration.ofSeconds(1));
            }
            assertThat(client.requests()).hasSize(3);
            List<TestRecord<String, byte[]>> dlq = h.deadLetters();
            assertThat(dlq).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("T-1");
                assertThat(r.value()).isEqualTo(original);
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("retries-exhausted");
                assertThat(header(r, DeadLetterHeaders.ATTEMPT)).isEqualTo("3");
                assertThat(header(r, DeadLetterHeaders.ERROR_STATUS)).isEqualTo("500");
                assertThat(header(r, DeadLetterHeaders.ORIGIN_TOPIC)).isEqualTo("tickets.standard");
                assertThat(header(r, DeadLetterHeaders.ERROR_MESSAGE)).contains("boom");
                assertThat(Long.parseLong(header(r, DeadLetterHeaders.FIRST_FAILURE)))
                        .isLessThan(Long.parseLong(header(r, DeadLetterHeaders.LAST_FAILURE)));
            });
        }
    }

    @Test
    void shouldNeverDispatchARetryBeforeItsNotBefore() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            var headers = FailureHeaders.forItem(io.quotaflow.ticket.WorkItem.accepted(new io.quotaflow.ticket.WorkItem.Identity("T-9", Priority.INTERACTIVE, "acme"),
                    Fixtures.ticket("T-9"), new io.quotaflow.ticket.WorkItem.Origin("tickets.interactive", 0, 5), h.now().toEpochMilli(), 10)
                    .withAttempt(1).withAttemptFailed(new io.quotaflow.ticket.WorkItem.FailureState(1, 2, "transient", 503, "x"),
                            h.now().toEpochMilli() + 4_000), "transient", 503, "x");
            h.pipeRetry("T-9", Fixtures.ticket("T-9"), headers);
            h.advance(Duration.ofMillis(3_900));
            assertThat(client.requests()).isEmpty();
            h.advance(Duration.ofMillis(300));
            assertThat(client.requestedIds()).containsExactly("T-9");
            assertThat(h.classified()).singleElement().satisfies(r -> {
                try {
                    assertThat(Json.MAPPER.readTree(r.value()).get("attempts").asInt()).isEqualTo(3);
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
            });
        }
    }

    @Test
    void shouldSplitABatchOnContextLengthAndDeadLetterASingleTicketAsTooLarge() {
        FakeModelClient client = new FakeModelClient(r -> r.items().stream().anyMatch(i -> i.id().equals("fat"))
                ? FakeModelClient.failed(ModelOutcome.FailureKind.CONTEXT_LENGTH, 400, "maximum context length exceeded")
                : FakeModelClient.answer(r, "technical", "high"));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            IntStream.range(0, 7).forEach(i -> h.pipe(Priority.INTERACTIVE, "T-" + i, Fixtures.ticket("T-" + i)));
            h.pipe(Priority.INTERACTIVE, "fat", Fixtures.ticket("fat"));
            h.advance(Duration.ofSeconds(3));

            assertThat(h.classified()).hasSize(7);
            assertThat(h.deadLetters()).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("fat");
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("too-large");
                assertThat(header(r, DeadLetterHeaders.ERROR_STATUS)).isEqualTo("400");
            });
            assertThat(client.requests().get(0).items()).hasSize(8);
            assertThat(client.requests()).anySatisfy(r -> assertThat(r.items()).extracting(ModelItem::id).containsExactly("fat"));
            assertThat(h.retries()).isEmpty();
        }
    }

    @Test
    void shouldBisectAnUnusableBatchUntilThePoisonTicketIsAlone() throws Exception {
        // any batch containing "poison" gets a malformed answer
        FakeModelClient client = new FakeModelClient(r -> r.items().stream().anyMatch(i -> i.id().equals("poison"))
                ? new ModelOutcome.Answered(Map.of(), invalidAll(r), "stop", 100, 5, RateLimitInfo.EMPTY, 3)
                : FakeModelClient.answer(r, "account", "low"));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            IntStream.range(0, 9).forEach(i -> h.pipe(Priority.INTERACTIVE, "T-" + i, Fixtures.ticket("T-" + i)));
            h.pipe(Priority.INTERACTIVE, "poison", Fixtures.ticket("poison"));
            h.advance(Duration.ofSeconds(3));

            List<TestRecord<String, byte[]>> classified = h.classified();
            assertThat(classified).extracting(TestRecord::key).hasSize(9).doesNotContain("poison");
            // the innocent tickets consumed no attempt
            assertThat(classified).allSatisfy(r -> assertThat(Json.MAPPER.readTree(r.value()).get("attempts").asInt()).isEqualTo(1));
            List<TestRecord<String, byte[]>> retries = h.retries();
            assertThat(retries).isNotEmpty().allSatisfy(r -> {
                assertThat(r.key()).isEqualTo("poison");
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("invalid-output");
                assertThat(header(r, DeadLetterHeaders.BATCH_CAP)).isEqualTo("1");
            });
            assertThat(header(retries.get(0), DeadLetterHeaders.ATTEMPT)).isEqualTo("1");
            assertThat(client.requests()).filteredOn(r -> r.items().size() == 1)
                    .as("every single-ticket call after bisection is the poison ticket or an innocent half of one")
                    .anySatisfy(r -> assertThat(r.items().get(0).id()).isEqualTo("poison"));
            assertThat(client.requests()).filteredOn(r -> r.items().size() > 1)
                    .as("bisection: 10, then 5 + 5, then 3 + 2 and so on").hasSizeBetween(3, 6);
        }
    }

    @Test
    void shouldRetryOnlyTheTicketsMissingFromAnAnswerAndEventuallyDeadLetterThemAsInvalidOutput() {
        FakeModelClient client = new FakeModelClient(r -> {
            Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
            Map<String, String> invalid = new LinkedHashMap<>();
            for (ModelItem i : r.items()) {
                if (i.id().equals("odd")) {
                    invalid.put(i.id(), "category outside the closed set: refunds");
                } else {
                    labels.put(i.id(), new ModelOutcome.Label("billing", "low"));
                }
            }
            return new ModelOutcome.Answered(labels, invalid, "stop", 100, 20, RateLimitInfo.EMPTY, 3);
        });
        RetrySettings retry = RetrySettings.ofDefaults().withMaxAttempts(2).withBase(Duration.ofMillis(50)).withCap(Duration.ofMillis(100));
        try (PipelineHarness h = new PipelineHarness(settings(retry), client)) {
            h.pipe(Priority.INTERACTIVE, "a", Fixtures.ticket("a"));
            h.pipe(Priority.INTERACTIVE, "odd", Fixtures.ticket("odd"));
            for (int i = 0; i < 4; i++) {
                h.advance(Duration.ofMillis(500));
            }
            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("a");
            assertThat(h.deadLetters()).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("odd");
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("invalid-output");
                assertThat(header(r, DeadLetterHeaders.ERROR_MESSAGE)).contains("closed set");
            });
        }
    }

    @Test
    void shouldResendATruncatedAnswerWithTwiceTheBudgetWithoutConsumingAnAttempt() throws Exception {
        FakeModelClient client = new FakeModelClient(r -> r.prompt().maxTokens() < 60
                ? new ModelOutcome.Answered(Map.of(), invalidAll(r), "length", 100, r.prompt().maxTokens(), RateLimitInfo.EMPTY, 3)
                : FakeModelClient.answer(r, "other", "medium"));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.pipe(Priority.INTERACTIVE, "T-1", Fixtures.ticket("T-1"));
            h.advance(Duration.ofSeconds(1));
            assertThat(client.requests()).hasSize(2);
            assertThat(client.requests().get(1).prompt().maxTokens())
                    .as("twice the reservation, which the cut itself raised").isGreaterThan(2 * client.requests().get(0).prompt().maxTokens());
            assertThat(h.retries()).isEmpty();
            assertThat(h.deadLetters()).isEmpty();
            assertThat(Json.MAPPER.readTree(h.classified().get(0).value()).get("attempts").asInt()).isEqualTo(1);
        }
    }

    @Test
    void shouldClassifyEveryTicketOfAnAnswerCutByTheLearnedReservationByResendingTheRestWithALargerOne() throws Exception {
        // an answer takes the envelope (8) plus 12 tokens a ticket, or 30 for a "long" one; one cut at max_tokens keeps the entries that fit
        List<ModelRequest> cut = new java.util.ArrayList<>();
        FakeModelClient client = new FakeModelClient(r -> {
            Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
            int used = 8;
            for (ModelItem item : r.items()) {
                int entry = item.id().startsWith("long") ? 30 : 12;
                if (used + entry > r.prompt().maxTokens()) {
                    cut.add(r);
                    return new ModelOutcome.Answered(labels, Map.of(), "length", 100, r.prompt().maxTokens(), RateLimitInfo.EMPTY, 3);
                }
                used += entry;
                labels.put(item.id(), new ModelOutcome.Label("technical", "high"));
            }
            return new ModelOutcome.Answered(labels, Map.of(), "stop", 100, used, RateLimitInfo.EMPTY, 3);
        });
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            for (int i = 0; i < 60; i++) {
                h.pipe(Priority.STANDARD, "T-" + i, Fixtures.ticket("T-" + i));
            }
            h.advance(Duration.ofSeconds(2));
            // ten more, sent once the answers above are in (the backlog's last calls may have gone before any answer)
            for (int i = 60; i < 70; i++) {
                h.pipe(Priority.STANDARD, "T-" + i, Fixtures.ticket("T-" + i));
            }
            h.advance(Duration.ofSeconds(2));
            int learned = client.requests().get(client.requests().size() - 1).prompt().maxTokens();
            assertThat(learned).as("learned from the answers: about 12 a ticket, not the configured 28")
                    .isLessThan(BatchSettings.ofDefaults().completionTokensPerItem() * client.requests().get(client.requests().size() - 1).items().size());
            assertThat(cut).isEmpty();

            for (int i = 0; i < 10; i++) {
                h.pipe(Priority.STANDARD, "long-" + i, Fixtures.ticket("long-" + i));
            }
            h.advance(Duration.ofSeconds(2));

            assertThat(cut).as("the learned reservation is too small for the long answers").isNotEmpty();
            ModelRequest first = cut.get(0);
            String unanswered = first.items().get(first.items().size() - 1).id();
            ModelRequest resent = client.requests().subList(client.requests().indexOf(first) + 1, client.requests().size()).stream()
                    .filter(r -> r.items().stream().anyMatch(i -> i.id().equals(unanswered))).findFirst().orElseThrow();
            assertThat(resent.prompt().maxTokens()).as("the rest asked again with a larger reservation")
                    .isGreaterThan(first.prompt().maxTokens());
            assertThat(h.classified()).hasSize(80);
            assertThat(h.retries()).isEmpty();
            assertThat(h.deadLetters()).isEmpty();
            for (TestRecord<String, byte[]> r : h.classified()) {
                assertThat(Json.MAPPER.readTree(r.value()).get("attempts").asInt()).as(r.key()).isEqualTo(1);
            }
        }
    }

    @Test
    void shouldOpenTheCircuitOnTransientFailuresAndProbeWithOneTicket() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 503, "overloaded"));
        RetrySettings retry = RetrySettings.ofDefaults().withCircuitOpenWait(Duration.ofSeconds(10));
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(), Fixtures.settings().quota(),
                BatchSettings.ofDefaults().withMaxItems(2), retry).build();
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            IntStream.range(0, 30).forEach(i -> h.pipe(Priority.INTERACTIVE, "T-" + i, Fixtures.ticket("T-" + i)));
            h.advance(Duration.ofSeconds(1));
            int calls = client.requests().size();
            assertThat(calls).as("the breaker opens after its minimum of 5 failed calls").isBetween(5, 16);
            h.advance(Duration.ofSeconds(8));
            assertThat(client.requests()).as("no call while the circuit is open").hasSize(calls);

            client.respondWith(r -> FakeModelClient.answer(r, "technical", "critical"));
            h.advance(Duration.ofSeconds(2));
            assertThat(client.requests().get(calls).items()).as("the half-open probe carries one ticket").hasSize(1);
            h.advance(Duration.ofSeconds(2));
            assertThat(client.requests().size()).as("closed again after a good probe").isGreaterThan(calls + 1);
            assertThat(h.deadLetters()).isEmpty();
        }
    }

    @Test
    void shouldCloseTheCircuitWhenTheProbesOnlyTicketWasUpdatedWhileItWasOut() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 503, "overloaded"));
        RetrySettings retry = RetrySettings.ofDefaults().withCircuitOpenWait(Duration.ofSeconds(10));
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(), Fixtures.settings().quota(),
                BatchSettings.ofDefaults().withMaxItems(2), retry).build();
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            IntStream.range(0, 30).forEach(i -> h.pipe(Priority.INTERACTIVE, "T-" + i, Fixtures.ticket("T-" + i)));
            h.advance(Duration.ofSeconds(1));
            int calls = client.requests().size();
            h.advance(Duration.ofSeconds(8));
            client.respondWith(r -> FakeModelClient.answer(r, "technical", "critical")).hold();
            h.advance(Duration.ofSeconds(2));
            assertThat(client.requests()).as("the half-open probe").hasSize(calls + 1);
            String id = client.requests().get(calls).items().get(0).id();

            // the producer edits the probe's only ticket while the probe is out: its answer counts for no ticket
            h.pipe(Priority.INTERACTIVE, id, Fixtures.ticket(id, "default", "Edited: my invoice is still wrong."));
            h.advance(Duration.ofMillis(200));
            client.completeAll();
            for (int i = 0; i < 20; i++) {
                h.advance(Duration.ofSeconds(1));
                client.completeAll();
            }

            assertThat(client.requests().size()).as("the answered probe closed the circuit: calls go out again")
                    .isGreaterThan(calls + 1);
            assertThat(h.classified().stream().map(r -> r.key()).toList()).as("every ticket once, the edited one too")
                    .hasSize(30).doesNotHaveDuplicates().contains(id);
            assertThat(h.deadLetters()).isEmpty();
        }
    }

    @Test
    void shouldDeadLetterTicketsOlderThanTheMaximumAgeDuringAnOutage() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 503, "down"));
        RetrySettings retry = RetrySettings.ofDefaults().withMaxAge(Duration.ofSeconds(20)).withCircuitOpenWait(Duration.ofSeconds(60));
        try (PipelineHarness h = new PipelineHarness(settings(retry), client)) {
            IntStream.range(0, 60).forEach(i -> h.pipe(Priority.INTERACTIVE, "T-" + i, Fixtures.ticket("T-" + i)));
            h.advance(Duration.ofSeconds(25));
            h.advance(Duration.ofSeconds(3));
            h.advance(Duration.ofSeconds(3));
            List<TestRecord<String, byte[]>> dlq = h.deadLetters();
            assertThat(dlq).hasSize(60).allSatisfy(r -> assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("retries-exhausted"));
            assertThat(h.classified()).isEmpty();
        }
    }

    @Test
    void shouldHaltOnRejectedCredentialsDeadLetterNothingAndResumeWhenAccepted() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.HALT, 401, "invalid_api_key"));
        RetrySettings retry = RetrySettings.ofDefaults().withMaxAge(Duration.ofSeconds(5)).withHaltProbeInterval(Duration.ofSeconds(10));
        List<DispatcherSnapshot> snapshots = new java.util.ArrayList<>();
        DispatcherListener listener = new DispatcherListener() {
            @Override
            public void state(DispatcherSnapshot snapshot) {
                snapshots.add(snapshot);
            }
        };
        try (PipelineHarness h = new PipelineHarness(settings(retry), client, listener)) {
            IntStream.range(0, 5).forEach(i -> h.pipe(Priority.STANDARD, "T-" + i, Fixtures.ticket("T-" + i)));
            h.advance(Duration.ofSeconds(1));
            assertThat(client.requests()).hasSize(1);
            h.advance(Duration.ofSeconds(8));
            assertThat(client.requests()).as("nothing dispatched while halted").hasSize(1);
            assertThat(snapshots.get(snapshots.size() - 1).state()).startsWith("HALTED");
            h.advance(Duration.ofSeconds(3));
            assertThat(client.requests()).as("one probe after the interval").hasSize(2);
            assertThat(client.requests().get(1).items()).as("the probe is a call of its own").isEmpty();
            assertThat(client.requests().get(1).prompt().maxTokens()).as("the check's one-token call").isEqualTo(1);
            assertThat(h.deadLetters()).as("older than the maximum age, yet kept").isEmpty();
            assertThat(h.retries()).isEmpty();

            client.respondWith(r -> FakeModelClient.answer(r, "account", "high"));
            h.advance(Duration.ofSeconds(12));
            assertThat(client.requests().get(2).items()).as("the accepted probe, then the tickets").isEmpty();
            assertThat(h.classified()).hasSize(5);
            assertThat(h.deadLetters()).isEmpty();
            assertThat(snapshots.get(snapshots.size() - 1).state()).isEqualTo("RUNNING");
        }
    }

    @Test
    void shouldKeepTheHaltWhileAProbeIsOutOrTimesOutAndProbeAgainWhenDue() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.HALT, 401, "invalid_api_key"));
        RetrySettings retry = RetrySettings.ofDefaults().withHaltProbeInterval(Duration.ofSeconds(10));
        try (PipelineHarness h = new PipelineHarness(settings(retry), client)) {
            h.pipe(Priority.STANDARD, "T-0", Fixtures.ticket("T-0"));
            h.advance(Duration.ofSeconds(1));
            client.hold();
            h.advance(Duration.ofSeconds(10));
            assertThat(client.requests()).as("the probe went out; the stream thread does not wait for it").hasSize(2);
            h.advance(Duration.ofSeconds(25));
            assertThat(client.requests()).as("no second probe while one is out").hasSize(2);

            client.respondWith(r -> FakeModelClient.failed(ModelOutcome.FailureKind.TIMEOUT, 0, "timeout after 60000 ms"));
            client.completeAll();
            h.advance(Duration.ofSeconds(1));
            assertThat(h.retries()).as("a probe carries no ticket: nothing to retry").isEmpty();
            h.advance(Duration.ofSeconds(1));
            assertThat(client.requests()).as("the probe's interval had passed: the next one goes").hasSize(3);
            assertThat(client.requests().get(2).items()).isEmpty();

            client.respondWith(r -> FakeModelClient.answer(r, "account", "high"));
            client.completeAll();
            h.advance(Duration.ofSeconds(1));
            client.completeAll();
            h.advance(Duration.ofSeconds(1));
            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("T-0");
            assertThat(h.deadLetters()).isEmpty();
        }
    }

    @Test
    void shouldRetryATimeoutRecordedAsATimeout() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.TIMEOUT, 0, "timeout after 60000 ms"));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.pipe(Priority.INTERACTIVE, "T-1", Fixtures.ticket("T-1"));
            h.advance(Duration.ofMillis(200));
            assertThat(h.retries()).first().satisfies(r -> {
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("timeout");
                assertThat(header(r, DeadLetterHeaders.ERROR_STATUS)).isEqualTo("0");
            });
        }
    }

    @Test
    void shouldDeadLetterARequestTheProviderCallsInvalid() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.NON_RETRYABLE, 422, "unprocessable"));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.pipe(Priority.INTERACTIVE, "T-1", Fixtures.ticket("T-1"));
            h.advance(Duration.ofMillis(300));
            assertThat(h.deadLetters()).singleElement()
                    .satisfies(r -> assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("non-retryable"));
        }
    }

    private static Map<String, String> invalidAll(ModelRequest r) {
        Map<String, String> invalid = new LinkedHashMap<>();
        r.items().forEach(i -> invalid.put(i.id(), "malformed answer"));
        return invalid;
    }
}

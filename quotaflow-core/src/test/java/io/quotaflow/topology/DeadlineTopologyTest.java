package io.quotaflow.topology;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.DeadlineAction;
import io.quotaflow.settings.DeadlineSettings;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.records.HandoffHeaders;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.status.StatusStore;
import io.quotaflow.status.TicketState;
import io.quotaflow.status.TicketStatus;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Deadlines (docs/design.md, "Deadlines and hand-off"): a ticket that will miss its deadline leaves before
 * it, to {@code tickets.handoff} with why and when, or as a {@code shed} dead letter, or waits, as
 * {@code deadline.action} says; one outcome per ticket.
 */
class DeadlineTopologyTest {

    private static final java.util.function.Function<io.quotaflow.llm.ModelRequest, ModelOutcome> REFUSED = r -> FakeModelClient.failed(ModelOutcome.FailureKind.HALT, 401, "invalid api key");

    private static String header(TestRecord<String, byte[]> r, String key) {
        return FailureHeaders.string(r.headers(), key).orElse(null);
    }

    private static byte[] ticket(String id, String deadline) {
        return ("{\"id\":\"" + id + "\",\"subject\":\"Login\",\"body\":\"I cannot log in " + id + "\""
                + (deadline == null ? "" : ",\"deadline\":" + deadline) + "}").getBytes(StandardCharsets.UTF_8);
    }

    private static TicketStatus status(PipelineHarness h, String key) {
        return h.driver().<String, TicketStatus>getKeyValueStore(StatusStore.STATUS).get(key);
    }

    private static DispatcherSettings withDeadlines(DispatcherSettings s, Map<Priority, Duration> defaults, DeadlineAction action) {
        return s.withDeadlines(DeadlineSettings.DEFAULTS.withDefaults(defaults).withAction(action));
    }

    /** One ticket a call, 12 calls a minute (a call every ~5.6 s at the default safety factor), one call at a time. */
    private static DispatcherSettings slow() {
        return DispatcherSettings.builder(Fixtures.model(), QuotaSettings.ofDefaults().withRpm(12).withTpm(2_000_000).withMaxInFlight(1),
                BatchSettings.ofDefaults().withMaxItems(1), RetrySettings.ofDefaults()).build();
    }

    @Test
    void shouldHandOffBeforeTheDeadlineWhileTheRouteIsHaltedAndNeverClassifyItAfter() {
        DispatcherSettings settings = withDeadlines(Fixtures.settings(), Map.of(Priority.INTERACTIVE, Duration.ofSeconds(20)),
                DeadlineAction.HANDOFF);
        AtomicBoolean keyFixed = new AtomicBoolean();
        FakeModelClient client = new FakeModelClient(r -> keyFixed.get() ? FakeModelClient.answer(r, "account", "high") : REFUSED.apply(r));
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            h.pipe(Priority.BULK, "PROBE", Fixtures.ticket("PROBE"));
            h.advance(Duration.ofSeconds(2));
            Instant published = h.now();
            for (int i = 1; i <= 3; i++) {
                h.pipe(Priority.INTERACTIVE, "I-" + i, ticket("I-" + i, null));
            }
            h.pipe(Priority.STANDARD, "S-1", ticket("S-1", null));
            h.advance(Duration.ofSeconds(3));

            List<TestRecord<String, byte[]>> handed = h.handoffs();
            assertThat(handed).extracting(TestRecord::key).containsExactlyInAnyOrder("I-1", "I-2", "I-3");
            Instant deadline = published.plusSeconds(20);
            assertThat(handed).allSatisfy(r -> {
                assertThat(r.getRecordTime()).as("before its deadline").isBefore(deadline);
                assertThat(header(r, HandoffHeaders.REASON)).isEqualTo("unavailable");
                assertThat(Instant.parse(header(r, HandoffHeaders.ETA))).as("done once the probe at 30 s is accepted: too late")
                        .isAfter(deadline);
                assertThat(header(r, HandoffHeaders.DEADLINE)).isEqualTo(deadline.toString());
                assertThat(header(r, HandoffHeaders.ROUTE)).isEqualTo("default");
                assertThat(header(r, DeadLetterHeaders.ORIGIN_TOPIC)).isEqualTo("tickets.interactive");
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).as("a hand-off is no error").isNull();
            });
            assertThat(handed.get(0).value()).as("the original bytes").isEqualTo(ticket(handed.get(0).key(), null));
            assertThat(status(h, "I-1").state()).isEqualTo(TicketState.HANDED_OFF);

            keyFixed.set(true);
            h.advance(Duration.ofSeconds(70));
            assertThat(h.classified()).extracting(TestRecord::key).as("once the key works, only the tickets still waiting")
                    .containsExactlyInAnyOrder("PROBE", "S-1");
            assertThat(h.handoffs()).isEmpty();
            assertThat(h.deadLetters()).isEmpty();
        }
    }

    @Test
    void shouldLetTicketsWithFarDeadlinesWaitForTheHaltProbeAndHandOffOnlyThoseItCannotServeInTime() {
        // halted at 0 s, the next probe at 30 s (retry.halt-probe-ms), deadline.halt-grace 30 s
        AtomicBoolean keyFixed = new AtomicBoolean();
        FakeModelClient client = new FakeModelClient(r -> keyFixed.get() ? FakeModelClient.answer(r, "account", "high") : REFUSED.apply(r));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            Instant start = h.now();
            h.pipe(Priority.BULK, "PROBE", Fixtures.ticket("PROBE"));
            h.advance(Duration.ofSeconds(2));
            Instant near = start.plusSeconds(20);
            Instant withinGrace = start.plusSeconds(45);
            h.pipe(Priority.STANDARD, "NEAR", ticket("NEAR", "\"" + near + "\""));
            h.pipe(Priority.STANDARD, "GRACE", ticket("GRACE", "\"" + withinGrace + "\""));
            h.pipe(Priority.STANDARD, "MID", ticket("MID", "\"" + start.plusSeconds(90) + "\""));
            h.pipe(Priority.STANDARD, "FAR", ticket("FAR", "\"" + start.plus(Duration.ofHours(2)) + "\""));
            h.advance(Duration.ofSeconds(3));

            List<TestRecord<String, byte[]>> handed = h.handoffs();
            assertThat(handed).extracting(TestRecord::key).as("before the probe, or after it but within the grace")
                    .containsExactlyInAnyOrder("NEAR", "GRACE");
            assertThat(handed).allSatisfy(r -> {
                assertThat(header(r, HandoffHeaders.REASON)).isEqualTo("unavailable");
                assertThat(Instant.parse(header(r, HandoffHeaders.ETA))).as("done once the probe at 30 s is accepted")
                        .isAfterOrEqualTo(start.plusSeconds(30)).isBefore(start.plusSeconds(45));
            });
            assertThat(status(h, "MID").state()).isEqualTo(TicketState.PENDING);
            assertThat(status(h, "FAR").state()).isEqualTo(TicketState.PENDING);

            keyFixed.set(true);
            h.advance(Duration.ofSeconds(35));
            assertThat(h.classified()).extracting(TestRecord::key).as("the probe at 30 s is accepted: the others are served")
                    .containsExactlyInAnyOrder("PROBE", "MID", "FAR");
            assertThat(h.now()).as("MID within its deadline").isBefore(start.plusSeconds(90));
            assertThat(h.handoffs()).isEmpty();
            assertThat(h.deadLetters()).isEmpty();
        }
    }

    @Test
    void shouldDeadLetterAsBadInputADeadlineBeyondTheYear9999AndWriteNothingElse() {
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), FakeModelClient.labellingAll("billing", "low"))) {
            h.pipe(Priority.STANDARD, "FAR", ticket("FAR", "\"+300000000-01-01T00:00:00Z\""));
            h.advance(Duration.ofSeconds(3));

            assertThat(h.deadLetters()).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("FAR");
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("bad-input");
                assertThat(header(r, DeadLetterHeaders.ERROR_MESSAGE)).contains("deadline must lie between 1970-01-01T00:00:00Z and "
                        + "9999-12-31T23:59:59.999Z", "+300000000");
                assertThat(r.value()).as("the original bytes").isEqualTo(ticket("FAR", "\"+300000000-01-01T00:00:00Z\""));
            });
            assertThat(h.classified()).isEmpty();
            assertThat(h.handoffs()).isEmpty();
            assertThat(h.retries()).isEmpty();
        }
    }

    @Test
    void shouldHandOffTheTicketsWhoseEtaPassesTheirDeadlineAndServeTheOthers() {
        DispatcherSettings settings = slow();
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            String deadline = "\"" + h.now().plusSeconds(30) + "\"";
            for (int i = 1; i <= 10; i++) {
                h.pipe(Priority.STANDARD, "T-" + i, ticket("T-" + i, deadline));
            }
            h.advance(Duration.ofSeconds(2));
            List<TestRecord<String, byte[]>> handed = h.handoffs();
            assertThat(handed).as("the last of ten, one call every ~5 s, cannot be done within 30 s").isNotEmpty();
            assertThat(handed).allSatisfy(r -> {
                assertThat(header(r, HandoffHeaders.REASON)).isEqualTo("eta");
                assertThat(Instant.parse(header(r, HandoffHeaders.ETA))).as("its ETA is past its deadline")
                        .isAfter(h.now().plusSeconds(28));
            });
            h.advance(Duration.ofSeconds(60));
            List<String> classified = h.classified().stream().map(TestRecord::key).toList();
            List<String> handedKeys = handed.stream().map(TestRecord::key).toList();
            assertThat(classified).as("the first ones are served").contains("T-1", "T-2", "T-3").doesNotContainAnyElementsOf(handedKeys);
            assertThat(classified.size() + handed.size() + h.handoffs().size()).as("one outcome each").isEqualTo(10);
        }
    }

    @Test
    void shouldHandOffATicketWhoseOwnDeadlineHasPassedAndRejectAMalformedOne() {
        FakeModelClient client = new FakeModelClient(REFUSED);
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.pipe(Priority.STANDARD, "LATE", ticket("LATE", "\"2025-01-01T00:00:00Z\""));
            h.pipe(Priority.STANDARD, "BAD", ticket("BAD", "\"tomorrow\""));
            h.pipe(Priority.STANDARD, "NONE", ticket("NONE", null));
            h.advance(Duration.ofSeconds(2));

            assertThat(h.handoffs()).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("LATE");
                assertThat(header(r, HandoffHeaders.REASON)).isEqualTo("passed");
            });
            assertThat(h.deadLetters()).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("BAD");
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("bad-input");
                assertThat(header(r, DeadLetterHeaders.ERROR_MESSAGE)).contains("deadline must be an ISO-8601 instant", "tomorrow");
            });
        }
    }

    @Test
    void shouldShedOrKeepAsTheActionSays() {
        Map<Priority, Duration> twenty = Map.of(Priority.INTERACTIVE, Duration.ofSeconds(20));
        try (PipelineHarness h = new PipelineHarness(withDeadlines(Fixtures.settings(), twenty, DeadlineAction.SHED), new FakeModelClient(REFUSED))) {
            h.pipe(Priority.BULK, "PROBE", Fixtures.ticket("PROBE"));
            h.advance(Duration.ofSeconds(2));
            h.pipe(Priority.INTERACTIVE, "I-1", ticket("I-1", null));
            h.advance(Duration.ofSeconds(2));
            assertThat(h.handoffs()).isEmpty();
            assertThat(h.deadLetters()).singleElement().satisfies(r -> {
                assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("shed");
                assertThat(header(r, DeadLetterHeaders.ERROR_MESSAGE)).contains("would miss its deadline", "deadline.action=shed");
            });
        }
        try (PipelineHarness h = new PipelineHarness(withDeadlines(Fixtures.settings(), twenty, DeadlineAction.KEEP), new FakeModelClient(REFUSED))) {
            h.pipe(Priority.BULK, "PROBE", Fixtures.ticket("PROBE"));
            h.advance(Duration.ofSeconds(2));
            h.pipe(Priority.INTERACTIVE, "I-1", ticket("I-1", null));
            h.advance(Duration.ofSeconds(30));
            assertThat(h.handoffs()).isEmpty();
            assertThat(h.deadLetters()).isEmpty();
            assertThat(status(h, "I-1").state()).isEqualTo(TicketState.PENDING);
        }
    }

    @Test
    void shouldHandOffInsteadOfARetryThatWouldComeBackAfterTheDeadline() {
        DispatcherSettings settings = withDeadlines(Fixtures.settings(), Map.of(Priority.INTERACTIVE, Duration.ofSeconds(10)),
                DeadlineAction.HANDOFF);
        settings = DispatcherSettings.builder(Fixtures.model(), settings.quota(), settings.batch(),
                RetrySettings.ofDefaults().withBase(Duration.ofSeconds(30)).withCap(Duration.ofSeconds(60))).build().withDeadlines(settings.deadlines());
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 500, "boom"));
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            h.pipe(Priority.INTERACTIVE, "I-1", ticket("I-1", null));
            h.advance(Duration.ofSeconds(1));
            assertThat(h.retries()).as("its retry would be due after its deadline").isEmpty();
            assertThat(h.handoffs()).singleElement().satisfies(r -> {
                assertThat(header(r, HandoffHeaders.REASON)).isEqualTo("eta");
                assertThat(header(r, DeadLetterHeaders.ATTEMPT)).isEqualTo("1");
            });
        }
    }

    @Test
    void shouldShedTicketsExpectedToWaitLongerThanTheirClassMaxWait() {
        DispatcherSettings settings = slow().withDeadlines(DeadlineSettings.DEFAULTS.withMaxWait(Map.of(Priority.BULK, Duration.ofSeconds(20))));
        try (PipelineHarness h = new PipelineHarness(settings, FakeModelClient.labellingAll("billing", "low"))) {
            for (int i = 1; i <= 10; i++) {
                h.pipe(Priority.BULK, "B-" + i, ticket("B-" + i, null));
                h.pipe(Priority.STANDARD, "S-" + i, ticket("S-" + i, null));
            }
            h.advance(Duration.ofSeconds(2));
            List<TestRecord<String, byte[]>> shed = h.deadLetters();
            assertThat(shed).as("bulk waits behind ten standard tickets: more than 20 s").isNotEmpty()
                    .allSatisfy(r -> {
                        assertThat(r.key()).startsWith("B-");
                        assertThat(header(r, DeadLetterHeaders.ERROR_KIND)).isEqualTo("shed");
                        assertThat(header(r, DeadLetterHeaders.ERROR_MESSAGE)).contains("queue.max-wait.bulk");
                    });
            assertThat(h.handoffs()).isEmpty();
        }
    }

    @Test
    void shouldAnswerFromAStaleCacheEntryATicketThatWouldMissItsDeadline() {
        DispatcherSettings slow = slow();
        io.quotaflow.settings.Routing r = slow.routing();
        DispatcherSettings settings = slow.withRouting(new io.quotaflow.settings.Routing(r.routes(), r.defaultRoute(), r.byPriority(),
                r.byTenant(), r.maxWait(), Duration.ofSeconds(1), r.cacheShared(), Duration.ofDays(7)));
        try (PipelineHarness h = new PipelineHarness(settings, FakeModelClient.labellingAll("account", "high"))) {
            h.pipe(Priority.STANDARD, "A", ticket("A", null));
            h.advance(Duration.ofSeconds(8));
            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("A");
            for (int i = 1; i <= 10; i++) {
                h.pipe(Priority.STANDARD, "Q-" + i, Fixtures.ticket("Q-" + i, "default", "Question number " + i));
            }
            // B has A's text (its answer has expired) and must be answered within 20 s, behind ten tickets at one a ~5 s
            byte[] b = new String(ticket("A", "\"" + h.now().plusSeconds(20) + "\""), StandardCharsets.UTF_8)
                    .replace("\"id\":\"A\"", "\"id\":\"B\"").getBytes(StandardCharsets.UTF_8);
            h.pipe(Priority.STANDARD, "B", b);
            h.advance(Duration.ofSeconds(2));

            assertThat(h.classified()).filteredOn(t -> t.key().equals("B")).singleElement().satisfies(t -> {
                var json = io.quotaflow.records.Json.MAPPER.readTree(t.value());
                assertThat(json.path("stale").asBoolean()).isTrue();
                assertThat(json.path("cached").asBoolean()).isTrue();
                assertThat(json.path("category").asText()).isEqualTo("account");
            });
            assertThat(h.handoffs()).isEmpty();
        }
    }
}

package io.quotaflow.topology;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import io.quotaflow.records.Priority;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import io.quotaflow.dispatch.report.DispatcherListener;

import static org.assertj.core.api.Assertions.assertThat;

/** Tombstones cancel tickets not yet sent (docs/design.md, "Cancellation"). */
class CancelTopologyTest {

    private final List<String> cancelled = new ArrayList<>();
    private int requests;

    private final DispatcherListener listener = new DispatcherListener() {
        @Override
        public void cancelRequested() {
            requests++;
        }

        @Override
        public void cancelled(String scope, String id) {
            cancelled.add(id);
        }
    };

    private static byte[] ticket(String id, String subject) {
        return ("{\"id\":\"" + id + "\",\"subject\":\"" + subject + "\",\"body\":\"Please help with " + subject + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldCancelAWaitingTicketSoThatNothingOfItIsWritten() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low").hold();
        DispatcherSettings settings = Fixtures.settings();
        try (PipelineHarness h = new PipelineHarness(settings, client, listener)) {
            h.pipe(Priority.INTERACTIVE, "OUT", ticket("OUT", "first"));
            h.advance(Duration.ofMillis(100));
            // a bulk ticket lingers for company: it waits
            h.pipe(Priority.BULK, "WAIT", ticket("WAIT", "second"));
            h.advance(Duration.ofMillis(100));
            h.pipe(Priority.BULK, "WAIT", null);
            client.completeAll();
            h.advance(Duration.ofSeconds(30));
            client.completeAll();
            h.advance(Duration.ofSeconds(1));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("OUT");
            assertThat(h.deadLetters()).isEmpty();
            assertThat(client.requestedIds()).containsExactly("OUT");
            assertThat(cancelled).containsExactly("WAIT");
            assertThat(requests).isEqualTo(1);
        }
    }

    @Test
    void shouldCancelADelayedRetry() {
        FakeModelClient client = new FakeModelClient(r -> FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 503, "busy"));
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, listener)) {
            h.pipe(Priority.INTERACTIVE, "R", ticket("R", "retry me"));
            h.advance(Duration.ofMillis(300));
            assertThat(h.retries()).isNotEmpty();
            client.respondWith(r -> FakeModelClient.answer(r, "billing", "low"));
            h.pipe(Priority.INTERACTIVE, "R", null);
            h.advance(Duration.ofMinutes(2));

            assertThat(h.classified()).isEmpty();
            assertThat(h.deadLetters()).isEmpty();
            assertThat(cancelled).containsExactly("R");
            assertThat(client.requestedIds()).containsExactly("R");
        }
    }

    @Test
    void shouldLetACallThatIsOutAnswerAndIgnoreATombstoneForAnUnknownId() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low").hold();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, listener)) {
            h.pipe(Priority.INTERACTIVE, "FLY", ticket("FLY", "flying"));
            h.advance(Duration.ofMillis(200));
            h.pipe(Priority.INTERACTIVE, "FLY", null);
            h.pipe(Priority.STANDARD, "NOBODY", null);
            h.advance(Duration.ofMillis(100));
            client.completeAll();
            h.advance(Duration.ofMillis(200));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("FLY");
            assertThat(h.deadLetters()).as("a tombstone is not bad input").isEmpty();
            assertThat(cancelled).isEmpty();
            assertThat(requests).isEqualTo(2);
        }
    }

    @Test
    void shouldNotRetryATicketCancelledWhileItsCallWasOutWhenThatCallFails() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low").hold();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, listener)) {
            h.pipe(Priority.INTERACTIVE, "FLY", ticket("FLY", "flying"));
            h.advance(Duration.ofMillis(200));
            assertThat(client.requestedIds()).containsExactly("FLY");
            h.pipe(Priority.INTERACTIVE, "FLY", null);
            h.advance(Duration.ofMillis(100));
            assertThat(cancelled).as("not yet: the call may still answer it").isEmpty();
            client.respondWith(r -> FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 503, "busy"));
            client.completeAll();
            h.advance(Duration.ofMillis(200));
            client.respondWith(r -> FakeModelClient.answer(r, "billing", "low"));
            h.advance(Duration.ofMinutes(2));
            client.completeAll();
            h.advance(Duration.ofSeconds(1));

            assertThat(h.classified()).isEmpty();
            assertThat(h.retries()).as("a cancelled ticket is not retried").isEmpty();
            assertThat(h.deadLetters()).isEmpty();
            assertThat(client.requestedIds()).containsExactly("FLY");
            assertThat(cancelled).containsExactly("FLY");
        }
    }

    @Test
    void shouldAskATicketAgainWhenItIsPublishedAfterACancelWhileItsCallWasOut() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low").hold();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, listener)) {
            h.pipe(Priority.INTERACTIVE, "FLY", ticket("FLY", "flying"));
            h.advance(Duration.ofMillis(200));
            h.pipe(Priority.INTERACTIVE, "FLY", null);
            h.pipe(Priority.INTERACTIVE, "FLY", ticket("FLY", "flying again"));
            h.advance(Duration.ofMillis(100));
            client.respondWith(r -> FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 503, "busy"));
            client.completeAll();
            client.respondWith(r -> FakeModelClient.answer(r, "billing", "low"));
            h.advance(Duration.ofSeconds(1));
            client.completeAll();
            h.advance(Duration.ofSeconds(1));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("FLY");
            assertThat(cancelled).isEmpty();
        }
    }

    @Test
    void shouldCancelOnlyTheTicketOfTheTenantTheTombstoneKeyNames() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        DispatcherSettings slow = Fixtures.settings();
        slow = DispatcherSettings.builder(slow.model(), QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000), slow.batch(),
                slow.retry()).build();
        try (PipelineHarness h = new PipelineHarness(slow, client, listener)) {
            h.pipe(Priority.BULK, "acme:1042", tenantTicket("acme", "1042", "data breach"));
            h.pipe(Priority.BULK, "globex:1042", tenantTicket("globex", "1042", "avatar"));
            h.pipe(Priority.BULK, "initech:7", tenantTicket("initech", "7", "invoice"));
            // a plain id names the default tenant's ticket: nobody's here
            h.pipe(Priority.BULK, "1042", null);
            h.pipe(Priority.STANDARD, "7", null);
            // the explicit key cancels globex's only
            h.pipe(Priority.INTERACTIVE, "globex:1042", null);
            h.advance(Duration.ofSeconds(30));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactlyInAnyOrder("acme:1042", "initech:7");
            assertThat(cancelled).containsExactly("globex:1042");
        }
    }

    private static byte[] tenantTicket(String tenant, String id, String subject) {
        return ("{\"id\":\"" + id + "\",\"tenant\":\"" + tenant + "\",\"subject\":\"" + subject
                + "\",\"body\":\"Please help with " + subject + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldCancelATicketThatFollowsAnIdenticalOneAndStillAnswerTheLeader() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low").hold();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, listener)) {
            h.pipe(Priority.INTERACTIVE, "LEAD", ticket("LEAD", "same"));
            h.advance(Duration.ofMillis(200));
            h.pipe(Priority.INTERACTIVE, "FOLLOW", ticket("FOLLOW", "same"));
            h.advance(Duration.ofMillis(100));
            h.pipe(Priority.INTERACTIVE, "FOLLOW", null);
            h.advance(Duration.ofMillis(100));
            client.completeAll();
            h.advance(Duration.ofMillis(200));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("LEAD");
            assertThat(cancelled).containsExactly("FOLLOW");
        }
    }

    @Test
    void shouldCancelAWaitingLeaderAndLetItsFollowerBeAsked() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        DispatcherSettings slow = Fixtures.settings();
        slow = DispatcherSettings.builder(slow.model(), QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000), slow.batch(),
                slow.retry()).build();
        try (PipelineHarness h = new PipelineHarness(slow, client, listener)) {
            // bulk tickets linger: both wait, the second following the first
            h.pipe(Priority.BULK, "A", ticket("A", "twin"));
            h.pipe(Priority.BULK, "B", ticket("B", "twin"));
            h.pipe(Priority.BULK, "A", null);
            h.advance(Duration.ofSeconds(30));

            assertThat(h.classified()).extracting(TestRecord::key).containsExactly("B");
            assertThat(client.requestedIds()).containsExactly("B");
            assertThat(cancelled).containsExactly("A");
        }
    }
}

package io.quotaflow.topology;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.records.Priority;
import io.quotaflow.records.ResultHeaders;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An interactive ticket is dispatched when it arrives, not at the dispatcher's next tick (docs/design.md,
 * "Interactive lane"): the driver's wall clock stands still between ticks here, so a call made before the
 * next {@code advance} was made on arrival.
 */
class InteractiveArrivalTopologyTest {

    private static byte[] ticket(String id, String subject) {
        return ("{\"id\":\"" + id + "\",\"subject\":\"" + subject + "\",\"body\":\"Please help with " + subject + "\"}")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldSendAnInteractiveTicketArrivingBetweenTicksWithoutWaitingForTheNextTick() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "high").hold();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.advance(Duration.ofMillis(120));
            h.pipe(Priority.BULK, "B-1", ticket("B-1", "an invoice question"));
            assertThat(client.requestedIds()).as("a bulk ticket waits for a tick").isEmpty();

            h.pipe(Priority.INTERACTIVE, "I-1", ticket("I-1", "my account was breached"));

            assertThat(client.requests()).as("sent on arrival, the clock not moved").hasSize(1);
            assertThat(client.requests().get(0).items()).extracting(ModelItem::id).containsExactly("I-1");
        }
    }

    @Test
    void shouldBatchTheInteractiveTicketsArrivingAfterTheFirstUntilTheNextTick() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "high").hold();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client)) {
            h.advance(Duration.ofMillis(120));
            h.pipe(Priority.INTERACTIVE, "I-1", ticket("I-1", "first"));
            h.pipe(Priority.INTERACTIVE, "I-2", ticket("I-2", "second"));
            h.pipe(Priority.INTERACTIVE, "I-3", ticket("I-3", "third"));
            assertThat(client.requests()).as("one call on arrival between two ticks").hasSize(1);

            h.advance(Duration.ofMillis(50));

            assertThat(client.requests()).hasSize(2);
            assertThat(client.requests().get(1).items()).extracting(ModelItem::id).containsExactly("I-2", "I-3");
        }
    }

    @Test
    void shouldGiveAnInteractiveTicketACallOfItsOwnFromTheReserveWhileBulkWaits() {
        // 60 RPM, a 2-second bucket (two requests), a quarter of it reserved for interactive work: after the first
        // bulk call, bulk waits for the refill; an interactive ticket may spend the reserve
        DispatcherSettings settings = DispatcherSettings.builder(Fixtures.model(), QuotaSettings.ofDefaults().withRpm(60)
                .withTpm(2_000_000), BatchSettings.ofDefaults(), RetrySettings.ofDefaults()).build();
        FakeModelClient client = FakeModelClient.labellingAll("billing", "high").hold();
        try (PipelineHarness h = new PipelineHarness(settings, client)) {
            for (int i = 1; i <= 30; i++) {
                h.pipe(Priority.BULK, "B-" + i, ticket("B-" + i, "invoice " + i));
            }
            // the bucket starts empty: the first bulk call goes once it holds the reserve and a request more
            for (int tick = 0; tick < 100 && client.requests().isEmpty(); tick++) {
                h.advance(Duration.ofMillis(50));
            }
            assertThat(client.requests()).hasSize(1);
            // half a second later the bucket holds a request again, but not the reserve besides: bulk waits
            h.advance(Duration.ofMillis(620));
            assertThat(client.requests()).as("bulk waits for the refill").hasSize(1);
            long arrival = h.now().toEpochMilli();

            h.pipe(Priority.INTERACTIVE, "I-1", ticket("I-1", "my account was breached"));

            assertThat(client.requests()).hasSize(2);
            assertThat(client.requests().get(1).items()).extracting(ModelItem::id).containsExactly("I-1");
            assertThat(client.requestedIds()).as("bulk still waits").hasSize(1 + client.requests().get(0).items().size());
            client.completeAll();
            h.advance(Duration.ofMillis(50));
            java.util.List<TestRecord<String, byte[]>> results = h.classified();
            TestRecord<String, byte[]> result = results.stream().filter(r -> r.key().equals("I-1")).findFirst().orElseThrow();
            Header sent = result.headers().lastHeader(ResultHeaders.SENT_AT);
            assertThat(sent).as("the result says when its call went out").isNotNull();
            assertThat(Long.parseLong(new String(sent.value(), StandardCharsets.US_ASCII)))
                    .isEqualTo(arrival);
            Header arrived = result.headers().lastHeader(ResultHeaders.ARRIVED_AT);
            assertThat(arrived).as("and when it reached the dispatcher").isNotNull();
            assertThat(Long.parseLong(new String(arrived.value(), StandardCharsets.US_ASCII))).isEqualTo(arrival);
            TestRecord<String, byte[]> bulk = results.stream().filter(r -> r.key().startsWith("B-")).findFirst().orElseThrow();
            assertThat(bulk.headers().lastHeader(ResultHeaders.ARRIVED_AT)).as("only an interactive result says when it arrived").isNull();
        }
    }
}

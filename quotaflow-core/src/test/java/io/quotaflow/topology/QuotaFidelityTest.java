package io.quotaflow.topology;

import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.settings.DispatcherSettings;

import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import io.quotaflow.testing.PipelineHarness;
import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.dispatch.report.DispatcherSnapshot;

import static org.assertj.core.api.Assertions.assertThat;

/** Learning the provider, through the whole topology on simulated time. */
class QuotaFidelityTest {

    private static final String REFUSAL = "This model's maximum context length is 1000 tokens. However, you requested 1900 tokens "
            + "(1800 in the messages, 100 in the completion). Please reduce the length of the messages or completion.";

    /** Records dispatches (when, what it cost) and the latest snapshot. */
    private static final class Recorder implements DispatcherListener {
        final List<long[]> dispatched = new ArrayList<>();
        DispatcherSnapshot last;
        private final PipelineHarness[] harness = new PipelineHarness[1];

        @Override
        public void dispatched(String scope, Priority priority, int items, long admissionCost) {
            dispatched.add(new long[] {harness[0] == null ? 0 : harness[0].now().toEpochMilli(), admissionCost, items});
        }

        @Override
        public void state(DispatcherSnapshot snapshot) {
            last = snapshot;
        }
    }

    private static byte[] words(String id, int n) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < n; i++) {
            body.append("word").append(i % 97).append(' ');
        }
        return Fixtures.ticket(id, "default", body.toString().strip());
    }

    private static DispatcherSettings settings(QuotaSettings quota) {
        return DispatcherSettings.builder(Fixtures.model(), quota, BatchSettings.ofDefaults(), RetrySettings.ofDefaults()).build();
    }

    @Test
    void shouldRefundARefusedCallChargeNoAttemptAndDeadLetterTheNextTooLargeTicketWithoutACall() {
        FakeModelClient client = new FakeModelClient(r -> r.items().stream().anyMatch(i -> i.id().startsWith("FAT"))
                ? FakeModelClient.failed(ModelOutcome.FailureKind.CONTEXT_LENGTH, 400, REFUSAL)
                : FakeModelClient.answer(r, "billing", "low"));
        Recorder recorder = new Recorder();
        // 980 tokens/s, 2 s of burst: a refused call's tokens are worth about a second
        DispatcherSettings settings = settings(QuotaSettings.ofDefaults().withRpm(6_000).withTpm(60_000).withMaxInFlight(4));
        try (PipelineHarness h = new PipelineHarness(settings, client, recorder)) {
            recorder.harness[0] = h;
            h.pipe(Priority.INTERACTIVE, "FAT-1", words("FAT-1", 600));
            h.advance(Duration.ofSeconds(3));
            assertThat(client.requests()).hasSize(1);
            long refusedCost = recorder.dispatched.get(0)[1];
            assertThat(h.deadLetters()).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("FAT-1");
                assertThat(FailureHeaders.string(r.headers(), DeadLetterHeaders.ERROR_KIND)).contains("too-large");
                assertThat(FailureHeaders.string(r.headers(), DeadLetterHeaders.ATTEMPT)).contains("0");
            });
            assertThat(h.retries()).isEmpty();

            // the refund left the bucket as if the refused call had never been sent: a ticket about as
            // large goes at once, instead of waiting a second for the refill
            h.pipe(Priority.INTERACTIVE, "T-1", words("T-1", 300));
            h.advance(Duration.ofMillis(150));
            assertThat(client.requestedIds()).containsExactly("FAT-1", "T-1");
            assertThat(recorder.dispatched.get(1)[1]).isLessThan(refusedCost);

            // the window is learned: the next ticket that cannot fit alone is dead-lettered without a call
            h.pipe(Priority.INTERACTIVE, "FAT-2", words("FAT-2", 600));
            h.advance(Duration.ofSeconds(2));
            assertThat(client.requestedIds()).containsExactly("FAT-1", "T-1");
            assertThat(h.deadLetters()).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("FAT-2");
                assertThat(FailureHeaders.string(r.headers(), DeadLetterHeaders.ERROR_MESSAGE).orElse(""))
                        .contains("provider's context window is 1000");
            });
            assertThat(recorder.last.contextTokens()).isEqualTo(1000);
            // and a batch is cut to fit it
            for (int i = 0; i < 6; i++) {
                h.pipe(Priority.INTERACTIVE, "S-" + i, words("S-" + i, 120));
            }
            h.advance(Duration.ofSeconds(10));
            assertThat(h.classified()).hasSize(7);
            assertThat(client.requests().subList(2, client.requests().size()))
                    .allSatisfy(r -> assertThat(r.prompt().promptTokens() + r.prompt().maxTokens()).isLessThanOrEqualTo(1000));
        }
    }

    @Test
    void shouldCalibrateToAProviderThatCountsFewerTokens() {
        FakeModelClient client = new FakeModelClient(r -> {
            Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
            r.items().forEach(i -> labels.put(i.id(), new ModelOutcome.Label("billing", "low")));
            return new ModelOutcome.Answered(labels, Map.of(), "stop", Math.round(r.prompt().promptTokens() * 0.7), 5L * labels.size(),
                    RateLimitInfo.EMPTY, 40);
        });
        Recorder recorder = new Recorder();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, recorder)) {
            for (int i = 0; i < 60; i++) {
                h.pipe(Priority.INTERACTIVE, "T-" + i, words("T-" + i, 40));
                h.advance(Duration.ofMillis(100));
            }
            h.advance(Duration.ofSeconds(1));
            assertThat(recorder.last.estimateRatio()).isCloseTo(0.7, org.assertj.core.data.Offset.offset(0.02));
            long[] lastCall = recorder.dispatched.get(recorder.dispatched.size() - 1);
            ModelItem any = client.requests().get(client.requests().size() - 1).items().get(0);
            assertThat(any).isNotNull();
            var prompt = client.requests().get(client.requests().size() - 1).prompt();
            assertThat(lastCall[1]).isEqualTo(Math.round(Math.ceil(prompt.promptTokens() * recorder.last.estimateRatio()))
                    + prompt.maxTokens());
        }
    }

    @Test
    void shouldKeepMoreCallsInFlightWhenTheyTakeLonger() {
        List<Long> latency = new ArrayList<>(List.of(40L));
        // a provider with a quota announces its limits: without, calls slower the more are out would be an engine's (EngineWatch)
        RateLimitInfo announced = new RateLimitInfo(java.util.OptionalLong.of(6_000), java.util.OptionalLong.of(2_000_000),
                java.util.OptionalLong.empty(), java.util.OptionalLong.empty(), java.util.Optional.empty(), java.util.Optional.empty(),
                java.util.Optional.empty());
        FakeModelClient client = new FakeModelClient(r -> {
            Map<String, ModelOutcome.Label> labels = new LinkedHashMap<>();
            r.items().forEach(i -> labels.put(i.id(), new ModelOutcome.Label("billing", "low")));
            return new ModelOutcome.Answered(labels, Map.of(), "stop", r.prompt().promptTokens(), 5L * labels.size(),
                    announced, latency.get(0));
        });
        Recorder recorder = new Recorder();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, recorder)) {
            for (int i = 0; i < 30; i++) {
                h.pipe(Priority.INTERACTIVE, "A-" + i, words("A-" + i, 20));
            }
            h.advance(Duration.ofSeconds(2));
            int fast = recorder.last.inFlightLimit();
            latency.set(0, 4_000L);
            for (int i = 0; i < 300; i++) {
                h.pipe(Priority.INTERACTIVE, "B-" + i, words("B-" + i, 20));
            }
            h.advance(Duration.ofSeconds(5));
            int slow = recorder.last.inFlightLimit();
            // both include the calls that would spend what the bucket holds (docs/design.md, "Limiter")
            assertThat(slow).isGreaterThan(fast).isGreaterThan(16);
            assertThat(h.classified()).hasSize(330);
        }
    }

    /**
     * Before the first answer the latency is unknown: the calls' own wait so far is the lower bound
     * Little's law uses, so a slow provider's first calls do not hold the limit at its start value.
     */
    @Test
    void shouldStartMoreCallsWhileTheFirstOnesAreStillOutTheLongerTheyWait() {
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low").hold();
        Recorder recorder = new Recorder();
        try (PipelineHarness h = new PipelineHarness(Fixtures.settings(), client, recorder)) {
            for (int i = 0; i < 300; i++) {
                h.pipe(Priority.INTERACTIVE, "A-" + i, words("A-" + i, 20));
            }
            h.advance(Duration.ofMillis(300));
            assertThat(client.requests()).as("latency unknown, nothing back: at most the start value").hasSizeLessThanOrEqualTo(16);
            h.advance(Duration.ofSeconds(3));
            assertThat(client.requests()).as("the first calls have waited 3 s, none is back: more went").hasSize(30);
            assertThat(recorder.last.inFlightLimit()).isGreaterThan(30);
            client.completeAll();
            h.advance(Duration.ofMillis(200));
            assertThat(h.classified()).hasSize(300);
        }
    }
}

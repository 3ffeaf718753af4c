package io.quotaflow.dispatch;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.deadline.DeadlinePolicy;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.ledger.InFlightBatch;
import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.ledger.RetryMarker;
import io.quotaflow.dispatch.ledger.TicketStatuses;
import io.quotaflow.dispatch.outcome.Effects;
import io.quotaflow.dispatch.outcome.Outbound;
import io.quotaflow.dispatch.outcome.OutcomeApplier;
import io.quotaflow.dispatch.outcome.RecordEmitter;
import io.quotaflow.dispatch.limit.ProviderModel;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.failure.Backoff;
import io.quotaflow.failure.OutcomePolicy;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.PromptBuilder;
import io.quotaflow.quota.EpochNanoClock;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.status.StatusFixture;
import io.quotaflow.testkit.ManualTime;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A call's outcome is decided as values ({@link Effects}) and applied by the scope's one executor: nothing
 * changes before the executor applies, and a decision that throws while it is made leaves the ledger as it was
 * and forwards nothing.
 */
class EffectExecutorTest {

    private static final String SCOPE = "s";
    private static final long NOW = 1_000_000L;
    private static final ModelSettings MODEL = ModelSettings.of(URI.create("https://api.example.com/v1"), "gpt-4o-mini",
            Secret.of("sk-effects-0123456789"));
    private static final ModelOutcome BUSY = new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, 503, "busy", Optional.empty(),
            RateLimitInfo.EMPTY, 40, null);

    private MockProcessorContext<String, Outbound> context;
    private KeyValueStore<String, WorkItem> pending;
    private KeyValueStore<String, RetryMarker> retrying;
    private DispatchLedger ledger;
    private DispatcherSettings settings;
    private EffectExecutor executor;

    @BeforeEach
    void setUp() {
        context = new MockProcessorContext<>();
        io.quotaflow.testing.LedgerStores stores = io.quotaflow.testing.LedgerStores.open(context);
        pending = stores.pending();
        retrying = stores.retrying();
        ledger = stores.ledger();
        settings = DispatcherSettings.builder(MODEL, QuotaSettings.ofDefaults(), BatchSettings.ofDefaults(), RetrySettings.ofDefaults())
                .build();
        TicketStatuses statuses = new TicketStatuses(new StatusFixture().store(java.time.Duration.ofHours(1)), "default");
        // a retry touches neither the cache nor the routes
        executor = new EffectExecutor(SCOPE, ledger, statuses, null, null, DispatcherListener.NONE, new DispatchOutput(context),
                item -> settings.routing().routesOf(settings.scope()).get(0));
    }

    private OutcomeApplier outcomes(RandomGenerator random) {
        RetrySettings retry = settings.retry();
        ProviderModel provider = new ProviderModel(settings, new PromptBuilder(settings.model()), EpochNanoClock.of(new ManualTime(NOW)));
        ScopeHealth health = new ScopeHealth(SCOPE, retry, (from, to) -> { });
        return new OutcomeApplier(SCOPE, "route default", retry, new OutcomePolicy(retry), provider, health, ledger,
                new RecordEmitter(SCOPE, MODEL.model(), new Backoff(retry, random), "default"), random, item -> "default",
                new DeadlinePolicy(settings.deadlines()));
    }

    private WorkItem ticket(String id, long offset) {
        byte[] bytes = ("{\"id\":\"" + id + "\",\"body\":\"printer on fire\"}").getBytes(StandardCharsets.UTF_8);
        return WorkItem.accepted(new WorkItem.Identity(id, Priority.STANDARD, "default"), bytes, new WorkItem.Origin("tickets.standard", 0, offset), NOW, 10);
    }

    /** Sends {@code items} as one call and takes its answer back from the ledger, as the dispatcher does. */
    private DispatchLedger.Completed sentAndAnswered(WorkItem... items) {
        for (WorkItem item : items) {
            ledger.accept(item, NOW);
        }
        PendingQueue.Proposal proposal = ledger.queue().propose(10, p -> 100_000, Long.MAX_VALUE, NOW).orElseThrow();
        ledger.dispatched(proposal, InFlightBatch.of("call-1", Priority.STANDARD, List.of(items), NOW, 10, 50, 60));
        return ledger.complete("call-1").orElseThrow();
    }

    @Test
    void shouldDecideTheExpiryByAgeWithoutTakingFromTheLedger() {
        byte[] bytes = "{\"id\":\"old\",\"body\":\"printer on fire\"}".getBytes(StandardCharsets.UTF_8);
        WorkItem old = WorkItem.accepted(new WorkItem.Identity("old", Priority.STANDARD, "default"), bytes, new WorkItem.Origin("tickets.standard", 0, 0), NOW, 10).withAttempt(1);
        ledger.accept(old, NOW);
        long later = NOW + settings.retry().maxAge().toMillis() + 1;

        Effects effects = outcomes(RandomGenerator.of("L64X128MixRandom")).expireOld(later);

        assertThat(effects.ledgerChanges()).first().isEqualTo(new Effects.Take(List.of("old")));
        assertThat(effects.endings()).singleElement().isInstanceOf(Effects.DeadLettered.class);
        assertThat(effects.records()).hasSize(1);
        assertThat(ledger.held("old")).as("decided, not applied").isPresent();
        assertThat(ledger.queue().size()).isEqualTo(1);
        assertThat(context.forwarded()).isEmpty();
    }

    @Test
    void shouldChangeNothingUntilTheExecutorAppliesTheDecisionThenRetryInOneStep() {
        WorkItem item = ticket("t1", 0);
        DispatchLedger.Completed done = sentAndAnswered(item);

        Effects effects = outcomes(RandomGenerator.of("L64X128MixRandom")).apply(done.batch(), done.items(), BUSY, Optional.empty(), NOW);

        assertThat(effects.ledgerChanges()).hasSize(2).first().isInstanceOf(Effects.Retried.class);
        assertThat(effects.records()).hasSize(1);
        assertThat(pending.get("t1")).as("decided, not applied").isNotNull();
        assertThat(context.forwarded()).isEmpty();

        executor.apply(effects, NOW);

        assertThat(pending.get("t1")).isNull();
        assertThat(retrying.get("t1")).isNotNull();
        assertThat(context.forwarded()).singleElement()
                .satisfies(f -> assertThat(f.record().value().target()).isEqualTo(Outbound.Target.RETRY));
    }

    @Test
    void shouldLeaveTheLedgerAsItWasAndForwardNothingWhenADecisionFailsToApply() {
        WorkItem first = ticket("t1", 0);
        WorkItem second = ticket("t2", 1);
        DispatchLedger.Completed done = sentAndAnswered(first, second);
        assertThat(done.items()).hasSize(2);
        // the first ticket's retry is decided; the second's backoff throws, mid-way through the call's tickets
        RandomGenerator failsSecond = new RandomGenerator() {
            private int calls;

            @Override
            public long nextLong() {
                return 0;
            }

            @Override
            public long nextLong(long bound) {
                if (++calls > 1) {
                    throw new IllegalStateException("no entropy");
                }
                return 0;
            }
        };
        OutcomeApplier outcomes = outcomes(failsSecond);

        assertThatThrownBy(() -> executor.apply(outcomes.apply(done.batch(), done.items(), BUSY, Optional.empty(), NOW), NOW))
                .isInstanceOf(IllegalStateException.class);

        assertThat(pending.get("t1")).as("still held, as before the answer").isEqualTo(first);
        assertThat(pending.get("t2")).isEqualTo(second);
        assertThat(retrying.get("t1")).as("no retry on its way").isNull();
        assertThat(ledger.queue().size()).isZero();
        assertThat(context.forwarded()).as("nothing forwarded for it").isEmpty();
    }
}

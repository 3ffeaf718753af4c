package io.quotaflow.dispatch.plan;

import io.quotaflow.dispatch.ledger.PendingQueue;
import io.quotaflow.dispatch.ledger.RefBuilder;

import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.quota.Charge;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.ticket.WorkItem;
import org.junit.jupiter.api.Test;

import static io.quotaflow.dispatch.plan.ViewBuilder.FIXED_TOKENS;
import static io.quotaflow.dispatch.plan.ViewBuilder.MAX_TOKENS_PER_ITEM;
import static io.quotaflow.dispatch.plan.ViewBuilder.ticket;
import static io.quotaflow.dispatch.plan.ViewBuilder.view;
import static org.assertj.core.api.Assertions.assertThat;

/** The planner on views built by hand: what it decides, and that deciding changes nothing. */
class DispatchPlannerTest {

    private static final long NOW = 100_000;
    /** Ten tickets a call, standard batches linger 100 ms, bulk 1 s, interactive never. */
    private final DispatchPlanner planner = new DispatchPlanner(BatchSettings.ofDefaults(), 512 * 1024);

    private static DispatchStep.Start started(DispatchStep step) {
        assertThat(step).isInstanceOf(DispatchStep.Start.class);
        return (DispatchStep.Start) step;
    }

    @Test
    void shouldStartTheHighestClassFirstWithTheExactPrice() {
        DispatchView v = view().waiting(ticket("b1", Priority.BULK, 100, 0), ticket("i1", Priority.INTERACTIVE, 100, NOW),
                ticket("i2", Priority.INTERACTIVE, 200, NOW)).build();

        DispatchStep.Start start = started(planner.next(v, NOW));

        assertThat(start.items()).extracting(WorkItem::id).containsExactly("i1", "i2");
        assertThat(start.proposal().priority()).isEqualTo(Priority.INTERACTIVE);
        assertThat(start.charge()).isEqualTo(Charge.call(FIXED_TOKENS + 300, 2 * MAX_TOKENS_PER_ITEM));
        assertThat(start.charge().inputTokens()).isEqualTo(FIXED_TOKENS + 300);
        assertThat(start.probe()).isFalse();
        assertThat(start.continues()).isTrue();
    }

    @Test
    void shouldAskTheLimiterAtTheTimeTheViewWasReadAtOnly() {
        ViewBuilder builder = view().waiting(ticket("s1", Priority.STANDARD, 100, 0)).at(42_000_000_000L);

        started(planner.next(builder.build(), NOW));

        assertThat(builder.askedAt()).as("the in-flight limit, the estimate's and the price's admission").hasSize(3)
                .containsOnly(42_000_000_000L);
    }

    @Test
    void shouldStayIdleWhileAsManyCallsAreOutAsMayBe() {
        DispatchView v = view().waiting(ticket("b1", Priority.BULK, 100, 0), ticket("s1", Priority.STANDARD, 100, 0))
                .callsOut(4, 4).build();

        assertThat(planner.next(v, NOW)).isEqualTo(new DispatchStep.Idle(DispatchStep.Idle.Reason.CALLS_OUT));
    }

    @Test
    void shouldStartAnInteractiveBatchInAnExtraCallWhenBulkFillsTheInFlightLimit() {
        DispatchView v = view().waiting(ticket("b1", Priority.BULK, 100, 0), ticket("i1", Priority.INTERACTIVE, 100, NOW))
                .callsOut(4, 4).build();

        DispatchStep.Start start = started(planner.next(v, NOW));

        assertThat(start.items()).extracting(WorkItem::id).containsExactly("i1");
    }

    @Test
    void shouldNeverGoBeyondAConfiguredInFlightLimitEvenForInteractiveWork() {
        DispatchView v = view().waiting(ticket("i1", Priority.INTERACTIVE, 100, NOW)).callsOut(4, 4).inFlightFixed().build();

        assertThat(planner.next(v, NOW)).isEqualTo(new DispatchStep.Idle(DispatchStep.Idle.Reason.CALLS_OUT));
    }

    @Test
    void shouldStayIdleEvenForInteractiveWorkOnceTheExtraCallsAreOut() {
        DispatchView v = view().waiting(ticket("i1", Priority.INTERACTIVE, 100, NOW))
                .callsOut(4 + DispatchPlanner.INTERACTIVE_EXTRA_CALLS, 4).build();

        assertThat(planner.next(v, NOW)).isEqualTo(new DispatchStep.Idle(DispatchStep.Idle.Reason.CALLS_OUT));
    }

    @Test
    void shouldStayIdleWhenNothingWaits() {
        DispatchStep step = planner.next(view().build(), NOW);

        assertThat(step).isEqualTo(new DispatchStep.Idle(DispatchStep.Idle.Reason.EMPTY));
        assertThat(step.continues()).isFalse();
    }

    @Test
    void shouldStayIdleWhileTheCircuitLetsNothingStart() {
        DispatchView v = view().waiting(ticket("i1", Priority.INTERACTIVE, 100, NOW)).circuit(ScopeHealth.Mode.BLOCKED).build();

        assertThat(planner.next(v, NOW)).isEqualTo(new DispatchStep.Idle(DispatchStep.Idle.Reason.CIRCUIT));
    }

    @Test
    void shouldProbeWithOneTicketThatNeverLingers() {
        DispatchView v = view().waiting(ticket("s1", Priority.STANDARD, 100, NOW), ticket("s2", Priority.STANDARD, 100, NOW))
                .circuit(ScopeHealth.Mode.PROBE).build();

        DispatchStep.Start start = started(planner.next(v, NOW));

        assertThat(start.items()).extracting(WorkItem::id).containsExactly("s1");
        assertThat(start.probe()).isTrue();
    }

    @Test
    void shouldWaitForTheProbesAnswerBeforeProbingAgain() {
        DispatchView v = view().waiting(ticket("s1", Priority.STANDARD, 100, 0)).circuit(ScopeHealth.Mode.PROBE).probeOut().build();

        assertThat(planner.next(v, NOW)).isEqualTo(new DispatchStep.Idle(DispatchStep.Idle.Reason.CIRCUIT));
    }

    @Test
    void shouldLingerWhileABatchIsYoungAndSmallThenStart() {
        DispatchView v = view().waiting(ticket("s1", Priority.STANDARD, 100, NOW - 50)).build();

        assertThat(planner.next(v, NOW)).isInstanceOf(DispatchStep.Linger.class).matches(s -> !s.continues());
        assertThat(started(planner.next(v, NOW + 50)).items()).extracting(WorkItem::id).containsExactly("s1");
    }

    @Test
    void shouldNotLingerABatchThatIsFull() {
        DispatchView v = view().waiting(ticket("s1", Priority.STANDARD, 3_000, NOW), ticket("s2", Priority.STANDARD, 2_000, NOW))
                .build();

        assertThat(started(planner.next(v, NOW)).items()).hasSize(2);
    }

    @Test
    void shouldWaitOnTheEstimateWithoutLoadingTheTickets() {
        // the ticket is gone from the store: had the planner loaded it, it would discard the proposal
        DispatchView v = view().waiting(ticket("i1", Priority.INTERACTIVE, 1_000, NOW)).gone("i1").room(500).build();

        DispatchStep step = planner.next(v, NOW);

        assertThat(step).isInstanceOf(DispatchStep.Wait.class);
        DispatchStep.Wait wait = (DispatchStep.Wait) step;
        assertThat(wait.charge()).isEqualTo(Charge.call(FIXED_TOKENS + 1_000 - 2, MAX_TOKENS_PER_ITEM));
        assertThat(wait.continues()).isFalse();
    }

    @Test
    void shouldWaitOnThePriceWhenOnlyTheEstimateFits() {
        long price = FIXED_TOKENS + 1_000 + MAX_TOKENS_PER_ITEM;
        DispatchView v = view().waiting(ticket("i1", Priority.INTERACTIVE, 1_000, NOW)).room(price - 1).build();

        assertThat(planner.next(v, NOW)).isEqualTo(new DispatchStep.Wait(
                new PendingQueue.Proposal(Priority.INTERACTIVE, java.util.List.of(RefBuilder.ref("i1").tenant("acme").tokens(1_000)
                        .at(NOW).bytes(ticket("i1", Priority.INTERACTIVE, 1_000, NOW).original().length).build()), 1_000),
                Charge.call(FIXED_TOKENS + 1_000, MAX_TOKENS_PER_ITEM)));
    }

    @Test
    void shouldNotLetALowerClassOvertakeAHigherOneThatWaitsForRoom() {
        DispatchView v = view().waiting(ticket("i1", Priority.INTERACTIVE, 5_000, NOW), ticket("b1", Priority.BULK, 10, 0))
                .room(1_000).build();

        DispatchStep step = planner.next(v, NOW);

        assertThat(step).isInstanceOf(DispatchStep.Wait.class);
        assertThat(((DispatchStep.Wait) step).proposal().priority()).isEqualTo(Priority.INTERACTIVE);
    }

    @Test
    void shouldDiscardAProposalWhoseTicketsAreAllGone() {
        DispatchView v = view().waiting(ticket("i1", Priority.INTERACTIVE, 100, NOW), ticket("i2", Priority.INTERACTIVE, 100, NOW))
                .gone("i1").gone("i2").build();

        DispatchStep step = planner.next(v, NOW);

        assertThat(step).isInstanceOf(DispatchStep.Discard.class).matches(DispatchStep::continues);
        assertThat(((DispatchStep.Discard) step).proposal().refs()).hasSize(2);
    }

    @Test
    void shouldStartWithTheTicketsStillHeldWhenSomeAreGone() {
        DispatchView v = view().waiting(ticket("i1", Priority.INTERACTIVE, 100, NOW), ticket("i2", Priority.INTERACTIVE, 100, NOW))
                .gone("i1").build();

        assertThat(started(planner.next(v, NOW)).items()).extracting(WorkItem::id).containsExactly("i2");
    }

    @Test
    void shouldSplitABatchOverTheContextWindowInHalf() {
        DispatchView v = view().waiting(ticket("i1", Priority.INTERACTIVE, 400, NOW), ticket("i2", Priority.INTERACTIVE, 400, NOW),
                ticket("i3", Priority.INTERACTIVE, 400, NOW), ticket("i4", Priority.INTERACTIVE, 400, NOW), ticket("i5", Priority.INTERACTIVE,
                        400, NOW)).contextWindow(1_000, false).build();

        DispatchStep step = planner.next(v, NOW);

        assertThat(step).isInstanceOf(DispatchStep.Split.class).matches(DispatchStep::continues);
        assertThat(((DispatchStep.Split) step).requeued()).extracting(WorkItem::id).containsExactly("i1", "i2", "i3", "i4", "i5");
        assertThat(((DispatchStep.Split) step).requeued()).extracting(WorkItem::batchCap).containsOnly(2);
    }

    @Test
    void shouldFindATicketAloneOverTheContextWindowTooLarge() {
        DispatchView v = view().waiting(ticket("big", Priority.STANDARD, 5_000, 0)).contextWindow(4_000, true).build();

        DispatchStep step = planner.next(v, NOW);

        assertThat(step).isInstanceOf(DispatchStep.TooLarge.class).matches(DispatchStep::continues);
        DispatchStep.TooLarge large = (DispatchStep.TooLarge) step;
        assertThat(large.item().id()).isEqualTo("big");
        assertThat(large.cost()).isEqualTo(FIXED_TOKENS + 5_000 + MAX_TOKENS_PER_ITEM);
        assertThat(large.windowTokens()).isEqualTo(4_000);
        assertThat(large.windowLearned()).isTrue();
    }

    @Test
    void shouldTellTheLimiterWhatWaitsBehindABatch() {
        WorkItem[] bulk = new WorkItem[13];
        for (int i = 0; i < bulk.length; i++) {
            bulk[i] = ticket("b" + i, Priority.BULK, 100, 0);
        }
        ViewBuilder withStandard = view().waiting(bulk).waiting(ticket("s1", Priority.STANDARD, 70, 0));
        ViewBuilder bulkOnly = view().waiting(bulk);

        DispatchStep.Start standard = started(planner.next(withStandard.build(), NOW));
        DispatchStep.Start first = started(planner.next(bulkOnly.build(), NOW));

        assertThat(standard.items()).extracting(WorkItem::id).containsExactly("s1");
        assertThat(standard.after()).as("every bulk ticket waits behind the standard one (a call each, as the test's limiter prices)")
                .isEqualTo(behind(13, 1_300));
        assertThat(withStandard.askedAfter()).as("both the estimate and the price are asked with it").containsExactly(behind(13, 1_300),
                behind(13, 1_300));
        assertThat(first.items()).hasSize(10);
        assertThat(first.after()).as("three bulk tickets wait behind a full batch").isEqualTo(behind(3, 300));
    }

    private static Charge behind(int tickets, long promptTokens) {
        return new Charge(tickets, (long) (FIXED_TOKENS + MAX_TOKENS_PER_ITEM) * tickets + promptTokens,
                (long) FIXED_TOKENS * tickets + promptTokens, (long) MAX_TOKENS_PER_ITEM * tickets);
    }

    @Test
    void shouldTellTheLimiterNothingWaitsBehindTheLastBatchOrAnInteractiveOne() {
        DispatchStep.Start last = started(planner.next(view().waiting(ticket("b1", Priority.BULK, 100, 0)).build(), NOW + 5_000));
        DispatchStep.Start interactive = started(planner.next(view().waiting(ticket("b1", Priority.BULK, 100, 0),
                ticket("i1", Priority.INTERACTIVE, 100, NOW)).build(), NOW));

        assertThat(last.after()).isEqualTo(Charge.NONE);
        assertThat(interactive.proposal().priority()).isEqualTo(Priority.INTERACTIVE);
        assertThat(interactive.after()).as("interactive work has no floor to spend").isEqualTo(Charge.NONE);
    }

    @Test
    void shouldChangeNothingItIsShown() {
        DispatchView v = view().waiting(ticket("i1", Priority.INTERACTIVE, 100, NOW), ticket("s1", Priority.STANDARD, 100, NOW)).build();

        DispatchStep first = planner.next(v, NOW);

        assertThat(planner.next(v, NOW)).as("asked again, the same answer").isEqualTo(first);
        assertThat(v.queue().propose(10, p -> 6_000, Long.MAX_VALUE, NOW).orElseThrow().refs()).extracting(PendingQueue.Ref::id)
                .as("nothing left the queue").containsExactly("i1");
    }
}

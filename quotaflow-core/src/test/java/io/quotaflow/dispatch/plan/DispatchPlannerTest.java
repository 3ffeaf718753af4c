package io.quotaflow.dispatch.plan;

import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.queue.RefBuilder;

import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.quota.Charge;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.quotaflow.dispatch.plan.ViewBuilder.FIXED_TOKENS;
import static io.quotaflow.dispatch.plan.ViewBuilder.MAX_TOKENS_PER_ITEM;
import static io.quotaflow.dispatch.plan.ViewBuilder.ticket;
import static io.quotaflow.dispatch.plan.ViewBuilder.view;
import static org.assertj.core.api.Assertions.assertThat;

/** The planner on view values built by hand, with no ledger and no provider model: what it decides, and that deciding changes nothing. */
class DispatchPlannerTest {

    private static final long NOW = 100_000;
    /** Ten tickets a call, standard batches linger 100 ms, bulk 1 s, interactive never. */
    private final DispatchPlanner planner = new DispatchPlanner(10, Map.of(Priority.STANDARD, 100L, Priority.BULK, 1_000L), 512 * 1024);

    private static DispatchStep.Start started(DispatchStep step) {
        assertThat(step).isInstanceOf(DispatchStep.Start.class);
        return (DispatchStep.Start) step;
    }

    @Test
    void shouldStartTheHighestClassFirstWithTheExactPrice() {
        ViewBuilder v = view().waiting(ticket("b1", Priority.BULK, 100, 0), ticket("i1", Priority.INTERACTIVE, 100, NOW),
                ticket("i2", Priority.INTERACTIVE, 200, NOW));

        DispatchStep.Start start = started(v.plan(planner, NOW));

        assertThat(start.items()).extracting(WorkItem::id).containsExactly("i1", "i2");
        assertThat(start.proposal().priority()).isEqualTo(Priority.INTERACTIVE);
        assertThat(start.charge()).isEqualTo(Charge.call(FIXED_TOKENS + 300, 2 * MAX_TOKENS_PER_ITEM));
        assertThat(start.charge().inputTokens()).isEqualTo(FIXED_TOKENS + 300);
        assertThat(start.probe()).isFalse();
        assertThat(start.continues()).isTrue();
    }

    @Test
    void shouldPlanFromAValueBuiltByHandWithoutAQueueOrALimiter() {
        PendingQueue.Proposal proposal = new PendingQueue.Proposal(Priority.STANDARD, List.of(RefBuilder.ref("s1").tokens(100).at(0).build()), 100);
        Charge estimate = Charge.call(FIXED_TOKENS + 98, MAX_TOKENS_PER_ITEM);
        DispatchView v = new DispatchView(new DispatchView.Circuit(ScopeHealth.Mode.NORMAL, false), 0, 4, false,
                Optional.of(new DispatchView.Candidate(proposal, 6_000, estimate, Charge.NONE, 0)), false);

        DispatchStep step = planner.next(v, NOW);

        assertThat(step).isEqualTo(new DispatchStep.Load(proposal, Charge.NONE, false));
        WorkItem s1 = ticket("s1", Priority.STANDARD, 100, 0);
        Charge price = Charge.call(FIXED_TOKENS + 100, MAX_TOKENS_PER_ITEM);
        assertThat(planner.priced((DispatchStep.Load) step, new DispatchView.Priced(List.of(s1), price, 128_000, false, true, 0)))
                .isEqualTo(new DispatchStep.Start(proposal, List.of(s1), price, Charge.NONE, false));
        assertThat(planner.next(new DispatchView(v.circuit(), 0, 4, false,
                Optional.of(new DispatchView.Candidate(proposal, 6_000, estimate, Charge.NONE, 1)), false), NOW))
                .as("the limiter's answer in the view is all the planner asks").isEqualTo(new DispatchStep.Wait(proposal, estimate));
    }

    @Test
    void shouldProposeOneTicketForAProbeAndABatchOtherwise() {
        assertThat(planner.maxItems(new DispatchView.Circuit(ScopeHealth.Mode.PROBE, false))).isEqualTo(1);
        assertThat(planner.maxItems(new DispatchView.Circuit(ScopeHealth.Mode.NORMAL, false))).isEqualTo(10);
        assertThat(planner.maxBatchBytes()).isEqualTo(512 * 1024);
    }

    @Test
    void shouldNotLoadOrPriceBeforeTheEstimateFitsAndNeverLoadItself() {
        ViewBuilder v = view().waiting(ticket("s1", Priority.STANDARD, 100, 0));

        DispatchStep step = planner.next(v.build(planner, NOW), NOW);

        assertThat(step).isInstanceOf(DispatchStep.Load.class).matches(DispatchStep::continues);
        assertThat(v.askedAfter()).as("only the estimate was asked about: the price is the executor's to read").hasSize(1);
    }

    @Test
    void shouldStayIdleWhileAsManyCallsAreOutAsMayBe() {
        ViewBuilder v = view().waiting(ticket("b1", Priority.BULK, 100, 0), ticket("s1", Priority.STANDARD, 100, 0))
                .callsOut(4, 4);

        assertThat(v.plan(planner, NOW)).isEqualTo(new DispatchStep.Idle(DispatchStep.Idle.Reason.CALLS_OUT));
    }

    @Test
    void shouldStartAnInteractiveBatchInAnExtraCallWhenBulkFillsTheInFlightLimit() {
        ViewBuilder v = view().waiting(ticket("b1", Priority.BULK, 100, 0), ticket("i1", Priority.INTERACTIVE, 100, NOW))
                .callsOut(4, 4);

        DispatchStep.Start start = started(v.plan(planner, NOW));

        assertThat(start.items()).extracting(WorkItem::id).containsExactly("i1");
    }

    @Test
    void shouldNeverGoBeyondAConfiguredInFlightLimitEvenForInteractiveWork() {
        ViewBuilder v = view().waiting(ticket("i1", Priority.INTERACTIVE, 100, NOW)).callsOut(4, 4).inFlightFixed();

        assertThat(v.plan(planner, NOW)).isEqualTo(new DispatchStep.Idle(DispatchStep.Idle.Reason.CALLS_OUT));
    }

    @Test
    void shouldStayIdleEvenForInteractiveWorkOnceTheExtraCallsAreOut() {
        ViewBuilder v = view().waiting(ticket("i1", Priority.INTERACTIVE, 100, NOW))
                .callsOut(4 + DispatchPlanner.INTERACTIVE_EXTRA_CALLS, 4);

        assertThat(v.plan(planner, NOW)).isEqualTo(new DispatchStep.Idle(DispatchStep.Idle.Reason.CALLS_OUT));
    }

    @Test
    void shouldStayIdleWhenNothingWaits() {
        DispatchStep step = view().plan(planner, NOW);

        assertThat(step).isEqualTo(new DispatchStep.Idle(DispatchStep.Idle.Reason.EMPTY));
        assertThat(step.continues()).isFalse();
    }

    @Test
    void shouldStayIdleWhileTheCircuitLetsNothingStart() {
        ViewBuilder v = view().waiting(ticket("i1", Priority.INTERACTIVE, 100, NOW)).circuit(ScopeHealth.Mode.BLOCKED);

        assertThat(v.plan(planner, NOW)).isEqualTo(new DispatchStep.Idle(DispatchStep.Idle.Reason.CIRCUIT));
    }

    @Test
    void shouldProbeWithOneTicketThatNeverLingers() {
        ViewBuilder v = view().waiting(ticket("s1", Priority.STANDARD, 100, NOW), ticket("s2", Priority.STANDARD, 100, NOW))
                .circuit(ScopeHealth.Mode.PROBE);

        DispatchStep.Start start = started(v.plan(planner, NOW));

        assertThat(start.items()).extracting(WorkItem::id).containsExactly("s1");
        assertThat(start.probe()).isTrue();
    }

    @Test
    void shouldWaitForTheProbesAnswerBeforeProbingAgain() {
        ViewBuilder v = view().waiting(ticket("s1", Priority.STANDARD, 100, 0)).circuit(ScopeHealth.Mode.PROBE).probeOut();

        assertThat(v.plan(planner, NOW)).isEqualTo(new DispatchStep.Idle(DispatchStep.Idle.Reason.CIRCUIT));
    }

    @Test
    void shouldLingerWhileABatchIsYoungAndSmallThenStart() {
        ViewBuilder v = view().waiting(ticket("s1", Priority.STANDARD, 100, NOW - 50));

        assertThat(v.plan(planner, NOW)).isInstanceOf(DispatchStep.Linger.class).matches(s -> !s.continues());
        assertThat(started(v.plan(planner, NOW + 50)).items()).extracting(WorkItem::id).containsExactly("s1");
    }

    @Test
    void shouldNotLingerABatchThatIsFull() {
        ViewBuilder v = view().waiting(ticket("s1", Priority.STANDARD, 3_000, NOW), ticket("s2", Priority.STANDARD, 2_000, NOW))
                ;

        assertThat(started(v.plan(planner, NOW)).items()).hasSize(2);
    }

    @Test
    void shouldWaitOnTheEstimateWithoutLoadingTheTickets() {
        // the ticket is gone from the store: had the planner loaded it, it would discard the proposal
        ViewBuilder v = view().waiting(ticket("i1", Priority.INTERACTIVE, 1_000, NOW)).gone("i1").room(500);

        DispatchStep step = v.plan(planner, NOW);

        assertThat(step).isInstanceOf(DispatchStep.Wait.class);
        DispatchStep.Wait wait = (DispatchStep.Wait) step;
        assertThat(wait.charge()).isEqualTo(Charge.call(FIXED_TOKENS + 1_000 - 2, MAX_TOKENS_PER_ITEM));
        assertThat(wait.continues()).isFalse();
    }

    @Test
    void shouldWaitOnThePriceWhenOnlyTheEstimateFits() {
        long price = FIXED_TOKENS + 1_000 + MAX_TOKENS_PER_ITEM;
        ViewBuilder v = view().waiting(ticket("i1", Priority.INTERACTIVE, 1_000, NOW)).room(price - 1);

        assertThat(v.plan(planner, NOW)).isEqualTo(new DispatchStep.Wait(
                new PendingQueue.Proposal(Priority.INTERACTIVE, List.of(RefBuilder.ref("i1").tenant("acme").tokens(1_000)
                        .at(NOW).bytes(ticket("i1", Priority.INTERACTIVE, 1_000, NOW).original().length).build()), 1_000),
                Charge.call(FIXED_TOKENS + 1_000, MAX_TOKENS_PER_ITEM)));
    }

    @Test
    void shouldNotLetALowerClassOvertakeAHigherOneThatWaitsForRoom() {
        ViewBuilder v = view().waiting(ticket("i1", Priority.INTERACTIVE, 5_000, NOW), ticket("b1", Priority.BULK, 10, 0))
                .room(1_000);

        DispatchStep step = v.plan(planner, NOW);

        assertThat(step).isInstanceOf(DispatchStep.Wait.class);
        assertThat(((DispatchStep.Wait) step).proposal().priority()).isEqualTo(Priority.INTERACTIVE);
    }

    @Test
    void shouldDiscardAProposalWhoseTicketsAreAllGone() {
        ViewBuilder v = view().waiting(ticket("i1", Priority.INTERACTIVE, 100, NOW), ticket("i2", Priority.INTERACTIVE, 100, NOW))
                .gone("i1").gone("i2");

        DispatchStep step = v.plan(planner, NOW);

        assertThat(step).isInstanceOf(DispatchStep.Discard.class).matches(DispatchStep::continues);
        assertThat(((DispatchStep.Discard) step).proposal().refs()).hasSize(2);
    }

    @Test
    void shouldStartWithTheTicketsStillHeldWhenSomeAreGone() {
        ViewBuilder v = view().waiting(ticket("i1", Priority.INTERACTIVE, 100, NOW), ticket("i2", Priority.INTERACTIVE, 100, NOW))
                .gone("i1");

        assertThat(started(v.plan(planner, NOW)).items()).extracting(WorkItem::id).containsExactly("i2");
    }

    @Test
    void shouldSplitABatchOverTheContextWindowInHalf() {
        ViewBuilder v = view().waiting(ticket("i1", Priority.INTERACTIVE, 400, NOW), ticket("i2", Priority.INTERACTIVE, 400, NOW),
                ticket("i3", Priority.INTERACTIVE, 400, NOW), ticket("i4", Priority.INTERACTIVE, 400, NOW), ticket("i5", Priority.INTERACTIVE,
                        400, NOW)).contextWindow(1_000, false);

        DispatchStep step = v.plan(planner, NOW);

        assertThat(step).isInstanceOf(DispatchStep.Split.class).matches(DispatchStep::continues);
        assertThat(((DispatchStep.Split) step).requeued()).extracting(WorkItem::id).containsExactly("i1", "i2", "i3", "i4", "i5");
        assertThat(((DispatchStep.Split) step).requeued()).extracting(WorkItem::batchCap).containsOnly(2);
    }

    @Test
    void shouldFindATicketAloneOverTheContextWindowTooLarge() {
        ViewBuilder v = view().waiting(ticket("big", Priority.STANDARD, 5_000, 0)).contextWindow(4_000, true);

        DispatchStep step = v.plan(planner, NOW);

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

        DispatchStep.Start standard = started(withStandard.plan(planner, NOW));
        DispatchStep.Start first = started(bulkOnly.plan(planner, NOW));

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
        DispatchStep.Start last = started(view().waiting(ticket("b1", Priority.BULK, 100, 0)).plan(planner, NOW + 5_000));
        DispatchStep.Start interactive = started(view().waiting(ticket("b1", Priority.BULK, 100, 0),
                ticket("i1", Priority.INTERACTIVE, 100, NOW)).plan(planner, NOW));

        assertThat(last.after()).isEqualTo(Charge.NONE);
        assertThat(interactive.proposal().priority()).isEqualTo(Priority.INTERACTIVE);
        assertThat(interactive.after()).as("interactive work has no floor to spend").isEqualTo(Charge.NONE);
    }

    @Test
    void shouldChangeNothingItIsShown() {
        ViewBuilder v = view().waiting(ticket("i1", Priority.INTERACTIVE, 100, NOW), ticket("s1", Priority.STANDARD, 100, NOW));

        DispatchStep first = v.plan(planner, NOW);

        assertThat(v.plan(planner, NOW)).as("asked again, the same answer").isEqualTo(first);
        assertThat(v.propose(NOW).orElseThrow().refs()).extracting(PendingQueue.Ref::id)
                .as("nothing left the queue").containsExactly("i1");
    }
}

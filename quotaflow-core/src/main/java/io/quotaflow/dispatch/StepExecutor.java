package io.quotaflow.dispatch;

import io.quotaflow.dispatch.call.BatchCaller;
import io.quotaflow.dispatch.call.CallSender;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.ledger.InFlightBatch;
import io.quotaflow.dispatch.ledger.PendingQueue;
import io.quotaflow.dispatch.ledger.TicketStatuses;
import io.quotaflow.dispatch.outcome.OutcomeApplier;
import io.quotaflow.dispatch.plan.BatchLimiter;
import io.quotaflow.dispatch.plan.DispatchPlanner;
import io.quotaflow.dispatch.plan.DispatchStep;
import io.quotaflow.dispatch.plan.DispatchView;
import io.quotaflow.dispatch.plan.LedgerQueue;
import io.quotaflow.dispatch.plan.ProviderModel;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.model.ChatPrompt;
import io.quotaflow.model.ModelRequest;
import io.quotaflow.status.Pace;
import io.quotaflow.ticket.WorkItem;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A scope's dispatch loop: asks the {@link DispatchPlanner} for the next step and carries it out (the ledger, the
 * limiter, the statuses, then the call), until a step stops dispatch for this tick. The planner decides from the
 * scope's view; this applies its {@link DispatchStep}s and builds the prompt of a call that starts.
 */
final class StepExecutor {

    /** Calls a batch route collects per tick at most. */
    static final int BATCH_CALLS_PER_TICK = 500;

    private final String scope;
    private final DispatchLedger ledger;
    private final ProviderModel provider;
    private final ScopeHealth health;
    /** A batch route's calls; null on an online route. */
    private final BatchCaller batch;
    private final CallSender calls;
    private final OutcomeApplier outcomes;
    private final EffectExecutor effects;
    private final DispatcherListener listener;
    private final TicketStatuses statuses;
    private final Pace pace;
    private final DispatchPlanner planner;
    /** The calls out that probe the circuit (one ticket each): the next probe waits for their answer. */
    private final Set<String> probes = new HashSet<>();

    StepExecutor(String scope, DispatchLedger ledger, ProviderModel provider, ScopeHealth health, BatchCaller batch, CallSender calls,
                 OutcomeApplier outcomes, EffectExecutor effects, DispatcherListener listener, TicketStatuses statuses, Pace pace, DispatchPlanner planner) {
        this.scope = scope;
        this.ledger = ledger;
        this.provider = provider;
        this.health = health;
        this.batch = batch;
        this.calls = calls;
        this.outcomes = outcomes;
        this.effects = effects;
        this.listener = listener;
        this.statuses = statuses;
        this.pace = pace;
        this.planner = planner;
    }

    /** Call {@code callId} ended (answered, or its batch job ended without it): a probe among them is no longer out. */
    void ended(String callId) {
        probes.remove(callId);
    }

    /**
     * Carries out the planner's steps until one stops dispatch for this tick; a batch route, which no
     * per-minute bucket holds back, collects at most {@value #BATCH_CALLS_PER_TICK} calls a tick, so a
     * tick's work stays bounded whatever the backlog.
     */
    void dispatch(long now) {
        boolean more = true;
        int budget = batch == null ? Integer.MAX_VALUE : BATCH_CALLS_PER_TICK;
        while (more && budget > 0) {
            DispatchStep step = planner.next(view(now), now);
            if (step instanceof DispatchStep.Start) {
                budget--;
            }
            more = carryOut(step, now);
        }
    }

    /** This scope as the planner sees it at {@code now}: a halted online scope sends no ticket ({@link HaltProber} probes it). */
    private DispatchView view(long now) {
        ScopeHealth.Mode mode = batch == null && health.halted() ? ScopeHealth.Mode.BLOCKED : health.mode(now);
        return new DispatchView(new LedgerQueue(ledger), batch == null ? provider : new BatchLimiter(provider, batch),
                new DispatchView.Circuit(mode, !probes.isEmpty()), provider.epochNanos());
    }

    /** Does what {@code step} says; returns whether the loop asks the planner again (a refused admission ends it). */
    private boolean carryOut(DispatchStep step, long now) {
        if (step instanceof DispatchStep.Start start) {
            return start(start, now);
        }
        if (step instanceof DispatchStep.Wait wait) {
            provider.heldBack(wait.charge());
        } else if (step instanceof DispatchStep.Discard discard) {
            ledger.discard(discard.proposal());
        } else if (step instanceof DispatchStep.Split split) {
            ledger.discard(split.proposal());
            ledger.requeue(split.requeued());
        } else if (step instanceof DispatchStep.TooLarge large) {
            ledger.discard(large.proposal());
            effects.apply(outcomes.deadLetter(large.item(), ErrorKind.TOO_LARGE.wire(), 0, "needs about " + large.cost() + " tokens with "
                    + "max_tokens; the " + (large.windowLearned() ? "provider's" : "configured") + " context window is " + large.windowTokens(),
                    now), now);
        }
        return step.continues();
    }

    /**
     * Sends the call {@code start} plans: admitted by the limiter at its charge, recorded, then the
     * circuit's permit, taken last, so that no exit after it has to give it back. A limiter that
     * refuses after all (its burst allowance changed since the view) ends the loop: strict priority.
     */
    private boolean start(DispatchStep.Start start, long now) {
        PendingQueue.Proposal proposal = start.proposal();
        List<WorkItem> items = start.items();
        ChatPrompt prompt = provider.prompt(items); // after the decision: the planner priced the tickets, built no prompt
        String batchId = UUID.randomUUID().toString();
        if (batch != null ? !batch.room(start.charge().tokens()) : !provider.admit(batchId, proposal.priority(), start.charge(), start.after())) {
            return false;
        }
        ledger.dispatched(proposal, InFlightBatch.of(batchId, proposal.priority(), items, now, prompt.promptTokens(),
                prompt.maxTokens(), start.charge().tokens())).forEach((tenant, tokens) -> listener.tenantAdmitted(scope, tenant, tokens));
        if (start.probe()) {
            probes.add(batchId);
        }
        listener.dispatched(scope, proposal.priority(), items.size(), prompt.promptTokens(), start.charge().tokens());
        statuses.inFlight(items, now);
        pace.admitted(now, items.size(), proposal.tokens(), start.charge().tokens());
        health.start(now);
        if (batch != null) {
            batch.send(new ModelRequest(batchId, prompt), items, start.charge().tokens(), now);
        } else {
            calls.send(new ModelRequest(batchId, prompt), items);
        }
        return true;
    }
}

package io.quotaflow.dispatch;

import io.quotaflow.dispatch.call.BatchCaller;
import io.quotaflow.dispatch.call.CallSender;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.ledger.InFlightBatch;
import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.ledger.TicketStatuses;
import io.quotaflow.dispatch.outcome.OutcomeApplier;
import io.quotaflow.dispatch.limit.BatchLimiter;
import io.quotaflow.dispatch.plan.DispatchPlanner;
import io.quotaflow.dispatch.plan.DispatchStep;
import io.quotaflow.dispatch.plan.DispatchView;
import io.quotaflow.dispatch.limit.ProviderModel;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.failure.ErrorKind;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.llm.ChatPrompt;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.quota.Charge;
import io.quotaflow.quota.ContextWindow;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.status.Pace;
import io.quotaflow.ticket.WorkItem;

import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A scope's dispatch loop: reads the scope's {@link DispatchView} (a value: circuit, calls out, the next batch and the
 * limiter's answers on it), asks the {@link DispatchPlanner} for the next step and carries it out (the ledger, the
 * limiter, the statuses, then the call), until a step stops dispatch for this tick. The view is read again for every
 * step, since each call that starts changes the queue and the limiter. The planner decides from the view alone; this
 * loads and prices the tickets it chooses ({@link DispatchStep.Load}), applies its {@link DispatchStep}s and builds the
 * prompt of a call that starts.
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
    /** Whether an interactive ticket was dispatched on arrival since the last tick ({@link #interactiveArrived}). */
    private boolean dispatchedOnArrival;

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

    /** The planner of {@code batch}'s grouping: the lingers read as milliseconds once, so that it holds no time type. */
    static DispatchPlanner planner(BatchSettings batch, long maxBatchBytes) {
        Map<Priority, Long> lingerMs = new EnumMap<>(Priority.class);
        for (Priority p : Priority.values()) {
            lingerMs.put(p, batch.linger(p).toMillis());
        }
        return new DispatchPlanner(batch.maxItems(), lingerMs, maxBatchBytes);
    }

    /** Dispatch of a tick ({@link #dispatch}); an interactive ticket arriving after it may be dispatched on arrival again. */
    void tick(long now) {
        dispatch(now);
        dispatchedOnArrival = false;
    }

    /**
     * An interactive ticket arrived at {@code now}: the first since the last tick is dispatched at once, as a tick would
     * ({@link #dispatch}); later ones wait for the next tick, which batches them.
     */
    void interactiveArrived(long now) {
        if (!dispatchedOnArrival) {
            dispatchedOnArrival = true;
            dispatch(now);
        }
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
        DispatchView.Limiter limiter = batch == null ? provider : new BatchLimiter(provider, batch);
        while (more && budget > 0) {
            long nanos = provider.epochNanos(); // the limiter's time of this step's view, read once
            DispatchStep step = planner.next(view(limiter, nanos, now), now);
            if (step instanceof DispatchStep.Load load) {
                step = planner.priced(load, price(load, limiter, nanos));
            }
            if (step instanceof DispatchStep.Start) {
                budget--;
            }
            more = carryOut(step, now);
        }
    }

    /**
     * This scope as the planner sees it at {@code now}, read first: a halted online scope sends no ticket ({@link HaltProber}
     * probes it); the next batch is proposed within what one call may take, and the limiter answers on it at {@code nanos}.
     */
    private DispatchView view(DispatchView.Limiter limiter, long nanos, long now) {
        ScopeHealth.Mode mode = batch == null && health.halted() ? ScopeHealth.Mode.BLOCKED : health.mode(now);
        DispatchView.Circuit circuit = new DispatchView.Circuit(mode, !probes.isEmpty());
        Optional<DispatchView.Candidate> next = ledger.propose(planner.maxItems(circuit), limiter::promptTokenCap, planner.maxBatchBytes(), now)
                .map(proposal -> {
                    Charge estimate = limiter.estimate(proposal);
                    Charge after = limiter.behind(proposal, ledger.backlog());
                    return new DispatchView.Candidate(proposal, limiter.promptTokenCap(proposal.priority()), estimate, after,
                            limiter.nanosUntilAdmissible(proposal.priority(), estimate, after, nanos));
                });
        return new DispatchView(circuit, ledger.callsInFlight(), limiter.maxInFlight(nanos), limiter.inFlightFixed(), next, ledger.backlogged());
    }

    /** The tickets {@code load} chose, loaded from the ledger and priced, with the limiter's answer on the price at {@code nanos}. */
    private DispatchView.Priced price(DispatchStep.Load load, DispatchView.Limiter limiter, long nanos) {
        List<WorkItem> items = ledger.load(load.proposal());
        ContextWindow window = limiter.window();
        if (items.isEmpty()) {
            return new DispatchView.Priced(items, Charge.NONE, window.tokens(), window.learned(), true, 0);
        }
        Charge charge = limiter.charge(items);
        boolean fits = window.fits(charge.tokens());
        long wait = fits ? limiter.nanosUntilAdmissible(load.proposal().priority(), charge, load.after(), nanos) : 0;
        return new DispatchView.Priced(items, charge, window.tokens(), window.learned(), fits, wait);
    }

    /** Does what {@code step} says; returns whether the loop asks the planner again (a refused admission ends it). */
    private boolean carryOut(DispatchStep step, long now) {
        if (step instanceof DispatchStep.Start start) {
            return start(start, now);
        }
        if (step instanceof DispatchStep.Wait wait) {
            provider.heldBack(wait.charge());
            pace.held(now);
        } else if (step instanceof DispatchStep.Discard discard) {
            ledger.discard(discard.proposal());
        } else if (step instanceof DispatchStep.Split split) {
            ledger.discard(split.proposal());
            ledger.requeue(split.requeued(), false);
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
            pace.held(now);
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

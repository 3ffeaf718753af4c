package io.quotaflow.dispatch.plan;

import io.quotaflow.dispatch.ledger.Backlog;
import io.quotaflow.dispatch.queue.PendingQueue;

import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.quota.Charge;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.ticket.WorkItem;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds {@link DispatchView} values for the planner's tests, without a ledger or a provider model: the
 * next batch a real {@link PendingQueue} of the tickets given proposes, and a limiter and a circuit that
 * say what the test tells them. Unless told otherwise: no
 * call out of four allowed, the circuit closed, room for any charge, a context window of 128 k, a
 * prompt of {@value #FIXED_TOKENS} tokens plus its tickets', {@value #MAX_TOKENS_PER_ITEM} completion
 * tokens a ticket, and a prompt-token cap of 6,000.
 */
public final class ViewBuilder {

    static final int FIXED_TOKENS = 50;
    static final int MAX_TOKENS_PER_ITEM = 20;

    private final PendingQueue queue = new PendingQueue(TenantSettings.NONE, 0);
    private final Map<String, WorkItem> held = new HashMap<>();
    private int callsInFlight;
    private int maxInFlight = 4;
    private boolean inFlightFixed;
    private ScopeHealth.Mode mode = ScopeHealth.Mode.NORMAL;
    private boolean probeOut;
    private long room = Long.MAX_VALUE;
    private long contextTokens = 128_000;
    private boolean contextLearned;
    private int promptTokenCap = 6_000;
    private long offset;
    /** What the planner said waits behind each charge it asked the limiter about, in order. */
    private final List<Charge> asked = new ArrayList<>();

    private ViewBuilder() {
    }

    static ViewBuilder view() {
        return new ViewBuilder();
    }

    /** A ticket of {@code priority} with {@code tokens} prompt tokens, queued at {@code at} (epoch ms). */
    public static WorkItem ticket(String id, Priority priority, int tokens, long at) {
        byte[] bytes = ("{\"id\":\"" + id + "\",\"body\":\"b\"}").getBytes(StandardCharsets.UTF_8);
        return WorkItem.accepted(new WorkItem.Identity(id, priority, "acme"), bytes, new WorkItem.Origin(priority.topic(), 0, at), at, tokens);
    }

    /** Tickets waiting, in this order. */
    ViewBuilder waiting(WorkItem... items) {
        for (WorkItem item : items) {
            held.put(item.id(), item);
            queue.add(item.priority(), new PendingQueue.Ref(item.id(), item.tenant(), item.tokens(), item.enqueuedAt(),
                    item.batchCap(), item.attempt(), item.original().length, false));
        }
        return this;
    }

    /** Ticket {@code id} is still in the queue's index but gone from the store (cancelled, expired). */
    ViewBuilder gone(String id) {
        held.remove(id);
        return this;
    }

    ViewBuilder callsOut(int out, int max) {
        callsInFlight = out;
        maxInFlight = max;
        return this;
    }

    /** The in-flight limit is a configured number ({@code quota.max-in-flight}), not auto. */
    ViewBuilder inFlightFixed() {
        inFlightFixed = true;
        return this;
    }

    ViewBuilder circuit(ScopeHealth.Mode value) {
        mode = value;
        return this;
    }

    ViewBuilder probeOut() {
        probeOut = true;
        return this;
    }

    /** The limiter admits any charge of at most {@code tokens} now, and nothing larger. */
    ViewBuilder room(long tokens) {
        room = tokens;
        return this;
    }

    ViewBuilder contextWindow(long tokens, boolean learned) {
        contextTokens = tokens;
        contextLearned = learned;
        return this;
    }

    ViewBuilder promptTokenCap(int tokens) {
        promptTokenCap = tokens;
        return this;
    }

    /** What waited behind each charge the limiter was asked about (the estimate's, then the price's), in the order asked. */
    List<Charge> askedAfter() {
        return asked;
    }

    /**
     * The view the executor would read for {@code planner} at {@code now}: the next batch the queue
     * proposes within what one call may take, with this builder's limiter's answers on it.
     */
    DispatchView build(DispatchPlanner planner, long now) {
        DispatchView.Circuit circuit = new DispatchView.Circuit(mode, probeOut);
        Optional<DispatchView.Candidate> next = queue.propose(planner.maxItems(circuit), p -> promptTokenCap, planner.maxBatchBytes(), now)
                .map(proposal -> {
                    Charge estimate = estimate(proposal);
                    Charge after = behind(proposal);
                    return new DispatchView.Candidate(proposal, promptTokenCap, estimate, after, waitNanos(estimate, after));
                });
        return new DispatchView(circuit, callsInFlight, maxInFlight, inFlightFixed, next, false);
    }

    /** The tickets of {@code load} still held, priced, as the executor would read them after the planner chose them. */
    DispatchView.Priced priced(DispatchStep.Load load) {
        List<WorkItem> items = new ArrayList<>();
        load.proposal().refs().forEach(r -> Optional.ofNullable(held.get(r.id())).ifPresent(items::add));
        if (items.isEmpty()) {
            return new DispatchView.Priced(items, Charge.NONE, contextTokens, contextLearned, true, 0);
        }
        Charge charge = Charge.call(FIXED_TOKENS + items.stream().mapToInt(WorkItem::tokens).sum(), (long) MAX_TOKENS_PER_ITEM * items.size());
        boolean fits = charge.tokens() <= contextTokens;
        return new DispatchView.Priced(items, charge, contextTokens, contextLearned, fits, fits ? waitNanos(charge, load.after()) : 0);
    }

    /** What {@code planner} does next at {@code now}, the executor's way: on a {@link DispatchStep.Load} it prices the tickets and asks again. */
    DispatchStep plan(DispatchPlanner planner, long now) {
        DispatchStep step = planner.next(build(planner, now), now);
        return step instanceof DispatchStep.Load load ? planner.priced(load, priced(load)) : step;
    }

    /** The queue's next proposal (for checking that planning took nothing from it). */
    Optional<PendingQueue.Proposal> propose(long now) {
        return queue.propose(10, p -> promptTokenCap, Long.MAX_VALUE, now);
    }

    private static Charge estimate(PendingQueue.Proposal proposal) {
        return Charge.call(FIXED_TOKENS + proposal.tokens() - 2L * proposal.refs().size(), (long) MAX_TOKENS_PER_ITEM * proposal.refs().size());
    }

    /** What waits behind {@code proposal}: one call per ticket, the fixed part, its tokens and its completion budget. */
    private Charge behind(PendingQueue.Proposal proposal) {
        Backlog all = new Backlog(queue.size(Priority.STANDARD) + queue.size(Priority.BULK), queue.tokens(Priority.STANDARD) + queue.tokens(Priority.BULK));
        if (proposal.priority() == Priority.INTERACTIVE) {
            return Charge.NONE;
        }
        Backlog backlog = all.after(proposal);
        if (backlog.tickets() == 0) {
            return Charge.NONE;
        }
        return new Charge(backlog.tickets(), (long) (FIXED_TOKENS + MAX_TOKENS_PER_ITEM) * backlog.tickets() + backlog.promptTokens(),
                (long) FIXED_TOKENS * backlog.tickets() + backlog.promptTokens(), (long) MAX_TOKENS_PER_ITEM * backlog.tickets());
    }

    private long waitNanos(Charge charge, Charge after) {
        asked.add(after);
        return charge.tokens() <= room ? 0 : 1_000_000_000L;
    }
}

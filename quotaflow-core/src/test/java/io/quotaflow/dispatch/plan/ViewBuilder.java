package io.quotaflow.dispatch.plan;

import io.quotaflow.dispatch.ledger.Backlog;
import io.quotaflow.dispatch.ledger.PendingQueue;

import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.quota.Charge;
import io.quotaflow.quota.ContextWindow;
import io.quotaflow.records.Priority;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.ticket.WorkItem;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * Builds {@link DispatchView}s for the planner's tests: a real {@link PendingQueue} of the tickets
 * given, and a limiter and a circuit that say what the test tells them. Unless told otherwise: no
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
    /** The limiter's time of the view (epoch ns). */
    private long nanos;
    /** The times the planner asked the limiter at, in order. */
    private final List<Long> askedAt = new ArrayList<>();

    private ViewBuilder() {
    }

    static ViewBuilder view() {
        return new ViewBuilder();
    }

    /** A ticket of {@code priority} with {@code tokens} prompt tokens, queued at {@code at} (epoch ms). */
    public static WorkItem ticket(String id, Priority priority, int tokens, long at) {
        byte[] bytes = ("{\"id\":\"" + id + "\",\"body\":\"b\"}").getBytes(StandardCharsets.UTF_8);
        return new WorkItem(id, priority, "acme", tokens, bytes, new WorkItem.Origin(priority.topic(), 0, at), at,
                0, 0, null, 0, null, 0, 1);
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

    /** What waited behind each call the planner asked the limiter about, in the order asked. */
    List<Charge> askedAfter() {
        return asked;
    }

    /** The view is of the limiter's time {@code epochNanos}. */
    ViewBuilder at(long epochNanos) {
        this.nanos = epochNanos;
        return this;
    }

    /** The times the planner asked the limiter at (its in-flight limit, its admission), in order. */
    List<Long> askedAt() {
        return askedAt;
    }

    DispatchView build() {
        ContextWindow window = new ContextWindow(contextLearned ? 2 * contextTokens : contextTokens);
        if (contextLearned) {
            window.learn("This model's maximum context length is " + contextTokens + " tokens.");
        }
        return new DispatchView(new Queue(), new Limiter(window), new DispatchView.Circuit(mode, probeOut), nanos);
    }

    private final class Queue implements DispatchView.Queue {

        @Override
        public Optional<PendingQueue.Proposal> propose(int maxItems, ToIntFunction<Priority> maxTokens, long maxBytes, long now) {
            return queue.propose(maxItems, maxTokens, maxBytes, now);
        }

        @Override
        public List<WorkItem> load(PendingQueue.Proposal proposal) {
            List<WorkItem> items = new ArrayList<>();
            proposal.refs().forEach(r -> Optional.ofNullable(held.get(r.id())).ifPresent(items::add));
            return items;
        }

        @Override
        public int callsInFlight() {
            return callsInFlight;
        }

        @Override
        public Backlog backlog() {
            return new Backlog(queue.size(Priority.STANDARD) + queue.size(Priority.BULK), queue.tokens(Priority.STANDARD) + queue.tokens(Priority.BULK));
        }
    }

    private final class Limiter implements DispatchView.Limiter {

        private final ContextWindow window;

        Limiter(ContextWindow window) {
            this.window = window;
        }

        @Override
        public int maxInFlight(long nanos) {
            askedAt.add(nanos);
            return maxInFlight;
        }

        @Override
        public boolean inFlightFixed() {
            return inFlightFixed;
        }

        @Override
        public int promptTokenCap(Priority priority) {
            return promptTokenCap;
        }

        @Override
        public Charge estimate(PendingQueue.Proposal proposal) {
            return Charge.call(FIXED_TOKENS + proposal.tokens() - 2L * proposal.refs().size(),
                    (long) MAX_TOKENS_PER_ITEM * proposal.refs().size());
        }

        @Override
        public Charge charge(List<WorkItem> items) {
            int prompt = FIXED_TOKENS + items.stream().mapToInt(WorkItem::tokens).sum();
            int maxTokens = MAX_TOKENS_PER_ITEM * items.size();
            return Charge.call(prompt, maxTokens);
        }

        @Override
        public ContextWindow window() {
            return window;
        }

        /** One call per ticket: the fixed part, its tokens and its completion budget. */
        @Override
        public Charge estimate(Backlog backlog) {
            return new Charge(backlog.tickets(), (long) (FIXED_TOKENS + MAX_TOKENS_PER_ITEM) * backlog.tickets() + backlog.promptTokens(),
                    (long) FIXED_TOKENS * backlog.tickets() + backlog.promptTokens(), (long) MAX_TOKENS_PER_ITEM * backlog.tickets());
        }

        @Override
        public long nanosUntilAdmissible(Priority priority, Charge charge, Charge after, long nanos) {
            asked.add(after);
            askedAt.add(nanos);
            return charge.tokens() <= room ? 0 : 1_000_000_000L;
        }
    }
}

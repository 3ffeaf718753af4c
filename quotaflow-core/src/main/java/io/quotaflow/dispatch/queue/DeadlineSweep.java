package io.quotaflow.dispatch.queue;

import io.quotaflow.deadline.DeadlinePolicy;
import io.quotaflow.records.Priority;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Reads a scope's queue for the {@link DeadlinePolicy}: its first {@link #SCANNED} waiting tickets in
 * serving order, each with what waits ahead of it, as {@code GET /tickets/{id}} counts it. While no
 * waiting ticket carries a deadline and no class has a waiting limit, it reads nothing. A ticket beyond
 * the first {@link #SCANNED} is looked at once it is among them (docs/design.md, "Bounds").
 */
public final class DeadlineSweep {

    /** Tickets looked at per sweep, at most: O(SCANNED log SCANNED) once a second. */
    static final int SCANNED = 10_000;

    private final DeadlinePolicy policy;

    public DeadlineSweep(DeadlinePolicy policy) {
        this.policy = policy;
    }

    /** The verdicts on {@code queue} at {@code now} on a route that is as {@code route} says. */
    public List<DeadlinePolicy.Verdict> decide(PendingQueue queue, DeadlinePolicy.Route route, Predicate<PendingQueue.Ref> canFallBack,
                                        long now) {
        if (queue.size() == 0 || queue.withDeadline() == 0 && !policy.limitsWaiting()) {
            return List.of();
        }
        List<DeadlinePolicy.Waiting> waiting = new ArrayList<>();
        long ahead = 0;
        long tokensAhead = 0;
        for (Map.Entry<Priority, PendingQueue.Ref> e : queue.served(SCANNED)) {
            PendingQueue.Ref ref = e.getValue();
            if (ref.deadline() > 0 || policy.settings().maxWait().containsKey(e.getKey())) {
                waiting.add(new DeadlinePolicy.Waiting(ref.id(), e.getKey(), ref.tokens(), ref.enqueuedAt(), ref.deadline(), ahead,
                        tokensAhead, ref.deadline() > 0 && canFallBack.test(ref)));
            }
            ahead++;
            tokensAhead += ref.tokens();
        }
        return policy.decide(now, waiting, route);
    }
}

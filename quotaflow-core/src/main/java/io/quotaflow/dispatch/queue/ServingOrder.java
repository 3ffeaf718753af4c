package io.quotaflow.dispatch.queue;

import io.quotaflow.records.Priority;
import io.quotaflow.status.QueueView;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Iterator;
import java.util.PriorityQueue;
import java.util.function.ToLongFunction;

/** The order in which the deficit round robin of a {@link PendingQueue} class serves its tenants' tickets. */
final class ServingOrder {

    /** A proposal gives up on a batch after this many tenants it could not take a ticket from (capped, or too large for the room left). */
    static final int MAX_SKIPS = 1_024;

    /** What one call may take: tickets, estimated prompt tokens, ticket bytes. */
    record Room(int maxItems, int maxTokens, long maxBytes) {
    }

    private ServingOrder() {
    }

    /** A candidate tenant of a proposal or of {@link PendingQueue#served}: where it stands if its next ticket is taken. */
    static final class Candidate {
        final TenantQueue tq;
        final Iterator<PendingQueue.Ref> refs;
        final ToLongFunction<PendingQueue.Ref> cost;
        PendingQueue.Ref next;
        long spent;
        int taken;
        double finish;

        Candidate(TenantQueue tq, ToLongFunction<PendingQueue.Ref> cost) {
            this.tq = tq;
            this.cost = cost;
            this.refs = tq.iterator();
            this.next = refs.next();
            this.finish = tq.finish;
        }

        /** Takes {@link #next}: the tenant's service moves on by its cost; false when nothing is left. */
        boolean advance(ClassQueue q) {
            spent += cost.applyAsLong(next);
            taken++;
            if (!refs.hasNext()) {
                return false;
            }
            next = refs.next();
            finish = q.shares.serviceOf(tq.tenant) + (spent + cost.applyAsLong(next)) / q.shares.weight(tq.tenant);
            return true;
        }
    }

    private static final Comparator<Candidate> CANDIDATES = Comparator.<Candidate>comparingDouble(c -> c.finish)
            .thenComparingLong(c -> c.tq.seq).thenComparingLong(c -> c.tq.uid);

    /**
     * The tenants of a class in the order the deficit round robin would serve their next tickets:
     * the class's ordered set, merged with those already taken from (their finish moved on).
     */
    static final class Merge {
        final ClassQueue q;
        final ToLongFunction<PendingQueue.Ref> cost;
        final Iterator<TenantQueue> fresh;
        TenantQueue nextFresh;
        final PriorityQueue<Candidate> moved = new PriorityQueue<>(CANDIDATES);

        Merge(ClassQueue q, ToLongFunction<PendingQueue.Ref> cost) {
            this.q = q;
            this.cost = cost;
            this.fresh = q.ready.iterator();
            this.nextFresh = fresh.hasNext() ? fresh.next() : null;
        }

        Candidate poll() {
            Candidate m = moved.peek();
            if (nextFresh != null && (m == null || freshFirst(m))) {
                Candidate c = new Candidate(nextFresh, cost);
                nextFresh = fresh.hasNext() ? fresh.next() : null;
                return c;
            }
            return moved.poll();
        }

        private boolean freshFirst(Candidate m) {
            int byFinish = Double.compare(nextFresh.finish, m.finish);
            if (byFinish != 0) {
                return byFinish < 0;
            }
            return nextFresh.seq != m.tq.seq ? nextFresh.seq < m.tq.seq : nextFresh.uid < m.tq.uid;
        }

        void putBack(Candidate c) {
            moved.add(c);
        }
    }

    /** {@link PendingQueue#served(int, int)} over {@code classes} ({@code size} tickets in all). */
    static Served served(Map<Priority, ClassQueue> classes, int size, int completionPerTicket,
                                      ToLongFunction<PendingQueue.Ref> cost, int limit, int maxTenants) {
        List<Map.Entry<Priority, PendingQueue.Ref>> out = new ArrayList<>(Math.min(limit, size));
        Map<Priority, QueueView.Rotation> rotations = new EnumMap<>(Priority.class);
        for (Priority p : Priority.values()) {
            ClassQueue q = classes.get(p);
            Merge merge = new Merge(q, cost);
            Map<TenantQueue, Candidate> touched = new HashMap<>();
            boolean exhausted = false;
            while (out.size() < limit) {
                Candidate c = merge.poll();
                if (c == null) {
                    exhausted = true;
                    break;
                }
                touched.put(c.tq, c);
                out.add(Map.entry(p, c.next));
                if (c.advance(q)) {
                    merge.putBack(c);
                }
            }
            if (!exhausted && q.size > 0 && q.byTenant.size() <= maxTenants) {
                rotations.put(p, rotation(q, touched, completionPerTicket));
            }
        }
        return new Served(out, rotations);
    }

    /** Each tenant of {@code q} past its tickets {@code touched} took (none for a tenant not in it). */
    private static QueueView.Rotation rotation(ClassQueue q, Map<TenantQueue, Candidate> touched, int completionPerTicket) {
        List<QueueView.TenantRest> rests = new ArrayList<>(q.byTenant.size());
        for (TenantQueue tq : q.byTenant.values()) {
            Candidate c = touched.get(tq);
            long spent = c == null ? 0 : c.spent;
            int taken = c == null ? 0 : c.taken;
            int tickets = tq.size() - taken;
            if (tickets <= 0) {
                continue;
            }
            long restCost = Math.max(0, tq.cost - spent);
            long from = c == null ? tq.head().enqueuedAt() : c.next.enqueuedAt();
            double weight = q.shares.weight(tq.tenant);
            rests.add(new QueueView.TenantRest(tq.tenant, weight, q.shares.serviceOf(tq.tenant) + spent / weight, tickets,
                    restCost, Math.max(0, restCost - (long) completionPerTicket * tickets), from, Math.max(from, tq.lastAt)));
        }
        return new QueueView.Rotation(rests);
    }

    /**
     * The next batch of class {@code q} at {@code now}, tenants in serving order ({@link PendingQueue#propose}), within
     * {@code room}, each tenant's cap asked through {@code capUse}; nothing is removed.
     */
    static PendingQueue.Proposal propose(Priority priority, ClassQueue q, ToLongFunction<PendingQueue.Ref> costOf, TenantCaps.Use capUse,
                                         Room room, long now) {
        int maxTokens = room.maxTokens();
        List<PendingQueue.Ref> refs = new ArrayList<>();
        Merge merge = new Merge(q, costOf);
        int tokens = 0;
        long bytes = 0;
        int cap = room.maxItems();
        int skips = 0;
        while (refs.size() < cap && skips < MAX_SKIPS) {
            Candidate c = merge.poll();
            if (c == null) {
                break;
            }
            PendingQueue.Ref candidate = c.next;
            long cost = costOf.applyAsLong(candidate);
            int candidateCap = candidate.batchCap() > 0 ? candidate.batchCap() : Integer.MAX_VALUE;
            boolean held = !capUse.allows(candidate, c.tq.tenant, cost, now);
            boolean full = !refs.isEmpty() && (tokens + candidate.tokens() > maxTokens || bytes + candidate.bytes() > room.maxBytes()
                    || refs.size() + 1 > Math.min(cap, candidateCap));
            if (held || full) {
                // this tenant's next ticket may not go now; others may
                skips++;
                continue;
            }
            if (refs.isEmpty()) {
                cap = Math.min(cap, candidateCap);
            }
            refs.add(candidate);
            capUse.take(candidate, c.tq.tenant, cost);
            tokens += candidate.tokens();
            bytes += candidate.bytes();
            if (c.advance(q)) {
                merge.putBack(c);
            }
            if (tokens >= maxTokens) {
                break;
            }
        }
        return new PendingQueue.Proposal(priority, List.copyOf(refs), tokens);
    }
}

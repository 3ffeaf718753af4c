package io.quotaflow.dispatch.queue;

import io.quotaflow.status.QueueView;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.records.Priority;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * In-memory index of the waiting tickets of one scope that are not spilled (docs/design.md,
 * "Bounds"): per priority class, one FIFO per tenant. Within a class the tenants share admitted
 * tokens by weight ({@link TokenShares}: deficit round robin on each ticket's estimated cost, its
 * tokens plus its share of the completion budget), and a tenant whose own cap is spent
 * ({@link TenantCaps}) is skipped until it refills. Holds only ids and sizes; the tickets
 * themselves stay in the store. Rebuilt from the store when a task starts.
 *
 * <p>Every operation is O(1) or O(log tenants) but {@link #waiting}, {@link #matching} and
 * {@link #depthByTenant} (O(tickets held)): the tenants of a class are kept ordered by their next
 * ticket's finish tag ({@link TokenShares#finish}) and by their head's age, and every tenant's depth
 * is kept sorted, so a proposal, the first tickets in dispatch order ({@link #served}), the oldest
 * ticket and the deepest tenants are read from the front of those orders.
 */
public final class PendingQueue {

    /**
     * An index entry; {@code deadline} is epoch ms, 0 for none. {@code capPaid}: the ticket waits again after a call that
     * did not answer it (cut at {@code max_tokens}, bisected, rate limited, an engine full, a halt), and its tenant's cap was
     * charged for it when that call was admitted: a ticket counts once against its tenant's cap ({@link TenantCaps}).
     */
    public record Ref(String id, String tenant, int tokens, long enqueuedAt, int batchCap, int attempt, int bytes, boolean fellBack,
               long deadline, boolean capPaid) {

        /** An entry without a deadline, its tenant's cap still to be charged. */
        public Ref(String id, String tenant, int tokens, long enqueuedAt, int batchCap, int attempt, int bytes, boolean fellBack) {
            this(id, tenant, tokens, enqueuedAt, batchCap, attempt, bytes, fellBack, 0, false);
        }
    }

    /** A batch proposal: refs at the heads of their tenants' queues, in serving order. */
    public record Proposal(Priority priority, List<Ref> refs, int tokens) {

        /**
         * Whether this batch, not yet full, may wait for more tickets: under {@code maxItems} and
         * under 80 % of {@code tokenCap}, its oldest ticket younger than {@code lingerMs}.
         */
        public boolean mayLinger(long lingerMs, int maxItems, int tokenCap, long now) {
            if (lingerMs <= 0 || refs.size() >= maxItems || tokens >= tokenCap * 0.8) {
                return false;
            }
            long oldest = refs.stream().mapToLong(Ref::enqueuedAt).min().orElse(now);
            return now - oldest < lingerMs;
        }
    }

    private final Map<Priority, ClassQueue> classes = new EnumMap<>(Priority.class);
    private final Map<String, TenantQueue> index = new HashMap<>();
    private final TenantDepths depths = new TenantDepths();
    private final TenantCaps caps;
    private final TenantActivity activity = new TenantActivity();
    private final int completionPerTicket;
    private long counter;
    /** Waiting tickets that carry a deadline: while none does, the deadline sweep has nothing to look at. */
    private int withDeadline;

    /** Tenants weighted and capped by {@code tenants}; a ticket costs its tokens plus {@code completionPerTicket}. */
    public PendingQueue(TenantSettings tenants, int completionPerTicket) {
        this.caps = new TenantCaps(tenants);
        this.completionPerTicket = Math.max(0, completionPerTicket);
        for (Priority p : Priority.values()) {
            classes.put(p, new ClassQueue(new TokenShares(tenants::weight)));
        }
    }

    /** A ticket's estimated cost in the tenant shares and caps. */
    public long cost(Ref ref) {
        return (long) ref.tokens() + completionPerTicket;
    }

    public boolean contains(String id) {
        return index.containsKey(id);
    }

    /** The class ticket {@code id} waits in here, if it does. */
    public Optional<Priority> priorityOf(String id) {
        TenantQueue tq = index.get(id);
        return tq == null ? Optional.empty() : Optional.of(tq.priority);
    }

    public void add(Priority priority, Ref ref) {
        if (index.containsKey(ref.id())) {
            return;
        }
        ClassQueue q = classes.get(priority);
        TenantQueue tq = q.byTenant.get(ref.tenant());
        if (tq == null) {
            tq = new TenantQueue(ref.tenant(), priority, ++counter);
            q.byTenant.put(tq.tenant, tq);
            q.shares.join(tq.tenant);
        }
        boolean first = tq.isEmpty();
        // a ticket back from a call goes ahead of the tickets not sent yet: the tenant's head may change
        boolean newHead = !first && ref.capPaid() && !tq.anyReturned();
        if (newHead) {
            detach(q, tq);
        }
        tq.add(canonical(tq, ref));
        tq.cost += cost(ref);
        tq.lastAt = Math.max(tq.lastAt, ref.enqueuedAt());
        index.put(ref.id(), tq);
        withDeadline += ref.deadline() > 0 ? 1 : 0;
        q.size++;
        q.tokens += ref.tokens();
        depths.deepen(tq.tenant, 1);
        if (first || newHead) {
            attach(q, tq);
        }
    }

    /** The ref with the tenant's one shared name (the ticket's own copy of it is not kept). */
    private static Ref canonical(TenantQueue tq, Ref ref) {
        return ref.tenant() == tq.tenant ? ref : new Ref(ref.id(), tq.tenant, ref.tokens(), ref.enqueuedAt(), ref.batchCap(),
                ref.attempt(), ref.bytes(), ref.fellBack(), ref.deadline(), ref.capPaid());
    }

    private void attach(ClassQueue q, TenantQueue tq) {
        Ref head = tq.head();
        tq.finish = q.shares.finish(tq.tenant, cost(head));
        tq.headAt = head.enqueuedAt();
        q.ready.add(tq);
        q.byAge.add(tq);
    }

    private static void detach(ClassQueue q, TenantQueue tq) {
        q.ready.remove(tq);
        q.byAge.remove(tq);
    }

    public int size(Priority priority) {
        return classes.get(priority).size;
    }

    /** Estimated prompt tokens of the tickets waiting in a class. */
    public long tokens(Priority priority) {
        return classes.get(priority).tokens;
    }

    public int size() {
        return index.size();
    }

    /** Waiting tickets that carry a deadline. */
    public int withDeadline() {
        return withDeadline;
    }

    /** The waiting tickets of a class, oldest first (O(tickets): the fallbacks, tests and the benchmark's baseline). */
    public List<Ref> waiting(Priority priority) {
        ClassQueue q = classes.get(priority);
        if (q == null || q.size == 0) {
            return List.of();
        }
        List<Ref> out = new ArrayList<>(q.size);
        q.byTenant.values().forEach(tq -> tq.addTo(out));
        out.sort(Comparator.comparingLong(Ref::enqueuedAt));
        return out;
    }

    /** Epoch ms of the oldest pending ticket of a class (at the head of its tenant's queue). */
    public Optional<Long> oldest(Priority priority) {
        ClassQueue q = classes.get(priority);
        return q.byAge.isEmpty() ? Optional.empty() : Optional.of(q.byAge.first().headAt);
    }

    /**
     * The next batch of the highest non-empty class at {@code now} (epoch ms): up to
     * {@code maxItems} tickets, {@code maxTokens} estimated tokens and {@code maxBytes} of tickets,
     * tenants by their token shares, skipping the tenants whose cap holds them. The first ticket is
     * always taken, even if it alone exceeds the token or byte cap. A class whose every waiting
     * tenant is held yields to the next class. Nothing is removed.
     */
    public Optional<Proposal> propose(int maxItems, ToIntFunction<Priority> maxTokens, long maxBytes, long now) {
        for (Priority p : Priority.values()) {
            ClassQueue q = classes.get(p);
            if (q.size == 0) {
                continue;
            }
            Proposal proposal = ServingOrder.propose(p, q, this::cost, caps.use(), new ServingOrder.Room(maxItems, maxTokens.applyAsInt(p), maxBytes), now);
            if (!proposal.refs().isEmpty()) {
                return Optional.of(proposal);
            }
        }
        return Optional.empty();
    }

    /**
     * The first {@code limit} waiting tickets in the order they are expected to go: highest class
     * first, within a class as the deficit round robin would serve them from its present state
     * (caps and batch sizes aside). O(limit log limit), whatever the number of tickets or tenants.
     */
    public List<Map.Entry<Priority, Ref>> served(int limit) {
        return served(limit, 0).first();
    }

    /**
     * {@link #served(int)}, and for each class not listed to its end, where each of its tenants stands
     * in the rotation past the tickets listed ({@link QueueView.Rotation}); none for a class of more
     * than {@code maxTenants} tenants. O(limit log limit + tenants of those classes).
     */
    public Served served(int limit, int maxTenants) {
        return ServingOrder.served(classes, size(), completionPerTicket, this::cost, limit, maxTenants);
    }

    /**
     * A proposal's call was admitted at {@code now}: its tickets are charged to their tenants'
     * shares and (those not {@link Ref#capPaid} before) caps, then removed as by {@link #remove(Proposal)}. Returns the tokens charged per tenant.
     */
    public Map<String, Long> admit(Proposal proposal, long now) {
        ClassQueue q = classes.get(proposal.priority());
        Map<String, Long> byTenant = new TreeMap<>();
        TenantCaps.Use capUse = caps.use();
        for (Ref ref : proposal.refs()) {
            byTenant.merge(ref.tenant(), cost(ref), Long::sum);
            capUse.take(ref, ref.tenant(), cost(ref));
        }
        capUse.charge(now);
        byTenant.forEach((tenant, cost) -> {
            TenantQueue tq = q.byTenant.get(tenant);
            if (tq != null) {
                // its finish tag moves: out of the orderings while it changes
                detach(q, tq);
                q.shares.charge(tenant, cost);
                tq.seq = ++counter;
                attach(q, tq);
            }
            activity.admitted(tenant, cost, now);
        });
        remove(proposal);
        return byTenant;
    }

    /** Each tenant's share (0..1) of the tokens admitted over the last minute. */
    public Map<String, Double> recentShares(long now) {
        return activity.shares(now);
    }

    /** Tickets waiting per tenant, every class (O(tenants)). */
    public Map<String, Integer> depthByTenant() {
        return depths.byTenant();
    }

    /** The {@code n} tenants with the most tickets waiting (every class), deepest first, ties by name. */
    public List<Map.Entry<String, Integer>> deepest(int n) {
        return depths.deepest(n);
    }

    /** Tickets {@code tenant} has waiting here, every class. */
    public int depth(String tenant) {
        return depths.depth(tenant);
    }

    /** Tenants with tickets waiting here. */
    public int tenantsWaiting() {
        return depths.tenants();
    }

    /** Whether {@code tenant}'s own cap holds its next waiting ticket at {@code now}. */
    public boolean heldByCap(String tenant, long now) {
        if (!caps.capped(tenant)) {
            return false;
        }
        for (ClassQueue q : classes.values()) {
            TenantQueue tq = q.byTenant.get(tenant);
            if (tq != null && !tq.isEmpty()) {
                return !tq.head().capPaid() && caps.holds(tenant, cost(tq.head()), now);
            }
        }
        return false;
    }

    /** The waiting tickets {@code predicate} matches, only read (O(tickets held)). */
    public List<Ref> matching(Predicate<Ref> predicate) {
        List<Ref> matched = new ArrayList<>();
        for (ClassQueue q : classes.values()) {
            for (TenantQueue tq : q.byTenant.values()) {
                for (Iterator<Ref> it = tq.iterator(); it.hasNext();) {
                    Ref r = it.next();
                    if (predicate.test(r)) {
                        matched.add(r);
                    }
                }
            }
        }
        return matched;
    }

    /**
     * Puts {@code ref} where the waiting ticket with its id is (an update keeps its place), or at
     * the end when that ticket waits in another class or for another tenant, or not at all.
     */
    public void replace(Priority priority, Ref ref) {
        TenantQueue tq = index.get(ref.id());
        if (tq != null && tq.priority == priority && tq.tenant.equals(ref.tenant())) {
            ClassQueue q = classes.get(priority);
            boolean head = tq.head().id().equals(ref.id());
            if (head) {
                detach(q, tq);
            }
            Ref old = tq.replace(canonical(tq, ref));
            q.tokens += ref.tokens() - (old == null ? 0 : old.tokens());
            withDeadline += (ref.deadline() > 0 ? 1 : 0) - (old != null && old.deadline() > 0 ? 1 : 0);
            tq.cost += cost(ref) - (old == null ? 0 : cost(old));
            if (head) {
                attach(q, tq);
            }
            return;
        }
        remove(ref.id());
        add(priority, ref);
    }

    /** Removes one ticket, if it is waiting. */
    public Optional<Ref> remove(String id) {
        TenantQueue tq = index.remove(id);
        if (tq == null) {
            return Optional.empty();
        }
        ClassQueue q = classes.get(tq.priority);
        boolean head = tq.head().id().equals(id);
        if (head) {
            detach(q, tq);
        }
        Ref r = tq.remove(id);
        withDeadline -= r.deadline() > 0 ? 1 : 0;
        tq.cost -= cost(r);
        q.size--;
        q.tokens -= r.tokens();
        depths.deepen(tq.tenant, -1);
        if (tq.isEmpty()) {
            q.byTenant.remove(tq.tenant);
            q.shares.leave(tq.tenant);
        } else if (head) {
            attach(q, tq);
        }
        return Optional.of(r);
    }

    /** Removes a proposal's tickets (those still as proposed: an update meanwhile stays). */
    public void remove(Proposal proposal) {
        for (Ref ref : proposal.refs()) {
            TenantQueue tq = index.get(ref.id());
            if (tq != null && tq.priority == proposal.priority() && ref.equals(tq.get(ref.id()))) {
                remove(ref.id());
            }
        }
    }
}

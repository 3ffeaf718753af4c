package io.quotaflow.dispatch;

import io.quotaflow.settings.TenantSettings;
import io.quotaflow.records.Priority;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * In-memory index of the pending store: per priority class, one FIFO per tenant. Within a class the
 * tenants share admitted tokens by weight ({@link TokenShares}: deficit round robin on each
 * ticket's estimated cost, its tokens plus its share of the completion budget), and a tenant whose
 * own cap is spent ({@link TenantCaps}) is skipped until it refills. Holds only ids and sizes; the
 * tickets themselves stay in the store. Rebuilt from the store when a task starts.
 */
final class PendingQueue {

    /** An index entry. */
    record Ref(String id, String tenant, int tokens, long enqueuedAt, int batchCap, int attempt, int bytes, boolean fellBack) {
    }

    /** A batch proposal: refs at the heads of their tenants' queues, in serving order. */
    record Proposal(Priority priority, List<Ref> refs, int tokens) {

        /**
         * Whether this batch, not yet full, may wait for more tickets: under {@code maxItems} and
         * under 80 % of {@code tokenCap}, its oldest ticket younger than {@code lingerMs}.
         */
        boolean mayLinger(long lingerMs, int maxItems, int tokenCap, long now) {
            if (lingerMs <= 0 || refs.size() >= maxItems || tokens >= tokenCap * 0.8) {
                return false;
            }
            long oldest = refs.stream().mapToLong(Ref::enqueuedAt).min().orElse(now);
            return now - oldest < lingerMs;
        }
    }

    private static final class ClassQueue {
        // insertion-ordered: the rotation order of tenants
        final LinkedHashMap<String, ArrayDeque<Ref>> byTenant = new LinkedHashMap<>();
        final List<String> rotation = new ArrayList<>();
        final TokenShares shares;
        int next;
        int size;

        ClassQueue(TokenShares shares) {
            this.shares = shares;
        }
    }

    private final Map<Priority, ClassQueue> classes = new EnumMap<>(Priority.class);
    private final Map<String, Priority> index = new HashMap<>();
    private final TenantCaps caps;
    private final TenantActivity activity = new TenantActivity();
    private final int completionPerTicket;

    /** Tenants weighted and capped by {@code tenants}; a ticket costs its tokens plus {@code completionPerTicket}. */
    PendingQueue(TenantSettings tenants, int completionPerTicket) {
        this.caps = new TenantCaps(tenants);
        this.completionPerTicket = Math.max(0, completionPerTicket);
        for (Priority p : Priority.values()) {
            classes.put(p, new ClassQueue(new TokenShares(tenants::weight)));
        }
    }

    /** A ticket's estimated cost in the tenant shares and caps. */
    long cost(Ref ref) {
        return (long) ref.tokens() + completionPerTicket;
    }

    boolean contains(String id) {
        return index.containsKey(id);
    }

    void add(Priority priority, Ref ref) {
        if (index.putIfAbsent(ref.id(), priority) != null) {
            return;
        }
        ClassQueue q = classes.get(priority);
        ArrayDeque<Ref> tenantQueue = q.byTenant.get(ref.tenant());
        if (tenantQueue == null) {
            tenantQueue = new ArrayDeque<>();
            q.byTenant.put(ref.tenant(), tenantQueue);
            q.rotation.add(ref.tenant());
            q.shares.join(ref.tenant());
        }
        tenantQueue.addLast(ref);
        q.size++;
    }

    int size(Priority priority) {
        return classes.get(priority).size;
    }

    int size() {
        return index.size();
    }

    /** The waiting tickets of a class, oldest first (about the order they will be served in). */
    List<Ref> waiting(Priority priority) {
        ClassQueue q = classes.get(priority);
        if (q == null || q.size == 0) {
            return List.of();
        }
        List<Ref> out = new ArrayList<>(q.size);
        q.byTenant.values().forEach(out::addAll);
        out.sort(java.util.Comparator.comparingLong(Ref::enqueuedAt));
        return out;
    }

    /** Epoch ms of the oldest pending ticket of a class. */
    Optional<Long> oldest(Priority priority) {
        long min = Long.MAX_VALUE;
        for (ArrayDeque<Ref> dq : classes.get(priority).byTenant.values()) {
            Ref head = dq.peekFirst();
            if (head != null) {
                min = Math.min(min, head.enqueuedAt());
            }
        }
        return min == Long.MAX_VALUE ? Optional.empty() : Optional.of(min);
    }

    /**
     * The next batch of the highest non-empty class at {@code now} (epoch ms): up to
     * {@code maxItems} tickets, {@code maxTokens} estimated tokens and {@code maxBytes} of tickets,
     * tenants by their token shares, skipping the tenants whose cap holds them. The first ticket is
     * always taken, even if it alone exceeds the token or byte cap. A class whose every waiting
     * tenant is held yields to the next class. Nothing is removed.
     */
    Optional<Proposal> propose(int maxItems, java.util.function.ToIntFunction<Priority> maxTokens, long maxBytes, long now) {
        for (Priority p : Priority.values()) {
            ClassQueue q = classes.get(p);
            if (q.size == 0) {
                continue;
            }
            Proposal proposal = propose(p, q, maxItems, maxTokens.applyAsInt(p), maxBytes, now);
            if (!proposal.refs().isEmpty()) {
                return Optional.of(proposal);
            }
        }
        return Optional.empty();
    }

    private Proposal propose(Priority priority, ClassQueue q, int maxItems, int maxTokens, long maxBytes, long now) {
        List<Ref> refs = new ArrayList<>();
        Map<String, Integer> taken = new HashMap<>();
        Map<String, Long> spent = new HashMap<>();
        TokenShares shares = q.shares.copy();
        List<String> open = new ArrayList<>(q.rotation.size());
        for (int i = 0; i < q.rotation.size(); i++) {
            open.add(q.rotation.get((q.next + i) % q.rotation.size()));
        }
        int tokens = 0;
        long bytes = 0;
        int cap = maxItems;
        while (refs.size() < cap && !open.isEmpty()) {
            String tenant = shares.next(open, t -> cost(nth(q.byTenant.get(t), taken.getOrDefault(t, 0))));
            ArrayDeque<Ref> dq = q.byTenant.get(tenant);
            int already = taken.getOrDefault(tenant, 0);
            Ref candidate = nth(dq, already);
            long cost = cost(candidate);
            int candidateCap = candidate.batchCap() > 0 ? candidate.batchCap() : Integer.MAX_VALUE;
            boolean held = !caps.allows(tenant, spent.getOrDefault(tenant, 0L) + cost, already + 1, now);
            boolean full = !refs.isEmpty() && (tokens + candidate.tokens() > maxTokens || bytes + candidate.bytes() > maxBytes
                    || refs.size() + 1 > Math.min(cap, candidateCap));
            if (held || full) {
                // this tenant's next ticket may not go now; others may
                open.remove(tenant);
                continue;
            }
            if (refs.isEmpty()) {
                cap = Math.min(cap, candidateCap);
            }
            refs.add(candidate);
            tokens += candidate.tokens();
            bytes += candidate.bytes();
            shares.charge(tenant, cost);
            spent.merge(tenant, cost, Long::sum);
            taken.put(tenant, already + 1);
            if (dq.size() <= already + 1) {
                open.remove(tenant);
            }
            if (tokens >= maxTokens) {
                break;
            }
        }
        return new Proposal(priority, List.copyOf(refs), tokens);
    }

    /**
     * A proposal's call was admitted at {@code now}: its tickets are charged to their tenants'
     * shares and caps, then removed as by {@link #remove(Proposal)}. Returns the tokens charged per tenant.
     */
    Map<String, Long> admit(Proposal proposal, long now) {
        ClassQueue q = classes.get(proposal.priority());
        Map<String, Long> byTenant = new TreeMap<>();
        Map<String, Integer> tickets = new HashMap<>();
        for (Ref ref : proposal.refs()) {
            long cost = cost(ref);
            q.shares.charge(ref.tenant(), cost);
            byTenant.merge(ref.tenant(), cost, Long::sum);
            tickets.merge(ref.tenant(), 1, Integer::sum);
        }
        byTenant.forEach((tenant, cost) -> {
            caps.charge(tenant, cost, tickets.get(tenant), now);
            activity.admitted(tenant, cost, now);
        });
        remove(proposal);
        return byTenant;
    }

    /** Each tenant's share (0..1) of the tokens admitted over the last minute. */
    Map<String, Double> recentShares(long now) {
        return activity.shares(now);
    }

    /** Tickets waiting per tenant, every class. */
    Map<String, Integer> depthByTenant() {
        Map<String, Integer> out = new HashMap<>();
        for (ClassQueue q : classes.values()) {
            q.byTenant.forEach((t, dq) -> out.merge(t, dq.size(), Integer::sum));
        }
        return out;
    }

    /** Whether {@code tenant}'s own cap holds its next waiting ticket at {@code now}. */
    boolean heldByCap(String tenant, long now) {
        if (!caps.capped(tenant)) {
            return false;
        }
        for (ClassQueue q : classes.values()) {
            ArrayDeque<Ref> dq = q.byTenant.get(tenant);
            if (dq != null && !dq.isEmpty()) {
                return caps.holds(tenant, cost(dq.peekFirst()), now);
            }
        }
        return false;
    }

    private static Ref nth(ArrayDeque<Ref> dq, int n) {
        Iterator<Ref> it = dq.iterator();
        Ref r = it.next();
        for (int i = 0; i < n; i++) {
            r = it.next();
        }
        return r;
    }

    /** Removes and returns every ticket matching {@code predicate}, in any class. */
    List<Ref> removeIf(java.util.function.Predicate<Ref> predicate) {
        List<Ref> removed = new ArrayList<>();
        for (Map.Entry<Priority, ClassQueue> e : classes.entrySet()) {
            ClassQueue q = e.getValue();
            List<Ref> matched = new ArrayList<>();
            for (ArrayDeque<Ref> dq : q.byTenant.values()) {
                for (Ref r : dq) {
                    if (predicate.test(r)) {
                        matched.add(r);
                    }
                }
            }
            if (!matched.isEmpty()) {
                remove(new Proposal(e.getKey(), matched, 0));
                removed.addAll(matched);
            }
        }
        return removed;
    }

    /**
     * Puts {@code ref} where the waiting ticket with its id is (an update keeps its place), or at
     * the end when that ticket waits in another class or for another tenant, or not at all.
     */
    void replace(Priority priority, Ref ref) {
        if (priority == index.get(ref.id())) {
            ArrayDeque<Ref> dq = classes.get(priority).byTenant.get(ref.tenant());
            if (dq != null) {
                java.util.List<Ref> refs = new ArrayList<>(dq);
                for (int i = 0; i < refs.size(); i++) {
                    if (refs.get(i).id().equals(ref.id())) {
                        refs.set(i, ref);
                        dq.clear();
                        dq.addAll(refs);
                        return;
                    }
                }
            }
        }
        remove(ref.id());
        add(priority, ref);
    }

    /** Removes one ticket, if it is waiting; the tenant rotation stays where it is. */
    Optional<Ref> remove(String id) {
        Priority priority = index.get(id);
        if (priority == null) {
            return Optional.empty();
        }
        ClassQueue q = classes.get(priority);
        for (Map.Entry<String, ArrayDeque<Ref>> e : q.byTenant.entrySet()) {
            for (Iterator<Ref> it = e.getValue().iterator(); it.hasNext(); ) {
                Ref r = it.next();
                if (r.id().equals(id)) {
                    it.remove();
                    q.size--;
                    index.remove(id);
                    if (e.getValue().isEmpty()) {
                        int at = q.rotation.indexOf(e.getKey());
                        q.byTenant.remove(e.getKey());
                        q.rotation.remove(at);
                        q.shares.leave(e.getKey());
                        if (at < q.next) {
                            q.next--;
                        }
                        q.next = q.rotation.isEmpty() ? 0 : q.next % q.rotation.size();
                    }
                    return Optional.of(r);
                }
            }
        }
        return Optional.empty();
    }

    /** Removes a proposal's tickets and moves the tenant rotation on. */
    void remove(Proposal proposal) {
        ClassQueue q = classes.get(proposal.priority());
        for (Ref ref : proposal.refs()) {
            ArrayDeque<Ref> dq = q.byTenant.get(ref.tenant());
            if (dq != null && dq.remove(ref)) {
                q.size--;
                index.remove(ref.id());
            }
        }
        // drop empty tenants from the rotation
        for (Iterator<Map.Entry<String, ArrayDeque<Ref>>> it = q.byTenant.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, ArrayDeque<Ref>> e = it.next();
            if (e.getValue().isEmpty()) {
                it.remove();
                q.rotation.remove(e.getKey());
                q.shares.leave(e.getKey());
            }
        }
        q.next = q.rotation.isEmpty() ? 0 : (q.next + 1) % q.rotation.size();
    }
}

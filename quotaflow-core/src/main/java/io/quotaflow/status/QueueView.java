package io.quotaflow.status;

import io.quotaflow.records.Priority;

import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What one scope's queue looked like at {@code at}, published by its dispatcher for readers on
 * other threads (immutable): the first waiting tickets in dispatch order (highest priority first,
 * then the order each class serves them in), how many wait in each class in all (those listed, those
 * beyond them and those spilled to disk), and the scope's pace. A ticket listed has its exact
 * {@link Place}; one beyond the list is only known to wait behind its class's {@link #tail}.
 */
public final class QueueView {

    /** A waiting ticket. */
    public record Waiting(String id, Priority priority, int tokens) {
    }

    /** Where a waiting ticket stands: {@code position} tickets of {@code tokensAhead} tokens go before it. */
    public record Place(QueueView view, Priority priority, int position, long tokensAhead) {
    }

    /**
     * A retry held until {@code dueAt} (epoch ms): it then rejoins the queue and takes its tenant's
     * turn; one due before a waiting ticket of its class or below would go is counted ahead of it (at
     * most one tenant's turn too early).
     */
    public record Retry(long dueAt, Priority priority, int tokens) {
    }

    /**
     * One tenant of a class past the tickets a view lists: from normalized service {@code from}
     * (its service with what the list takes of it, over its weight), {@code tickets} more wait, costing
     * {@code cost} in the rotation ({@code tokens} of ours), which arrived from {@code fromAt} to
     * {@code lastAt} (epoch ms).
     */
    public record TenantRest(String tenant, double weight, double from, int tickets, long cost, long tokens, long fromAt, long lastAt) {
    }

    /**
     * Where a class's tenants stand in the deficit round robin past the tickets listed: each one's
     * turn for a ticket is its service once that ticket is served, and a ticket goes after every other
     * tenant's tickets of a lower turn (docs/design.md, "Queue discipline and ticket status").
     */
    public record Rotation(List<TenantRest> tenants) {

        public Rotation {
            tenants = List.copyOf(tenants);
        }

        /**
         * Tickets and tokens of the class's unlisted tickets that go before a ticket of {@code tenant}
         * that arrived at {@code enqueuedAt}: its place in its tenant's queue from its arrival between
         * the tenant's first unlisted ticket and its last (the tenant's queue is first in, first out),
         * then every other tenant's tickets up to the same turn. Empty when the tenant is not in the
         * rotation, or the ticket arrived after its last ticket here (spilled to disk: it waits behind).
         */
        public Optional<Tail> ahead(String tenant, long enqueuedAt) {
            TenantRest own = null;
            for (TenantRest t : tenants) {
                if (t.tenant().equals(tenant)) {
                    own = t;
                    break;
                }
            }
            if (own == null || enqueuedAt > own.lastAt()) {
                return Optional.empty();
            }
            long span = own.lastAt() - own.fromAt();
            double f = span <= 0 ? 0.5 : Math.min(1, Math.max(0, (enqueuedAt - own.fromAt()) / (double) span));
            // the tickets of its own tenant before it, and its turn once it is served
            double before = f * (own.tickets() - 1);
            double costEach = own.cost() / (double) own.tickets();
            double turn = own.from() + (before + 1) * costEach / own.weight();
            double tickets = before;
            double tokens = before * own.tokens() / own.tickets();
            for (TenantRest t : tenants) {
                if (t == own || t.cost() <= 0) {
                    continue;
                }
                double cost = Math.min(t.cost(), Math.max(0, (turn - t.from()) * t.weight()));
                tickets += cost * t.tickets() / t.cost();
                tokens += cost * t.tokens() / t.cost();
            }
            return Optional.of(new Tail((int) Math.round(tickets), Math.round(tokens)));
        }
    }

    /** Everything waiting in one class: {@code tickets} of {@code tokens}. */
    public record Count(int tickets, long tokens) {
    }

    /** What waits at one priority and above: {@code tickets} of {@code tokens}. */
    public record Tail(int tickets, long tokens) {
    }

    private final String scope;
    private final Set<String> routes;
    private final long at;
    private final Eta.Rates rates;
    private final Map<String, Integer> index = new HashMap<>();
    private final Priority[] priorities;
    private final long[] tokensBefore;
    private final Map<Priority, Tail> tails = new EnumMap<>(Priority.class);
    private final int size;
    private final List<Retry> retries;
    private final Map<Priority, Rotation> rotations;
    /** Per class: what waits in every class above it plus what the list holds of it. */
    private final Map<Priority, Tail> listedUpTo = new EnumMap<>(Priority.class);

    /** {@code waiting}, every ticket waiting, must be in dispatch order. */
    public QueueView(String scope, Collection<String> routes, long at, Eta.Rates rates, List<Waiting> waiting) {
        this(scope, routes, at, rates, waiting, null);
    }

    /**
     * {@code first}, the first tickets waiting, must be in dispatch order; {@code classes} counts
     * everything waiting per class (null: {@code first} is all).
     */
    public QueueView(String scope, Collection<String> routes, long at, Eta.Rates rates, List<Waiting> first, Map<Priority, Count> classes) {
        this(scope, routes, at, rates, first, classes, List.of());
    }

    /** As above, with the retries held for later, {@code retries}, by due time. */
    public QueueView(String scope, Collection<String> routes, long at, Eta.Rates rates, List<Waiting> first, Map<Priority, Count> classes,
                     List<Retry> retries) {
        this(scope, routes, at, rates, first, classes, retries, Map.of());
    }

    /** As above, with where the tenants of each class not listed to its end stand past the list, {@code rotations}. */
    public QueueView(String scope, Collection<String> routes, long at, Eta.Rates rates, List<Waiting> first, Map<Priority, Count> classes,
                     List<Retry> retries, Map<Priority, Rotation> rotations) {
        List<Waiting> waiting = first;
        this.rotations = Map.copyOf(rotations);
        this.retries = retries.stream().sorted(java.util.Comparator.comparingLong(Retry::dueAt)).toList();
        this.scope = Objects.requireNonNull(scope, "scope");
        this.routes = Set.copyOf(routes);
        this.at = at;
        this.rates = Objects.requireNonNull(rates, "rates");
        this.priorities = new Priority[waiting.size()];
        this.tokensBefore = new long[waiting.size()];
        long tokens = 0;
        for (int i = 0; i < waiting.size(); i++) {
            Waiting w = waiting.get(i);
            index.putIfAbsent(w.id(), i);
            priorities[i] = w.priority();
            tokensBefore[i] = tokens;
            tokens += w.tokens();
            tails.put(w.priority(), new Tail(i + 1, tokens));
        }
        Tail above = new Tail(0, 0);
        if (classes == null) {
            for (Priority p : Priority.values()) {
                above = tails.getOrDefault(p, above);
                tails.put(p, above);
            }
            this.size = waiting.size();
        } else {
            for (Priority p : Priority.values()) {
                Count c = classes.getOrDefault(p, new Count(0, 0));
                above = new Tail(above.tickets() + c.tickets(), above.tokens() + c.tokens());
                tails.put(p, above);
            }
            this.size = Math.max(waiting.size(), above.tickets());
        }
        Map<Priority, long[]> listedOf = new EnumMap<>(Priority.class);
        for (Waiting w : waiting) {
            long[] n = listedOf.computeIfAbsent(w.priority(), k -> new long[2]);
            n[0]++;
            n[1] += w.tokens();
        }
        Tail higher = new Tail(0, 0);
        for (Priority p : Priority.values()) {
            long[] n = listedOf.getOrDefault(p, new long[2]);
            listedUpTo.put(p, new Tail(higher.tickets() + (int) n[0], higher.tokens() + n[1]));
            higher = tails.get(p);
        }
    }

    public String scope() {
        return scope;
    }

    public Set<String> routes() {
        return routes;
    }

    public long at() {
        return at;
    }

    public Eta.Rates rates() {
        return rates;
    }

    /** Tickets waiting in all. */
    public int size() {
        return size;
    }

    /** Tickets listed one by one (the first in dispatch order); the rest are counted only. */
    public int listed() {
        return priorities.length;
    }

    /** Where ticket {@code id} waits, if it is listed. */
    public Optional<Place> place(String id) {
        Integer i = index.get(id);
        return i == null ? Optional.empty() : Optional.of(new Place(this, priorities[i], i, tokensBefore[i]));
    }

    /** The retries held for later that go before a waiting ticket of {@code priority} (its class and above), by due time. */
    public List<Retry> retriesAhead(Priority priority) {
        return retries.stream().filter(r -> r.priority().compareTo(priority) <= 0).toList();
    }

    /**
     * Where a waiting ticket not listed stands, from the rotation of its class ({@link Rotation#ahead}):
     * what waits in the classes above, what the list holds of its class, and what of the rest of its
     * class goes before it. Empty when the view has no rotation for it.
     */
    public Optional<Tail> unlisted(Priority priority, String tenant, long enqueuedAt) {
        Rotation r = rotations.get(priority);
        if (r == null || tenant == null) {
            return Optional.empty();
        }
        Tail base = listedUpTo.get(priority);
        return r.ahead(tenant, enqueuedAt).map(a -> new Tail(base.tickets() + a.tickets(), base.tokens() + a.tokens()));
    }

    /** What waits at {@code priority} and above: a ticket of that class arriving now waits behind it. */
    public Tail tail(Priority priority) {
        return tails.get(priority);
    }

    /** When what waits at {@code priority} and above now is expected to be done. */
    public Eta.Estimate tailEta(Priority priority, long now) {
        Tail t = tail(priority);
        return Eta.of(now, t.tokens(), Math.max(0, t.tickets() - 1), rates, 0, retriesAhead(priority));
    }
}

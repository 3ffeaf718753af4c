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
     * A retry held until {@code dueAt} (epoch ms): it then rejoins the queue at its tenant's head, so
     * it goes before the waiting tickets of its class and below.
     */
    public record Retry(long dueAt, Priority priority, int tokens) {
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
        List<Waiting> waiting = first;
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

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
 * other threads (immutable): the waiting tickets in dispatch order (highest priority first, then
 * the order each class serves them in) and the scope's pace.
 */
public final class QueueView {

    /** A waiting ticket. */
    public record Waiting(String id, Priority priority, int tokens) {
    }

    /** Where a waiting ticket stands: {@code position} tickets of {@code tokensAhead} tokens go before it. */
    public record Place(QueueView view, Priority priority, int position, long tokensAhead) {
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

    /** {@code waiting} must be in dispatch order. */
    public QueueView(String scope, Collection<String> routes, long at, Eta.Rates rates, List<Waiting> waiting) {
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
        for (Priority p : Priority.values()) {
            above = tails.getOrDefault(p, above);
            tails.put(p, above);
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

    public int size() {
        return priorities.length;
    }

    /** Where ticket {@code id} waits, if it does. */
    public Optional<Place> place(String id) {
        Integer i = index.get(id);
        return i == null ? Optional.empty() : Optional.of(new Place(this, priorities[i], i, tokensBefore[i]));
    }

    /** What waits at {@code priority} and above: a ticket of that class arriving now waits behind it. */
    public Tail tail(Priority priority) {
        return tails.get(priority);
    }

    /** When what waits at {@code priority} and above now is expected to be done. */
    public Eta.Estimate tailEta(Priority priority, long now) {
        Tail t = tail(priority);
        return Eta.of(now, t.tokens(), Math.max(0, t.tickets() - 1), rates, 0);
    }
}

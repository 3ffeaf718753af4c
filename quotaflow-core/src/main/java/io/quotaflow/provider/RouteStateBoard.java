package io.quotaflow.provider;

import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each route's {@link RouteState} on this instance: set by the provider check at start and by every
 * real call's answer, read by {@code /status} and {@code GET /tickets/{id}}. A change is logged once,
 * naming the route and the cause (WARN when the route cannot serve, INFO when it can again).
 * Thread-safe: written from the HTTP client's threads, never from a stream thread's wait.
 */
public final class RouteStateBoard {

    private static final Logger LOG = LoggerFactory.getLogger(RouteStateBoard.class);

    /** A route's state and since when (epoch ms) it holds. */
    public record Entry(RouteState state, long since) {

        public String sinceIso() {
            return Instant.ofEpochMilli(since).toString();
        }
    }

    private final Map<String, Entry> states = new ConcurrentHashMap<>();
    private final Time time;

    /** Every route of {@code routes} unchecked, on the real clock. */
    public RouteStateBoard(Collection<String> routes) {
        this(routes, Time.SYSTEM);
    }

    public RouteStateBoard(Collection<String> routes, Time time) {
        this.time = time;
        long now = time.milliseconds();
        routes.forEach(r -> states.put(r, new Entry(RouteState.UNCHECKED, now)));
    }

    /** A board that knows no route: every route reads {@link RouteState#UNCHECKED}. */
    public static RouteStateBoard none() {
        return new RouteStateBoard(java.util.List.of());
    }

    /**
     * {@code route} is in {@code state} now, as {@code why} shows (a phrase naming the source and the
     * details, for the log line; no secret); logs when the state changed.
     */
    public void set(String route, RouteState state, String why) {
        long now = time.milliseconds();
        Entry[] previous = new Entry[1];
        states.compute(route, (name, old) -> {
            previous[0] = old;
            return old != null && old.state().equals(state) ? old : new Entry(state, now);
        });
        Entry before = previous[0];
        if (before != null && before.state().equals(state)) {
            return;
        }
        if (!state.canServe()) {
            LOG.warn("route {}: {} ({}); /status shows it, its tickets get no ETA until it answers", route, state, why);
        } else if (before != null && !before.state().canServe()) {
            LOG.info("route {}: {} again after {} s ({})", route, state, Math.max(0, (now - before.since()) / 1000), why);
        } else if (state.kind() == RouteState.Kind.OK && before != null && before.state().kind() == RouteState.Kind.UNCHECKED) {
            LOG.info("route {}: ok ({})", route, why);
        }
    }

    /** What a real call's answer on {@code routes} says, if it says anything ({@link RouteState#ofCall}). */
    public void heard(Collection<String> routes, Optional<RouteState> state, String why) {
        state.ifPresent(s -> routes.forEach(r -> set(r, s, why)));
    }

    /** The state of {@code route}; {@link RouteState#UNCHECKED} for a route the board does not know. */
    public RouteState state(String route) {
        Entry e = states.get(route);
        return e == null ? RouteState.UNCHECKED : e.state();
    }

    /** Every route's entry, by name. */
    public Map<String, Entry> entries() {
        return new TreeMap<>(states);
    }

    /** Whether every route can serve. */
    public boolean allServe() {
        return states.values().stream().allMatch(e -> e.state().canServe());
    }
}

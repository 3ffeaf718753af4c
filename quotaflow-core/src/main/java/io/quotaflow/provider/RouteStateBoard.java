package io.quotaflow.provider;

import io.quotaflow.settings.RouteSettings;
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
 * The one record of each route's health on this instance, in two parts that hold different things:
 * <ul>
 *   <li><b>observed</b> ({@link #set}, {@link #heard}, {@link #state}, {@link #entries}, {@link #allServe}):
 *   each route's {@link RouteState} as the provider check at start and every real call's answer show it,
 *   read by {@code /status}, the ready probe's {@code routeStates} and {@code GET /tickets/{id}}. A change
 *   is logged once, naming the route and the cause (WARN when the route cannot serve, INFO when it can
 *   again). Written from the HTTP client's threads, never from a stream thread's wait.</li>
 *   <li><b>published</b> ({@link #publish}, {@link #usable}): whether the dispatcher task that owns a
 *   route says it can take tickets now (not halted, circuit closed, not out for the day), published once
 *   a second by that task and read by every task's fallback choice. A route owned by another instance is
 *   unknown here and taken as usable (its owner moves what it cannot serve, once).</li>
 * </ul>
 * The parts do not read each other: a fallback is chosen on what owners publish, not on what calls saw.
 * Thread-safe; bounded by the configured routes.
 */
public final class RouteStateBoard {

    private static final Logger LOG = LoggerFactory.getLogger(RouteStateBoard.class);

    /** A route's state and since when (epoch ms) it holds. */
    public record Entry(RouteState state, long since) {

        public String sinceIso() {
            return Instant.ofEpochMilli(since).toString();
        }
    }

    /** The observed part: each route's state from the start check and the calls' answers. */
    private final Map<String, Entry> states = new ConcurrentHashMap<>();
    /** The published part: whether each route's owning dispatcher says it can take tickets. */
    private final Map<String, Boolean> published = new ConcurrentHashMap<>();
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

    /** Published part: the owner of {@code routes} says whether they can take tickets now. */
    public void publish(Collection<RouteSettings> routes, boolean canServe) {
        routes.forEach(r -> published.put(r.name(), canServe));
    }

    /** Published part: whether {@code route} may take tickets, as far as this instance knows (true when no owner here said). */
    public boolean usable(String route) {
        return published.getOrDefault(route, Boolean.TRUE);
    }
}

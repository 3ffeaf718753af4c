package io.quotaflow.routing;


import io.quotaflow.settings.RouteSettings;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this instance knows of each route's health, for choosing a fallback: the dispatcher that
 * owns a route publishes whether it can serve; a route owned by another instance is unknown here
 * and taken as usable (its owner moves what it cannot serve, once).
 */
public final class RouteStates {

    private final Map<String, Boolean> usable = new ConcurrentHashMap<>();

    /** The owner of {@code routes} says whether they can take tickets now. */
    public void publish(Collection<RouteSettings> routes, boolean canServe) {
        routes.forEach(r -> usable.put(r.name(), canServe));
    }

    /** Whether {@code route} may take tickets, as far as this instance knows. */
    public boolean usable(String route) {
        return usable.getOrDefault(route, Boolean.TRUE);
    }
}

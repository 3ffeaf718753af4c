package io.quotaflow.status;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live queues of the scopes this instance owns, as their dispatchers last published them (a
 * JVM-local registry, one per instance, like the listener's snapshots). Thread-safe.
 */
public final class TicketDirectory {

    private final Map<String, QueueView> views = new ConcurrentHashMap<>();

    public void publish(QueueView view) {
        views.put(view.scope(), view);
    }

    /** The scope moved to another instance (or its task closed). */
    public void release(String scope) {
        views.remove(scope);
    }

    public List<QueueView> views() {
        return List.copyOf(views.values());
    }

    /** Where ticket {@code id} waits on this instance, if it does. */
    public Optional<QueueView.Place> place(String id) {
        for (QueueView v : views.values()) {
            Optional<QueueView.Place> place = v.place(id);
            if (place.isPresent()) {
                return place;
            }
        }
        return Optional.empty();
    }

    /** The view of the scope serving route {@code route}, if this instance owns it. */
    public Optional<QueueView> ofRoute(String route) {
        return views.values().stream().filter(v -> v.routes().contains(route)).findFirst();
    }
}

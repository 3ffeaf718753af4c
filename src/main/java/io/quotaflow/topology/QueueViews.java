package io.quotaflow.topology;

import io.quotaflow.config.DispatcherSettings;
import io.quotaflow.config.RouteSettings;
import io.quotaflow.status.Eta;
import io.quotaflow.status.Pace;
import io.quotaflow.status.QueueView;
import io.quotaflow.ticket.Priority;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a scope's queue into a {@link QueueView} for {@code GET /tickets/{id}} and {@code /status}:
 * the waiting tickets in dispatch order (highest class first; within a class, {@link PendingQueue#waiting}'s
 * arrival order with the tenants taking turns by tokens, {@link #served}) and the scope's measured
 * pace, or its configured limits while nothing was measured.
 */
final class QueueViews {

    private QueueViews() {
    }

    /**
     * A class's waiting tickets in the order its tenants share it: each ticket's turn is its
     * tenant's tokens up to and including it (the tenants take turns, so a ticket comes after the
     * tickets of every tenant that has fewer tokens before it), ties by arrival.
     */
    static List<PendingQueue.Ref> served(List<PendingQueue.Ref> byArrival) {
        Map<String, Long> spent = new HashMap<>();
        List<Map.Entry<Long, PendingQueue.Ref>> turns = new ArrayList<>(byArrival.size());
        for (PendingQueue.Ref ref : byArrival) {
            long turn = spent.merge(ref.tenant(), (long) Math.max(1, ref.tokens()), Long::sum);
            turns.add(Map.entry(turn, ref));
        }
        // a stable sort: equal turns keep their arrival order
        turns.sort(Comparator.comparingLong(Map.Entry::getKey));
        return turns.stream().map(Map.Entry::getValue).toList();
    }

    static QueueView take(DispatcherSettings settings, PendingQueue queue, Pace pace, long now) {
        List<QueueView.Waiting> waiting = new ArrayList<>(queue.size());
        long tokens = 0;
        for (Priority p : Priority.values()) {
            for (PendingQueue.Ref ref : served(queue.waiting(p))) {
                waiting.add(new QueueView.Waiting(ref.id(), p, ref.tokens()));
                tokens += ref.tokens();
            }
        }
        var quota = settings.quota();
        var batch = settings.batch();
        Eta.Rates configured = Eta.configured(quota.tpm(), quota.rpm(), quota.safetyFactor(),
                waiting.isEmpty() ? 0 : (double) tokens / waiting.size(), batch.completionTokensPerItem(), batch.maxItems(),
                pace.latencyMs());
        List<String> routes = settings.routing().routesOf(settings.scope()).stream().map(RouteSettings::name).toList();
        return new QueueView(settings.scope(), routes, now, pace.rates(now, configured), waiting);
    }
}

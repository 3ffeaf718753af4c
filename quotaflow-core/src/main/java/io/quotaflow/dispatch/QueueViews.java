package io.quotaflow.dispatch;

import io.quotaflow.config.DispatcherSettings;
import io.quotaflow.routing.RouteSettings;
import io.quotaflow.status.Eta;
import io.quotaflow.status.Pace;
import io.quotaflow.status.QueueView;
import io.quotaflow.records.Priority;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Reads a scope's queue into a {@link QueueView} for {@code GET /tickets/{id}} and {@code /status}:
 * the waiting tickets in dispatch order (highest class first; within a class, {@link PendingQueue#waiting}'s
 * arrival order with the tenants taking turns by tokens and weight, {@link #served}) and the scope's measured
 * pace, or its configured limits while nothing was measured.
 */
final class QueueViews {

    private QueueViews() {
    }

    /**
     * A class's waiting tickets in the order its tenants share it by tokens: each ticket's turn is
     * its tenant's {@code cost} up to and including it over the tenant's {@code weight} (the deficit
     * round robin serves a ticket after those of every tenant with a smaller turn), ties by arrival.
     */
    static List<PendingQueue.Ref> served(List<PendingQueue.Ref> byArrival, ToLongFunction<PendingQueue.Ref> cost,
                                         ToDoubleFunction<String> weight) {
        Map<String, Long> spent = new HashMap<>();
        List<Map.Entry<Double, PendingQueue.Ref>> turns = new ArrayList<>(byArrival.size());
        for (PendingQueue.Ref ref : byArrival) {
            long tenantCost = spent.merge(ref.tenant(), Math.max(1, cost.applyAsLong(ref)), Long::sum);
            turns.add(Map.entry(tenantCost / Math.max(1e-9, weight.applyAsDouble(ref.tenant())), ref));
        }
        // a stable sort: equal turns keep their arrival order
        turns.sort(Comparator.comparingDouble(Map.Entry::getKey));
        return turns.stream().map(Map.Entry::getValue).toList();
    }

    static QueueView take(DispatcherSettings settings, PendingQueue queue, Pace pace, long now) {
        List<QueueView.Waiting> waiting = new ArrayList<>(queue.size());
        long tokens = 0;
        for (Priority p : Priority.values()) {
            for (PendingQueue.Ref ref : served(queue.waiting(p), queue::cost, settings.tenants()::weight)) {
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

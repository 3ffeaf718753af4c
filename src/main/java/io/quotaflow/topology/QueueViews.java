package io.quotaflow.topology;

import io.quotaflow.config.DispatcherSettings;
import io.quotaflow.config.RouteSettings;
import io.quotaflow.status.Eta;
import io.quotaflow.status.Pace;
import io.quotaflow.status.QueueView;
import io.quotaflow.ticket.Priority;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a scope's queue into a {@link QueueView} for {@code GET /tickets/{id}} and {@code /status}:
 * the waiting tickets in dispatch order (highest class first; within a class the order
 * {@link PendingQueue#waiting} gives) and the scope's measured pace, or its configured limits
 * while nothing was measured.
 */
final class QueueViews {

    private QueueViews() {
    }

    static QueueView take(DispatcherSettings settings, PendingQueue queue, Pace pace, long now) {
        List<QueueView.Waiting> waiting = new ArrayList<>(queue.size());
        long tokens = 0;
        for (Priority p : Priority.values()) {
            for (PendingQueue.Ref ref : queue.waiting(p)) {
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

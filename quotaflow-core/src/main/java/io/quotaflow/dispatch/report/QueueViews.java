package io.quotaflow.dispatch.report;

import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.queue.PendingQueue;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.status.AdmittedRate;
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
 * the first waiting tickets in dispatch order (highest class first; within a class, the tenants taking
 * turns by tokens and weight), where each tenant stands in its class's rotation past them, the counts of
 * everything waiting, the first retries held for later, and
 * the scope's measured pace held to its limits ({@link io.quotaflow.status.Pace}), or its configured
 * limits while nothing was measured.
 */
public final class QueueViews {

    private QueueViews() {
    }

    /**
     * A class's waiting tickets in the order its tenants share it by tokens: each ticket's turn is
     * its tenant's {@code cost} up to and including it over the tenant's {@code weight} (the deficit
     * round robin serves a ticket after those of every tenant with a smaller turn), ties by arrival.
     */
    public static List<PendingQueue.Ref> served(List<PendingQueue.Ref> byArrival, ToLongFunction<PendingQueue.Ref> cost,
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

    /** A class of more tenants than this has no rotation in a published view: its unlisted tickets wait behind its tail. */
    static final int ROTATION_TENANTS = 1_000;

    /** Retries held for later listed in a published view (the first by due time), each a store read. */
    static final int RETRIES = 256;

    /** Tickets listed one by one in a published view; the rest are counted per class (docs/design.md, "Bounds"). */
    public static final int LISTED = 2_000;

    /**
     * The view of a scope's queue at {@code now}: its first {@link #LISTED} tickets in the order they
     * are expected to go ({@link PendingQueue#served}: the deficit round robin's present state), and
     * per class how many wait in all (in memory and spilled) and their tokens, kept as they change;
     * the rotation of each class not listed to its end, of at most {@link #ROTATION_TENANTS} tenants;
     * the first {@link #RETRIES} retries held for later. O(LISTED log LISTED + ROTATION_TENANTS + RETRIES),
     * whatever the backlog.
     */
    public static QueueView take(DispatcherSettings settings, DispatchLedger ledger, Pace pace, long now) {
        PendingQueue queue = ledger.queue();
        io.quotaflow.dispatch.queue.Served served = queue.served(LISTED, ROTATION_TENANTS);
        List<Map.Entry<Priority, PendingQueue.Ref>> first = served.first();
        List<QueueView.Waiting> waiting = new ArrayList<>(first.size());
        for (Map.Entry<Priority, PendingQueue.Ref> e : first) {
            waiting.add(new QueueView.Waiting(e.getValue().id(), e.getKey(), e.getValue().tokens()));
        }
        Map<Priority, QueueView.Count> classes = new java.util.EnumMap<>(Priority.class);
        long tokens = 0;
        long tickets = 0;
        for (Priority p : Priority.values()) {
            int n = queue.size(p) + ledger.spilled(p);
            long t = queue.tokens(p) + ledger.spilledTokens(p);
            classes.put(p, new QueueView.Count(n, t));
            tickets += n;
            tokens += t;
        }
        return new QueueView(settings.scope(), routes(settings), now, rates(settings, pace, tickets, tokens, now), waiting, classes,
                ledger.delayedFirst(RETRIES), served.rotations());
    }

    private static List<String> routes(DispatcherSettings settings) {
        return settings.routing().routesOf(settings.scope()).stream().map(RouteSettings::name).toList();
    }

    /** The pace of the scope at {@code now}: measured, or its configured limits while nothing was measured. */
    public static Eta.Rates rates(DispatcherSettings settings, Pace pace, long tickets, long tokens, long now) {
        var quota = settings.quota();
        var batch = settings.batch();
        // a dimension without a limit (none) never binds: an infinite rate
        Eta.Rates configured = Eta.configured(quota.limitsTokens() ? quota.tpm() : Double.POSITIVE_INFINITY,
                quota.limitsRequests() ? quota.rpm() : Double.POSITIVE_INFINITY, quota.safetyFactor(),
                tickets == 0 ? 0 : (double) tokens / tickets, batch.completionTokensPerItem(), batch.maxItems(),
                pace.latencyMs());
        return pace.rates(now, AdmittedRate.Ceiling.perMinute(quota.limitsTokens() ? quota.tpm() : Double.POSITIVE_INFINITY,
                quota.limitsRequests() ? quota.rpm() : Double.POSITIVE_INFINITY, quota.safetyFactor()), configured);
    }
}

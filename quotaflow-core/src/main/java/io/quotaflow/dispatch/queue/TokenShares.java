package io.quotaflow.dispatch.queue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Deficit round robin on estimated tokens, with an infinitely small quantum (docs/design.md,
 * "Tenants"): each tenant's deficit is kept as its <em>normalized service</em>, the tokens admitted
 * for it divided by its weight. The next ticket is the head of the backlogged tenant whose
 * service would be lowest once that head is served (the first in rotation order on a tie), so over
 * time each backlogged tenant's admitted tokens are proportional to its weight, whatever the sizes
 * of its tickets: a tenant of long tickets is served less often, not more tokens.
 *
 * <p>A tenant that starts waiting joins at the lowest service among those waiting, so time spent
 * idle is no credit to burst with. Charges add up, in any order. Joining, leaving and charging are
 * O(log tenants) (the services are kept sorted as well); only tenants with work are tracked: one
 * that leaves costs nothing. {@link PendingQueue} keeps its tenants ordered by what {@link #finish}
 * says, so a proposal reads the best tenants first instead of asking {@link #next} over all of them.
 *
 * <p>Plain arithmetic, not thread-safe: one stream task owns each instance.
 */
public final class TokenShares {

    private final ToDoubleFunction<String> weights;
    private final Map<String, Double> service;
    /** The services of the tenants tracked, as a multiset (service → how many tenants have it): the lowest in O(log n). */
    private final TreeMap<Double, Integer> levels;

    public TokenShares(ToDoubleFunction<String> weights) {
        this(weights, new HashMap<>(), new TreeMap<>());
    }

    private TokenShares(ToDoubleFunction<String> weights, Map<String, Double> service, TreeMap<Double, Integer> levels) {
        this.weights = weights;
        this.service = service;
        this.levels = levels;
    }

    /** An independent copy, to try a proposal on (O(tenants): tests and tools only). */
    public TokenShares copy() {
        return new TokenShares(weights, new HashMap<>(service), new TreeMap<>(levels));
    }

    /** {@code tenant} has work now: it joins at the lowest service of the tenants waiting, if new. */
    public void join(String tenant) {
        if (!service.containsKey(tenant)) {
            set(tenant, levels.isEmpty() ? 0 : levels.firstKey());
        }
    }

    /** {@code tenant} has no work left: its service is forgotten (it rejoins at the others' level). */
    public void leave(String tenant) {
        Double was = service.remove(tenant);
        if (was != null) {
            unlevel(was);
        }
    }

    /** How many tenants are tracked (those with work). */
    int tracked() {
        return service.size();
    }

    /**
     * The tenant to serve next among {@code candidates} (in rotation order), given the cost of each
     * one's next ticket; null when there is none.
     */
    public String next(List<String> candidates, ToLongFunction<String> headCost) {
        String best = null;
        double bestFinish = Double.POSITIVE_INFINITY;
        for (String tenant : candidates) {
            double finish = finish(tenant, headCost.applyAsLong(tenant));
            if (finish < bestFinish) {
                best = tenant;
                bestFinish = finish;
            }
        }
        return best;
    }

    /** {@code tenant}'s normalized service once a ticket costing {@code cost} more is served. */
    double finish(String tenant, long cost) {
        return serviceOf(tenant) + cost / weight(tenant);
    }

    /** {@code tenant} was admitted {@code tokens}. */
    public void charge(String tenant, long tokens) {
        Double was = service.get(tenant);
        if (was != null) {
            unlevel(was);
        }
        set(tenant, (was == null ? 0 : was) + tokens / weight(tenant));
    }

    /** Normalized service of {@code tenant} (0 for one never seen). */
    double serviceOf(String tenant) {
        return service.getOrDefault(tenant, 0.0);
    }

    double weight(String tenant) {
        double w = weights.applyAsDouble(tenant);
        return w > 0 ? w : 1;
    }

    private void set(String tenant, double value) {
        service.put(tenant, value);
        levels.merge(value, 1, Integer::sum);
    }

    private void unlevel(double value) {
        levels.computeIfPresent(value, (k, n) -> n <= 1 ? null : n - 1);
    }
}

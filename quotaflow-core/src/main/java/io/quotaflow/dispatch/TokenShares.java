package io.quotaflow.dispatch;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * idle is no credit to burst with. Charges add up, in any order: a proposal is worked out on a
 * {@link #copy()} and charged to the real shares only when its call is admitted.
 *
 * <p>Plain arithmetic, not thread-safe: one stream task owns each instance.
 */
final class TokenShares {

    private final ToDoubleFunction<String> weights;
    private final Map<String, Double> service;

    TokenShares(ToDoubleFunction<String> weights) {
        this(weights, new HashMap<>());
    }

    private TokenShares(ToDoubleFunction<String> weights, Map<String, Double> service) {
        this.weights = weights;
        this.service = service;
    }

    /** An independent copy, to try a proposal on. */
    TokenShares copy() {
        return new TokenShares(weights, new HashMap<>(service));
    }

    /** {@code tenant} has work now: it joins at the lowest service of the tenants waiting, if new. */
    void join(String tenant) {
        if (!service.containsKey(tenant)) {
            service.put(tenant, service.values().stream().mapToDouble(Double::doubleValue).min().orElse(0));
        }
    }

    /** {@code tenant} has no work left: its service is forgotten (it rejoins at the others' level). */
    void leave(String tenant) {
        service.remove(tenant);
    }

    /**
     * The tenant to serve next among {@code candidates} (in rotation order), given the cost of each
     * one's next ticket; null when there is none.
     */
    String next(List<String> candidates, ToLongFunction<String> headCost) {
        String best = null;
        double bestFinish = Double.POSITIVE_INFINITY;
        for (String tenant : candidates) {
            double finish = serviceOf(tenant) + headCost.applyAsLong(tenant) / weight(tenant);
            if (finish < bestFinish) {
                best = tenant;
                bestFinish = finish;
            }
        }
        return best;
    }

    /** {@code tenant} was admitted {@code tokens}. */
    void charge(String tenant, long tokens) {
        service.put(tenant, serviceOf(tenant) + tokens / weight(tenant));
    }

    /** Normalized service of {@code tenant} (0 for one never seen). */
    double serviceOf(String tenant) {
        return service.getOrDefault(tenant, 0.0);
    }

    private double weight(String tenant) {
        double w = weights.applyAsDouble(tenant);
        return w > 0 ? w : 1;
    }
}

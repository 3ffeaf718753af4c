package io.quotaflow.dispatch;

import io.quotaflow.config.DispatcherSettings;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.quota.QuotaLevel;
import io.quotaflow.records.Priority;

import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads a dispatcher's queue, ledger, provider model and health into a {@link DispatcherSnapshot}. */
final class SnapshotTaker {

    private SnapshotTaker() {
    }

    static DispatcherSnapshot take(DispatcherSettings settings, long now, PendingQueue queue, DispatchLedger ledger,
                                   ProviderModel provider, ScopeHealth health) {
        Map<Priority, Integer> sizes = new EnumMap<>(Priority.class);
        Map<Priority, Long> ages = new EnumMap<>(Priority.class);
        for (Priority p : Priority.values()) {
            sizes.put(p, queue.size(p));
            queue.oldest(p).ifPresent(t -> ages.put(p, Math.max(0, now - t)));
        }
        long wait = queue.propose(settings.batch().maxItems(), provider::promptTokenCap, settings.limits().maxBatchBytes(), now)
                .map(next -> provider.waitMs(next.priority(), provider.estimate(next))).orElse(0L);
        ProviderModel.View v = provider.view();
        String state = health.halted() ? "HALTED: " + health.haltReason()
                : health.circuitOpen() ? "CIRCUIT_" + health.circuitState()
                : v.cooldown() ? "COOLDOWN" : "RUNNING";
        return new DispatcherSnapshot(settings.scope(), now, sizes, ages, ledger.delayedCount(), ledger.callsInFlight(),
                v.availableTokens(), v.availableRequests(), v.cooldownMs(), Math.max(0, wait), state, v.estimateRatio(),
                v.contextTokens(), v.inFlightLimit(), v.tokenCapacity(), limits(v), outForDayUntil(v), tenants(queue, now));
    }

    /** Tenants with work or recent admissions; the deepest {@link TenantState#MAX_TENANTS}, the rest as one. */
    static Map<String, TenantState> tenants(PendingQueue queue, long now) {
        Map<String, Integer> depth = queue.depthByTenant();
        Map<String, Double> shares = queue.recentShares(now);
        java.util.Set<String> all = new java.util.TreeSet<>(depth.keySet());
        all.addAll(shares.keySet());
        java.util.List<String> ranked = all.stream()
                .sorted(java.util.Comparator.comparing((String t) -> depth.getOrDefault(t, 0)).reversed()
                        .thenComparing(t -> -shares.getOrDefault(t, 0.0)).thenComparing(t -> t))
                .toList();
        Map<String, TenantState> out = new java.util.TreeMap<>();
        int otherDepth = 0;
        double otherShare = 0;
        for (int i = 0; i < ranked.size(); i++) {
            String t = ranked.get(i);
            int d = depth.getOrDefault(t, 0);
            double s = shares.getOrDefault(t, 0.0);
            if (i < TenantState.MAX_TENANTS && !TenantState.OTHER.equals(t)) {
                out.put(t, new TenantState(d, s, queue.heldByCap(t, now)));
            } else {
                otherDepth += d;
                otherShare += s;
            }
        }
        if (ranked.size() > TenantState.MAX_TENANTS || all.contains(TenantState.OTHER)) {
            out.put(TenantState.OTHER, new TenantState(otherDepth, otherShare, false));
        }
        return out;
    }

    private static Map<String, QuotaLevel> limits(ProviderModel.View v) {
        Map<String, QuotaLevel> out = new LinkedHashMap<>();
        v.levels().forEach((dimension, level) -> out.put(dimension.label(), level));
        return out;
    }

    private static String outForDayUntil(ProviderModel.View v) {
        return v.outForDayUntil().isPresent() ? Instant.ofEpochMilli(v.outForDayUntil().getAsLong()).toString() : null;
    }
}

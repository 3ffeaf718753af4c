package io.quotaflow.dispatch.report;

import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.dispatch.queue.PendingQueue;
import io.quotaflow.dispatch.limit.ProviderModel;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.failure.ScopeHealth;
import io.quotaflow.quota.QuotaLevel;
import io.quotaflow.records.Priority;

import java.time.Instant;
import java.util.EnumMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** Reads a dispatcher's queue, ledger, provider model and health into a {@link DispatcherSnapshot}. */
public final class SnapshotTaker {

    private SnapshotTaker() {
    }

    public static DispatcherSnapshot take(DispatcherSettings settings, long now, PendingQueue queue, DispatchLedger ledger,
                                   ProviderModel provider, ScopeHealth health) {
        Map<Priority, Integer> sizes = new EnumMap<>(Priority.class);
        Map<Priority, Integer> spilled = new EnumMap<>(Priority.class);
        Map<Priority, Long> ages = new EnumMap<>(Priority.class);
        for (Priority p : Priority.values()) {
            sizes.put(p, queue.size(p) + ledger.spilled(p));
            spilled.put(p, ledger.spilled(p));
            Optional<Long> oldest = queue.oldest(p);
            Optional<Long> oldestSpilled = ledger.oldestSpilled(p);
            if (oldestSpilled.isPresent() && (oldest.isEmpty() || oldestSpilled.get() < oldest.get())) {
                oldest = oldestSpilled;
            }
            oldest.ifPresent(t -> ages.put(p, Math.max(0, now - t)));
        }
        // the next call's wait as the dispatcher will ask it, told what waits behind the call
        long wait = queue.propose(settings.batch().maxItems(), provider::promptTokenCap, settings.limits().maxBatchBytes(), now)
                .map(next -> provider.nanosUntilAdmissible(next.priority(), provider.estimate(next), provider.behind(next, ledger.backlog()),
                        provider.epochNanos()) / 1_000_000)
                .orElse(0L);
        ProviderModel.View v = provider.view();
        String state = health.halted() ? "HALTED: " + health.haltReason()
                : health.circuitOpen() ? "CIRCUIT_" + health.circuitState()
                : v.cooldown() ? "COOLDOWN" : "RUNNING";
        return new DispatcherSnapshot(settings.scope(), now, sizes, ages, ledger.delayedCount(), ledger.callsInFlight(),
                v.availableTokens(), v.availableRequests(), v.cooldownMs(), Math.max(0, wait), state, v.estimateRatio(),
                v.contextTokens(), v.inFlightLimit(), v.tokenCapacity(), limits(v), outForDayUntil(v), tenants(queue, now), spilled,
                v.engine());
    }

    /**
     * Tenants with work or recent admissions; the deepest {@link TenantState#MAX_TENANTS}, the rest as
     * one. Reads the deepest from the queue's sorted depths and the last minute's admissions: O(MAX_TENANTS
     * + tenants admitted in the last minute), whatever the number of tenants waiting. Depths count the
     * tickets in memory (spilled ones are counted per class only).
     */
    public static Map<String, TenantState> tenants(PendingQueue queue, long now) {
        Map<String, Double> shares = queue.recentShares(now);
        List<Map.Entry<String, Integer>> deep = queue.deepest(TenantState.MAX_TENANTS + 1);
        List<String> ranked = new ArrayList<>(TenantState.MAX_TENANTS + 1);
        Set<String> named = new HashSet<>();
        for (Map.Entry<String, Integer> e : deep) {
            ranked.add(e.getKey());
            named.add(e.getKey());
        }
        if (ranked.size() <= TenantState.MAX_TENANTS) {
            // room left: the tenants with nothing waiting but admissions in the last minute, by share
            shares.entrySet().stream().filter(e -> !named.contains(e.getKey()))
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                    .limit(TenantState.MAX_TENANTS + 1L - ranked.size()).forEach(e -> ranked.add(e.getKey()));
        }
        Map<String, TenantState> out = new TreeMap<>();
        int namedDepth = 0;
        double namedShare = 0;
        boolean other = false;
        for (int i = 0; i < ranked.size(); i++) {
            String t = ranked.get(i);
            if (i < TenantState.MAX_TENANTS && !TenantState.OTHER.equals(t)) {
                int d = queue.depth(t);
                double s = shares.getOrDefault(t, 0.0);
                out.put(t, new TenantState(d, s, queue.heldByCap(t, now)));
                namedDepth += d;
                namedShare += s;
            } else {
                other = true;
            }
        }
        int tenants = queue.tenantsWaiting() + (int) shares.keySet().stream().filter(t -> queue.depth(t) == 0).count();
        if (other || tenants > out.size()) {
            double allShare = shares.values().stream().mapToDouble(Double::doubleValue).sum();
            out.put(TenantState.OTHER, new TenantState(queue.size() - namedDepth, Math.max(0, allShare - namedShare), false));
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

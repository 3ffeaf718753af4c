package io.quotaflow.dispatch.queue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Each tenant's tickets waiting in a {@link PendingQueue}, every class, kept sorted deepest first. */
final class TenantDepths {

    /** A tenant's tickets waiting in every class, in {@link #deepest}'s order. */
    private static final class Depth {
        final String tenant;
        int tickets;

        Depth(String tenant) {
            this.tenant = tenant;
        }
    }

    private static final Comparator<Depth> DEEPEST_FIRST =
            Comparator.<Depth>comparingInt(d -> -d.tickets).thenComparing(d -> d.tenant);

    private final Map<String, Depth> depths = new HashMap<>();
    private final TreeSet<Depth> deepest = new TreeSet<>(DEEPEST_FIRST);

    void deepen(String tenant, int by) {
        Depth d = depths.get(tenant);
        if (d == null) {
            d = new Depth(tenant);
            depths.put(tenant, d);
        } else {
            deepest.remove(d);
        }
        d.tickets += by;
        if (d.tickets <= 0) {
            depths.remove(tenant);
        } else {
            deepest.add(d);
        }
    }

    Map<String, Integer> byTenant() {
        Map<String, Integer> out = new HashMap<>();
        depths.forEach((t, d) -> out.put(t, d.tickets));
        return out;
    }

    List<Map.Entry<String, Integer>> deepest(int n) {
        List<Map.Entry<String, Integer>> out = new ArrayList<>(Math.min(n, deepest.size()));
        for (Depth d : deepest) {
            if (out.size() >= n) {
                break;
            }
            out.add(Map.entry(d.tenant, d.tickets));
        }
        return out;
    }

    int depth(String tenant) {
        Depth d = depths.get(tenant);
        return d == null ? 0 : d.tickets;
    }

    int tenants() {
        return depths.size();
    }
}

package io.quotaflow.dispatch.queue;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/** Tokens admitted per tenant over the last minute, for each tenant's share in {@code /status}. */
public final class TenantActivity {

    static final long WINDOW_MS = 60_000;

    private record Admission(long at, String tenant, long tokens) {
    }

    private final ArrayDeque<Admission> recent = new ArrayDeque<>();
    private final Map<String, Long> totals = new HashMap<>();
    private long total;

    void admitted(String tenant, long tokens, long now) {
        prune(now);
        recent.addLast(new Admission(now, tenant, tokens));
        totals.merge(tenant, tokens, Long::sum);
        total += tokens;
    }

    /** Each tenant's share (0..1) of the tokens admitted in the last minute. */
    Map<String, Double> shares(long now) {
        prune(now);
        Map<String, Double> out = new HashMap<>();
        if (total > 0) {
            totals.forEach((t, v) -> out.put(t, (double) v / total));
        }
        return out;
    }

    private void prune(long now) {
        while (!recent.isEmpty() && recent.peekFirst().at() <= now - WINDOW_MS) {
            Admission a = recent.pollFirst();
            total -= a.tokens();
            totals.computeIfPresent(a.tenant(), (t, v) -> v - a.tokens() <= 0 ? null : v - a.tokens());
        }
    }
}

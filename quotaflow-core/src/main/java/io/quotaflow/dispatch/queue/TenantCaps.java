package io.quotaflow.dispatch.queue;

import io.quotaflow.settings.TenantLimits;
import io.quotaflow.settings.TenantSettings;
import io.quotaflow.quota.ContinuousBucket;

import java.util.HashMap;
import java.util.Map;

/**
 * The optional per-tenant rates {@code tenant.<name>.tpm} / {@code .rpm}: a tenant whose own bucket
 * is spent is held (its tickets stay queued, skipped) until the bucket refills; nothing is
 * rejected. Continuous buckets (as the route's limiter) start full. Time is passed in, epoch ms.
 */
public final class TenantCaps {

    private static final long NANOS_PER_MS = 1_000_000L;

    private record Buckets(ContinuousBucket tokens, ContinuousBucket requests) {
    }

    private final TenantSettings settings;
    private final Map<String, Buckets> buckets = new HashMap<>();

    TenantCaps(TenantSettings settings) {
        this.settings = settings;
    }

    /** A new account of what one batch asks of the caps. */
    Use use() {
        return new Use();
    }

    /**
     * What one batch asks of its tenants' caps, ticket by ticket: the tokens and tickets of each capped tenant not paid
     * before ({@link PendingQueue.Ref#capPaid}: a ticket counts once). Made only where a cap is configured.
     */
    final class Use {
        private Map<String, long[]> byTenant;

        /** Whether {@code ref} of {@code tenant}, costing {@code cost}, may join the batch at {@code now}. */
        boolean allows(PendingQueue.Ref ref, String tenant, long cost, long now) {
            if (ref.capPaid() || !capped(tenant)) {
                return true;
            }
            long[] use = byTenant == null ? null : byTenant.get(tenant);
            return TenantCaps.this.allows(tenant, (use == null ? 0 : use[0]) + cost, (use == null ? 0 : (int) use[1]) + 1, now);
        }

        /** {@code ref} joined the batch. */
        void take(PendingQueue.Ref ref, String tenant, long cost) {
            if (ref.capPaid() || !capped(tenant)) {
                return;
            }
            byTenant = byTenant == null ? new HashMap<>() : byTenant;
            long[] use = byTenant.computeIfAbsent(tenant, t -> new long[2]);
            use[0] += cost;
            use[1]++;
        }

        /** The batch was admitted at {@code now}: each tenant's cap is charged with what it took. */
        void charge(long now) {
            if (byTenant != null) {
                byTenant.forEach((tenant, use) -> TenantCaps.this.charge(tenant, use[0], (int) use[1], now));
            }
        }
    }

    /** Whether {@code tenant} has a cap at all. */
    boolean capped(String tenant) {
        return settings.of(tenant).capped();
    }

    /**
     * Whether {@code tenant} may have {@code calls} tickets of {@code tokens} in all admitted at
     * {@code now}, besides what its bucket has already given. A ticket larger than the whole
     * bucket goes alone, from a full bucket.
     */
    boolean allows(String tenant, long tokens, int calls, long now) {
        Buckets b = bucketsOf(tenant, now);
        if (b == null) {
            return true;
        }
        long nanos = now * NANOS_PER_MS;
        boolean alone = calls <= 1;
        return fits(b.tokens(), tokens, alone, nanos) && fits(b.requests(), calls, alone, nanos);
    }

    /** The oversized exemption (from a full bucket) is for a ticket alone, not for one more of a batch. */
    private static boolean fits(ContinuousBucket bucket, double cost, boolean alone, long nanos) {
        if (bucket == null) {
            return true;
        }
        return alone ? bucket.canTake(cost, 0, nanos) : bucket.available(nanos) >= cost - 1e-9;
    }

    /** {@code tenant} was admitted {@code tokens} in {@code tickets} tickets at {@code now}. */
    void charge(String tenant, long tokens, int tickets, long now) {
        Buckets b = bucketsOf(tenant, now);
        if (b == null) {
            return;
        }
        long nanos = now * NANOS_PER_MS;
        if (b.tokens() != null) {
            b.tokens().take(tokens, nanos);
        }
        if (b.requests() != null) {
            b.requests().take(tickets, nanos);
        }
    }

    /** Whether {@code tenant}'s cap holds a ticket of {@code tokens} at {@code now}. */
    boolean holds(String tenant, long tokens, long now) {
        return !allows(tenant, tokens, 1, now);
    }

    private Buckets bucketsOf(String tenant, long now) {
        TenantLimits limits = settings.of(tenant);
        if (!limits.capped()) {
            return null;
        }
        return buckets.computeIfAbsent(tenant, t -> new Buckets(bucket(limits.tpm(), now), bucket(limits.rpm(), now)));
    }

    private static ContinuousBucket bucket(long perMinute, long now) {
        return perMinute <= 0 ? null : new ContinuousBucket(perMinute / 60.0, perMinute, perMinute, now * NANOS_PER_MS);
    }
}

package io.quotaflow.settings;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The tenants named in the configuration, with their weights and caps; every other tenant has
 * {@link TenantLimits#DEFAULT}; and where a ticket's tenant comes from, which tenants exist
 * ({@link TenantAccess}). Immutable; built with {@link #builder()}.
 */
public record TenantSettings(Map<String, TenantLimits> tenants, TenantAccess access) {

    /** No tenant configured: every tenant weighs 1 and none is capped; the key names the tenant ({@link TenantAccess#DEFAULT}). */
    public static final TenantSettings NONE = new TenantSettings(Map.of(), TenantAccess.DEFAULT);

    public TenantSettings {
        Objects.requireNonNull(tenants, "tenants");
        Objects.requireNonNull(access, "access");
        tenants = Collections.unmodifiableMap(new TreeMap<>(tenants));
    }

    /** These limits with {@code value} as the tenants' source and list. */
    public TenantSettings withAccess(TenantAccess value) {
        return new TenantSettings(tenants, value);
    }

    /** {@code tenant}'s limits (the default when it is not configured). */
    public TenantLimits of(String tenant) {
        return tenants.getOrDefault(tenant, TenantLimits.DEFAULT);
    }

    public double weight(String tenant) {
        return of(tenant).weight();
    }

    /** Whether any tenant has a cap. */
    public boolean anyCapped() {
        return tenants.values().stream().anyMatch(TenantLimits::capped);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects tenants; each setter validates when {@link #build()} makes the limits. */
    public static final class Builder {
        private final Map<String, double[]> values = new TreeMap<>();

        private double[] slot(String tenant) {
            QuotaSettings.require(tenant != null && !tenant.isBlank(), "a tenant name must not be blank");
            return values.computeIfAbsent(tenant, t -> new double[] {1, 0, 0});
        }

        public Builder weight(String tenant, double weight) {
            slot(tenant)[0] = weight;
            return this;
        }

        public Builder tpm(String tenant, long tpm) {
            slot(tenant)[1] = tpm;
            return this;
        }

        public Builder rpm(String tenant, long rpm) {
            slot(tenant)[2] = rpm;
            return this;
        }

        public TenantSettings build() {
            Map<String, TenantLimits> out = new TreeMap<>();
            values.forEach((t, v) -> out.put(t, new TenantLimits(v[0], (long) v[1], (long) v[2])));
            return new TenantSettings(out, TenantAccess.DEFAULT);
        }
    }
}

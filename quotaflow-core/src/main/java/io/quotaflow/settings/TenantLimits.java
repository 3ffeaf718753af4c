package io.quotaflow.settings;

/**
 * One tenant's share and caps (docs/design.md, "Tenants"): {@code tenant.<name>.weight} (default 1)
 * and the optional {@code tenant.<name>.tpm} / {@code .rpm} (0: no cap).
 */
public record TenantLimits(double weight, long tpm, long rpm) {

    /** Weight 1, no caps. */
    public static final TenantLimits DEFAULT = new TenantLimits(1, 0, 0);

    public TenantLimits {
        QuotaSettings.require(Double.isFinite(weight) && weight > 0, "tenant weight must be a number above 0, got " + weight);
        QuotaSettings.require(tpm >= 0, "tenant tpm must be at least 0, got " + tpm);
        QuotaSettings.require(rpm >= 0, "tenant rpm must be at least 0, got " + rpm);
    }

    public boolean capped() {
        return tpm > 0 || rpm > 0;
    }
}

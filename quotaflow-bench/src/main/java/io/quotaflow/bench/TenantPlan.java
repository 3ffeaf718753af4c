package io.quotaflow.bench;

/**
 * Two tenants publishing bulk tickets at once into one route ({@link TenantShareRunner}): names,
 * weights, ticket counts, how many times longer {@code b}'s tickets are, and whether the run waits
 * for every ticket or ends when the first tenant is done.
 */
public record TenantPlan(String nameA, double weightA, int ticketsA, String nameB, double weightB, int ticketsB,
                         int lengthFactorB, boolean untilAllDone) {

    public TenantPlan {
        if (ticketsA < 1 || ticketsB < 1 || lengthFactorB < 1 || !(weightA > 0) || !(weightB > 0) || nameA.equals(nameB)) {
            throw new IllegalArgumentException("invalid tenant plan " + nameA + "/" + nameB);
        }
    }

    /**
     * Bench (l), as the issue states it: {@code gold} weight 3 and {@code noisy} weight 1, {@code each}
     * tickets each of the same size distribution, so the ratio of classified tickets is the ratio of
     * tokens (shares by tokens with unequal sizes: {@link #benchLUnequal}, and the unit tests).
     */
    public static TenantPlan benchL(int each) {
        return new TenantPlan("gold", 3, each, "noisy", 1, each, 1, false);
    }

    /** Bench (l) with noisy's tickets three times as long: the token ratio holds, the ticket ratio does not (by design). */
    public static TenantPlan benchLUnequal(int each) {
        return new TenantPlan("gold", 3, each, "noisy", 1, each, 3, false);
    }

    /** {@code demo --scenario tenants}: a quiet tenant (weight 2, 150 tickets) beside a noisy one (weight 1, 900 long tickets). */
    public static TenantPlan demo() {
        return new TenantPlan("quiet", 2, 150, "noisy", 1, 900, 3, true);
    }
}

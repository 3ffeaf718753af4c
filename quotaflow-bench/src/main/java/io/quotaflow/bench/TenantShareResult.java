package io.quotaflow.bench;

import java.util.Locale;

/**
 * What {@link TenantShareRunner} measured: each tenant's admitted tokens and classified tickets
 * while both had work, when each was done (-1: not waited for), 429s and dead letters.
 */
public record TenantShareResult(TenantPlan plan, long windowMs, double tokensA, double tokensB, long ticketsA, long ticketsB,
                                long doneMsA, long doneMsB, long classified, long http429, long deadLettered) {

    /** The target of bench (l)'s admitted-token ratio for weights 3:1. */
    public static final double TARGET_LOW = 2.6;
    public static final double TARGET_HIGH = 3.4;

    public double tokenRatio() {
        return tokensB == 0 ? Double.NaN : tokensA / tokensB;
    }

    public double ticketRatio() {
        return ticketsB == 0 ? Double.NaN : (double) ticketsA / ticketsB;
    }

    /**
     * Bench (l): the token ratio on target and, when both tenants' tickets are alike, the ratio of
     * classified tickets too (the figure); no 429, nothing dead-lettered.
     */
    public boolean passed() {
        boolean tickets = plan.lengthFactorB() != 1 || (ticketRatio() >= TARGET_LOW && ticketRatio() <= TARGET_HIGH);
        return tokenRatio() >= TARGET_LOW && tokenRatio() <= TARGET_HIGH && tickets && http429 == 0 && deadLettered == 0;
    }

    /** The demo: every ticket classified, no 429, nothing dead-lettered. */
    public boolean clean() {
        return classified == (long) plan.ticketsA() + plan.ticketsB() && http429 == 0 && deadLettered == 0;
    }

    public String report() {
        return String.format(Locale.ROOT, """
                        tenant-shares (l): weights %.0f:%.0f, %d bulk tickets each, about %.0f and %.0f estimated tokens a ticket
                          while both had work (%.1f s): admitted tokens %,.0f : %,.0f = %.2f (target %.1f-%.1f)
                          classified tickets %d : %d = %.2f (%s's tickets are %d times as long)
                          429s %d, dead-lettered %d: %s
                        """, plan.weightA(), plan.weightB(), plan.ticketsA(), tokensA / Math.max(1, ticketsA),
                tokensB / Math.max(1, ticketsB), windowMs / 1000.0, tokensA, tokensB, tokenRatio(), TARGET_LOW, TARGET_HIGH,
                ticketsA, ticketsB, ticketRatio(), plan.nameB(), plan.lengthFactorB(), http429, deadLettered,
                passed() ? "PASS" : "FAIL");
    }

    /** The demo's report: per tenant, tickets, weight and when it was done; the shares while both waited. */
    public String demoReport() {
        return String.format(Locale.ROOT, """
                        tenants: %s (weight %.0f, %d tickets) and %s (weight %.0f, %d tickets, %d times as long), published at once
                          %-6s classified %d, done after %.1f s
                          %-6s classified %d, done after %.1f s
                          while both had work (%.1f s): admitted tokens %,.0f : %,.0f = %.2f, tickets %d : %d
                          429s %d, dead-lettered %d: %s
                        """, plan.nameA(), plan.weightA(), plan.ticketsA(), plan.nameB(), plan.weightB(), plan.ticketsB(),
                plan.lengthFactorB(), plan.nameA(), plan.ticketsA(), doneMsA / 1000.0, plan.nameB(), plan.ticketsB(),
                doneMsB / 1000.0, windowMs / 1000.0, tokensA, tokensB, tokenRatio(), ticketsA, ticketsB, http429, deadLettered,
                clean() ? "every ticket classified once" : "INCOMPLETE");
    }
}

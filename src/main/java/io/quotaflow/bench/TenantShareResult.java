package io.quotaflow.bench;

import java.util.Locale;

/**
 * Bench (l)'s figures: two tenants weighted 3:1 share one route; admitted tokens and classified
 * tickets of each while both had work, and how long that lasted.
 */
public record TenantShareResult(int ticketsEach, double weightA, double weightB, double tokensPerTicketA,
                                double tokensPerTicketB, long windowMs, double tokensA, double tokensB, long ticketsA,
                                long ticketsB, long http429, long deadLettered) {

    /** The target of the admitted-token ratio for weights 3:1. */
    public static final double TARGET_LOW = 2.6;
    public static final double TARGET_HIGH = 3.4;

    public double tokenRatio() {
        return tokensB == 0 ? Double.NaN : tokensA / tokensB;
    }

    public double ticketRatio() {
        return ticketsB == 0 ? Double.NaN : (double) ticketsA / ticketsB;
    }

    /** Whether the token ratio is on target, with no 429 and nothing dead-lettered. */
    public boolean passed() {
        return tokenRatio() >= TARGET_LOW && tokenRatio() <= TARGET_HIGH && http429 == 0 && deadLettered == 0;
    }

    public String report() {
        return String.format(Locale.ROOT, """
                        tenant-shares (l): weights %.0f:%.0f, %d bulk tickets each, about %.0f and %.0f estimated tokens a ticket
                          while both had work (%.1f s): admitted tokens %,.0f : %,.0f = %.2f (target %.1f-%.1f)
                          classified tickets %d : %d = %.2f (the light tenant's tickets are longer)
                          429s %d, dead-lettered %d: %s
                        """, weightA, weightB, ticketsEach, tokensPerTicketA, tokensPerTicketB, windowMs / 1000.0, tokensA, tokensB,
                tokenRatio(), TARGET_LOW, TARGET_HIGH, ticketsA, ticketsB, ticketRatio(), http429, deadLettered,
                passed() ? "PASS" : "FAIL");
    }
}

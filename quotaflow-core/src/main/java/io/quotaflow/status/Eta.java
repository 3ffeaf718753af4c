package io.quotaflow.status;

import java.util.List;

/**
 * The ETA arithmetic (docs/design.md, "Ticket status"): a ticket starts once what waits ahead of
 * it (and the retries that rejoin the queue before it would go) has been admitted at the scope's
 * pace ({@link AdmittedRate}), whichever of tokens or tickets binds, and is done one call latency
 * later. Pure; times are epoch ms.
 */
public final class Eta {

    /**
     * A scope's pace.
     *
     * @param tokensPerSecond  estimated ticket tokens admitted per second
     * @param ticketsPerSecond tickets admitted per second
     * @param latencyMs        a call's latency (measured mean; 0 when none was measured)
     * @param measured         whether the rates were measured (else: the configured limits)
     */
    public record Rates(double tokensPerSecond, double ticketsPerSecond, long latencyMs, boolean measured) {

        public Rates {
            if (!(tokensPerSecond > 0) || !(ticketsPerSecond > 0)) {
                throw new IllegalArgumentException("rates must be > 0, got " + tokensPerSecond + " tokens/s, "
                        + ticketsPerSecond + " tickets/s");
            }
            if (latencyMs < 0) {
                throw new IllegalArgumentException("latencyMs must be >= 0, got " + latencyMs);
            }
        }
    }

    /** When a ticket is expected to go out and to be answered (epoch ms). */
    public record Estimate(long startAt, long doneAt) {
    }

    private Eta() {
    }

    /**
     * The estimate for a ticket with {@code ticketsAhead} tickets of {@code tokensAhead} estimated
     * tokens to be dispatched before it, not before {@code notBefore} (a retry's due time; 0: none).
     */
    public static Estimate of(long now, long tokensAhead, long ticketsAhead, Rates rates, long notBefore, List<QueueView.Retry> retries) {
        Estimate e = of(now, tokensAhead, ticketsAhead, rates, notBefore);
        long tokens = tokensAhead;
        long tickets = ticketsAhead;
        // a retry due before the ticket would go rejoins the queue at its tenant's head: it goes first
        for (QueueView.Retry r : retries) {
            if (r.dueAt() >= e.startAt()) {
                break;
            }
            tokens += r.tokens();
            tickets++;
            e = of(now, tokens, tickets, rates, notBefore);
        }
        return e;
    }

    /**
     * The estimate for a ticket with {@code ticketsAhead} tickets of {@code tokensAhead} estimated
     * tokens to be dispatched before it, not before {@code notBefore} (a retry's due time; 0: none).
     */
    public static Estimate of(long now, long tokensAhead, long ticketsAhead, Rates rates, long notBefore) {
        if (tokensAhead < 0 || ticketsAhead < 0) {
            throw new IllegalArgumentException("what waits ahead cannot be negative");
        }
        double seconds = Math.max(tokensAhead / rates.tokensPerSecond(), ticketsAhead / rates.ticketsPerSecond());
        long start = Math.max(now, notBefore) + (long) Math.ceil(seconds * 1000);
        return new Estimate(start, start + rates.latencyMs());
    }

    /** A ticket whose call went out at {@code sentAt}: done one latency later (never before {@code now}). */
    public static Estimate sent(long now, long sentAt, Rates rates) {
        return new Estimate(sentAt, Math.max(now, sentAt + rates.latencyMs()));
    }

    /**
     * The configured pace while nothing was measured: {@code tpm} and {@code rpm} (after the
     * safety factor) per second, tickets of {@code meanTicketTokens} taking their share of a call's
     * tokens beside {@code completionTokensPerItem}, {@code itemsPerCall} to a call.
     */
    public static Rates configured(double tpm, double rpm, double safetyFactor, double meanTicketTokens, int completionTokensPerItem,
                                   int itemsPerCall, long latencyMs) {
        double share = meanTicketTokens <= 0 ? 1 : meanTicketTokens / (meanTicketTokens + Math.max(0, completionTokensPerItem));
        return new Rates(Math.max(1e-6, tpm * safetyFactor / 60.0 * share), Math.max(1e-6, rpm * safetyFactor / 60.0 * itemsPerCall),
                latencyMs, false);
    }
}

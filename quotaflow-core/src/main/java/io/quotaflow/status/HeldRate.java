package io.quotaflow.status;

import java.util.Optional;

/**
 * What a scope's provider really admits, measured while the limits bind (docs/design.md, "Ticket
 * status"): the tickets admitted over the time they took, counted from the first admission after the
 * limiter held the scope back (so a full bucket's first burst, admitted before anything was held, is not
 * the pace) and for as long as admissions follow each other, or a hold, within {@link #CHAIN_MS}, with every sum
 * decaying by {@code e^(-age / TAU_MS)}: the rate follows the provider in front of the scope (its own
 * counting, what it lets through its headers, other users of the key) whatever the limiter charged, and
 * older stretches fade rather than drop off an edge. Four numbers and two times: bounded whatever the
 * traffic. Used on the stream thread only; times are epoch ms of the injected clock.
 */
final class HeldRate {

    /** The decay's time constant: a stretch this old counts 1/e as much as one now. */
    static final long TAU_MS = 30_000;
    /** A gap between admissions longer than this ends a stretch (the scope ran dry); the next starts at a hold. */
    static final long CHAIN_MS = 10_000;
    /**
     * Fewer (decayed) admissions than this, or less (decayed) time than {@link #MIN_SECONDS}: nothing measured yet. The
     * first seconds after a hold still carry what is left of the provider's burst (a bucket larger than the limiter's,
     * found through the headers), so ten seconds are measured before the rate counts.
     */
    static final double MIN_CALLS = 3;
    static final double MIN_SECONDS = 10;
    /** {@link #MIN_SECONDS} as the decaying sum holds them. */
    private static final double MIN_DECAYED_SECONDS = TAU_MS / 1000.0 * (1 - Math.exp(-MIN_SECONDS * 1000 / TAU_MS));

    private double seconds;
    private double calls;
    private double tickets;
    private double tokens;
    /** The last admission (epoch ms), -1 before the first. */
    private long last = -1;
    /** When the limiter last held the scope back (epoch ms), -1 before the first time. */
    private long heldAt = -1;
    private boolean counting;

    /** The limiter held the scope back at {@code at}: the limits bind. */
    void held(long at) {
        heldAt = Math.max(heldAt, at);
    }

    /** A call of {@code n} tickets of {@code ticketTokens} estimated tokens was admitted at {@code at}. */
    void admitted(long at, int n, long ticketTokens) {
        // held back since the last admission, and until a moment ago: the limiter, not an empty queue, set this admission's time
        boolean heldSince = heldAt >= 0 && heldAt >= last && at - heldAt <= CHAIN_MS;
        boolean chained = counting && last >= 0 && at - last <= CHAIN_MS;
        counting = heldSince || chained;
        if (last >= 0 && at >= last) {
            // every sum fades with the time that passed, counted or not
            double keep = Math.exp(-(at - last) / (double) TAU_MS);
            seconds *= keep;
            calls *= keep;
            tickets *= keep;
            tokens *= keep;
            if (counting) {
                seconds += (at - last) / 1000.0;
                calls += 1;
                tickets += n;
                tokens += Math.max(0, ticketTokens);
            }
        }
        last = Math.max(last, at);
    }

    /** Whether the last admission was counted: the limits bind now, or did until a moment ago. */
    boolean binding() {
        return counting;
    }

    /** Tickets and estimated tokens per second while the limits bound, if enough was measured; the latency is {@code latencyMs}. */
    Optional<Eta.Rates> rates(long latencyMs) {
        if (calls < MIN_CALLS || seconds < MIN_DECAYED_SECONDS || !(tickets > 0)) {
            return Optional.empty();
        }
        double perSecond = tickets / seconds;
        double tokensPerSecond = Math.max(1, tokens) / seconds;
        return Optional.of(new Eta.Rates(Math.max(1e-6, tokensPerSecond), Math.max(1e-6, perSecond), latencyMs, true));
    }
}

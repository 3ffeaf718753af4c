package io.quotaflow.deadline;

import io.quotaflow.settings.DeadlineAction;
import io.quotaflow.settings.DeadlineSettings;
import io.quotaflow.records.Priority;
import io.quotaflow.status.Eta;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Decides, for a route's waiting tickets, which will miss their deadline or wait too long, and what
 * becomes of them (docs/design.md, "Deadlines and hand-off"). Pure: the caller gives the queue in
 * serving order, the route's pace and when it can serve again, and carries out the verdicts.
 *
 * <p>A ticket's ETA is the one {@code GET /tickets/{id}} gives ({@link Eta#of}): what waits ahead of it
 * admitted at the route's pace from when the route can serve, and one call latency. A ticket whose ETA
 * passes its deadline, with {@link #MARGIN_MS} to spare (the sweep runs once a second), goes to a fallback
 * route that can take it, else is handed off, shed or kept as {@link DeadlineAction} says. A halted route
 * ({@link Route#halted}) can serve again at the earliest once its next halt probe is answered (the probe's
 * due time plus one call latency): its ETAs count from then, and a ticket leaves unless its ETA plus
 * {@link DeadlineSettings#haltGrace()} is within its deadline, so one that waits for a probe the provider
 * refuses still leaves with at least the grace to spare. A route that does not know when it serves again
 * ({@link Long#MAX_VALUE}) meets no deadline: its tickets with one leave at once. A ticket that leaves no
 * longer waits ahead of those behind it. All arithmetic on times saturates: a deadline or a resume time
 * far in the future never overflows.
 *
 * <p>A ticket expected to start more than its class's {@code queue.max-wait} after intake is shed
 * (while the route does not know when it serves again: once it has waited that long).
 */
public final class DeadlinePolicy {

    /** Spare time: a ticket is handed off while its deadline is still at least this far ahead of its ETA. */
    public static final long MARGIN_MS = 1_000;

    /**
     * A waiting ticket in serving order.
     *
     * @param id           its key
     * @param priority     its class
     * @param tokens       its estimated tokens (what it takes of the route's pace)
     * @param enqueuedAt   when it was first accepted (epoch ms)
     * @param deadline     its deadline (epoch ms; 0: none)
     * @param ticketsAhead tickets served before it
     * @param tokensAhead  their estimated tokens
     * @param canFallBack  whether a fallback route may take it (usable, and it has not fallen back already)
     */
    public record Waiting(String id, Priority priority, int tokens, long enqueuedAt, long deadline, long ticketsAhead,
                          long tokensAhead, boolean canFallBack) {

        public Waiting {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(priority, "priority");
        }
    }

    /**
     * The route now.
     *
     * @param rates     its pace
     * @param resumesAt when it can serve again (epoch ms; 0 or the past: now; {@link Long#MAX_VALUE}: not known);
     *                  of a halted route, when its next halt probe may go out
     * @param halted    whether it is halted: it serves again only if the probe due at {@code resumesAt} is accepted,
     *                  one call latency later
     */
    public record Route(Eta.Rates rates, long resumesAt, boolean halted) {

        public Route {
            Objects.requireNonNull(rates, "rates");
        }

        /** A route that is not halted: it serves from {@code resumesAt}. */
        public Route(Eta.Rates rates, long resumesAt) {
            this(rates, resumesAt, false);
        }

        /** A halted route whose next halt probe may go out at {@code probeAt} (epoch ms; now while one is in flight). */
        public static Route halted(Eta.Rates rates, long probeAt) {
            return new Route(rates, probeAt, true);
        }

        /** Whether it cannot say when it serves again: not known, or after the latest deadline ({@link Deadlines#LATEST}). */
        boolean unknown() {
            return resumesAt == Long.MAX_VALUE || servesFrom(0) > Deadlines.LATEST.toEpochMilli();
        }

        /** When it could serve again at the earliest: {@code resumesAt}, after a halt probe's answer. */
        long servesFrom(long now) {
            long from = Math.max(now, resumesAt);
            return halted ? plus(from, rates.latencyMs()) : from;
        }
    }

    /** What becomes of a ticket. */
    public enum Kind {
        /** To the first usable fallback route. */
        FALL_BACK,
        /** To {@code tickets.handoff}. */
        HAND_OFF,
        /** Dead-lettered as {@code shed}. */
        SHED
    }

    /**
     * A verdict on ticket {@code id}: what, why, and when it would have been done here ({@code etaAt}, epoch ms;
     * 0: not known).
     */
    public record Verdict(String id, Kind kind, HandoffReason reason, long etaAt, long deadline) {
    }

    private final DeadlineSettings settings;

    public DeadlinePolicy(DeadlineSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** Whether a queue with no ticket carrying a deadline needs looking at (a waiting limit is set). */
    public boolean limitsWaiting() {
        return !settings.maxWait().isEmpty();
    }

    /** The verdicts on {@code waiting} (in serving order) at {@code now}; tickets not named stay. */
    public List<Verdict> decide(long now, List<Waiting> waiting, Route route) {
        List<Verdict> verdicts = new ArrayList<>();
        long leftTickets = 0;
        long leftTokens = 0;
        for (Waiting w : waiting) {
            long ahead = Math.max(0, w.ticketsAhead() - leftTickets);
            long tokensAhead = Math.max(0, w.tokensAhead() - leftTokens);
            Eta.Estimate eta = route.unknown() ? null : Eta.of(route.servesFrom(now), tokensAhead, ahead, route.rates(), 0);
            Verdict v = deadline(w, eta, route, now);
            if (v == null) {
                v = maxWait(w, eta, now);
            }
            if (v != null) {
                verdicts.add(v);
                leftTickets++;
                leftTokens += w.tokens();
            }
        }
        return verdicts;
    }

    private Verdict deadline(Waiting w, Eta.Estimate eta, Route route, long now) {
        if (!misses(w, eta, route)) {
            return null;
        }
        HandoffReason reason = reason(w, route, now);
        long etaAt = eta == null ? 0 : eta.doneAt();
        if (w.canFallBack()) {
            return new Verdict(w.id(), Kind.FALL_BACK, reason, etaAt, w.deadline());
        }
        return switch (settings.action()) {
            case HANDOFF -> new Verdict(w.id(), Kind.HAND_OFF, reason, etaAt, w.deadline());
            case SHED -> new Verdict(w.id(), Kind.SHED, reason, etaAt, w.deadline());
            case KEEP -> null;
        };
    }

    /** Whether {@code w} has a deadline that {@code eta} (null: none) misses, with the margin (and, halted, the grace) to spare. */
    private boolean misses(Waiting w, Eta.Estimate eta, Route route) {
        if (w.deadline() <= 0) {
            return false;
        }
        long spare = route.halted() ? plus(MARGIN_MS, settings.haltGrace().toMillis()) : MARGIN_MS;
        return eta == null || plus(eta.doneAt(), spare) > w.deadline();
    }

    private static HandoffReason reason(Waiting w, Route route, long now) {
        if (w.deadline() <= now) {
            return HandoffReason.PASSED;
        }
        return route.halted() || route.unknown() || route.resumesAt() > now ? HandoffReason.UNAVAILABLE : HandoffReason.ETA;
    }

    private Verdict maxWait(Waiting w, Eta.Estimate eta, long now) {
        Duration limit = settings.maxWait().get(w.priority());
        if (limit == null) {
            return null;
        }
        long startAt = eta == null ? now : eta.startAt();
        return startAt - w.enqueuedAt() > limit.toMillis()
                ? new Verdict(w.id(), Kind.SHED, HandoffReason.MAX_WAIT, eta == null ? 0 : eta.doneAt(), w.deadline()) : null;
    }

    /**
     * Whether a retry of a ticket with {@code deadline}, due at {@code dueAt}, misses it: its call, one
     * {@code latencyMs} later, would end within {@link #MARGIN_MS} of it or after.
     */
    public static boolean retryMisses(long deadline, long dueAt, long latencyMs) {
        return deadline > 0 && plus(plus(dueAt, Math.max(0, latencyMs)), MARGIN_MS) > deadline;
    }

    private static long plus(long a, long b) {
        return Deadlines.plus(a, b);
    }

    public DeadlineSettings settings() {
        return settings;
    }
}

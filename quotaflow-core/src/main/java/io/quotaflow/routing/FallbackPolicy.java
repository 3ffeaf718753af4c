package io.quotaflow.routing;

import io.quotaflow.settings.Routing;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.records.Priority;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Decides which waiting tickets leave their route, and for which fallback (docs/design.md,
 * "Routes"): every waiting ticket while the route is halted (a probe of its own, no ticket, finds it
 * back), and every waiting ticket but one (the probe that finds the route back) while its circuit is
 * open, its day's budget is spent, or a route that probes a halt with a ticket (a batch route) is
 * halted; otherwise those whose expected wait exceeds their priority's
 * {@code routing.max-wait}, newest first, so that the route keeps what it can serve in time. A
 * ticket that fell back once stays where it is; a fallback it would not fit, or that is known to be
 * unusable, is skipped; with nowhere to go a ticket waits.
 *
 * <p>The expected wait of a ticket is the time the route needs to admit everything ahead of it at
 * its priority and above, and itself: tokens over the token rate, calls over the request rate.
 */
public final class FallbackPolicy {

    /** A ticket waiting on the route, in serving order within its class. */
    public record Waiting(String id, Priority priority, int tokens, boolean fellBack) {
    }

    /** {@code id} moves to {@code to}. */
    public record Move(String id, String to, FallbackReason reason) {
    }

    /**
     * What the route can do now.
     *
     * @param halted                  halted (key refused, model missing, quota spent)
     * @param circuitOpen             its circuit is open
     * @param outForDay               its daily budget is spent
     * @param tokensPerMs             tokens it admits per millisecond (its TPM, as driven)
     * @param requestsPerMs           calls it admits per millisecond (its RPM, as driven)
     * @param ticketsPerCall          tickets a call carries
     * @param completionTokensPerItem completion budget each ticket adds to a call's cost
     * @param haltProbedApart         a halt is probed with a call of its own (an online route): no ticket stays behind for it
     */
    public record Condition(boolean halted, boolean circuitOpen, boolean outForDay, double tokensPerMs, double requestsPerMs,
                            int ticketsPerCall, int completionTokensPerItem, boolean haltProbedApart) {

        /** The condition of an online route, whose halt is probed with a call of its own. */
        public Condition(boolean halted, boolean circuitOpen, boolean outForDay, double tokensPerMs, double requestsPerMs,
                         int ticketsPerCall, int completionTokensPerItem) {
            this(halted, circuitOpen, outForDay, tokensPerMs, requestsPerMs, ticketsPerCall, completionTokensPerItem, true);
        }

        /** Whether one waiting ticket stays, as the probe that finds the route back. */
        boolean keepsProbe() {
            return !(halted && haltProbedApart);
        }

        /** Why nothing can be served here at all, if so. */
        Optional<FallbackReason> blocked() {
            if (halted) {
                return Optional.of(FallbackReason.HALTED);
            }
            if (circuitOpen) {
                return Optional.of(FallbackReason.CIRCUIT_OPEN);
            }
            return outForDay ? Optional.of(FallbackReason.OUT_FOR_DAY) : Optional.empty();
        }
    }

    private final Routing routing;
    private final RouteChooser chooser;

    public FallbackPolicy(Routing routing, RouteChooser chooser) {
        this.routing = routing;
        this.chooser = chooser;
    }

    /** Whether {@code route} has anywhere to send tickets (the caller can skip the work otherwise). */
    public boolean hasFallback(RouteSettings route) {
        return !route.fallback().isEmpty();
    }

    /**
     * The moves for {@code waiting} (every class, each in serving order) on {@code route} in
     * {@code condition}; {@code usable} says whether a route may take tickets (false for one known
     * to be halted, open or out for the day).
     */
    public List<Move> decide(RouteSettings route, Condition condition, List<Waiting> waiting, Predicate<String> usable) {
        List<Move> moves = new ArrayList<>();
        if (route.fallback().isEmpty() || waiting.isEmpty()) {
            return moves;
        }
        Optional<FallbackReason> blocked = condition.blocked();
        if (blocked.isPresent()) {
            // halted online: all go (the probe is a call of its own); else the last (lowest class, newest) stays,
            // the probe that tells when the route is back
            List<Waiting> leaving = condition.keepsProbe() ? waiting.subList(0, waiting.size() - 1) : waiting;
            for (Waiting w : leaving) {
                target(route, w, usable).ifPresent(to -> moves.add(new Move(w.id(), to, blocked.get())));
            }
            return moves;
        }
        double tokensAhead = 0;
        int ticketsAhead = 0;
        for (Priority p : Priority.values()) {
            List<Waiting> mine = waiting.stream().filter(w -> w.priority() == p).toList();
            Duration limit = routing.maxWait().get(p);
            for (Waiting w : mine) {
                tokensAhead += w.tokens() + condition.completionTokensPerItem();
                ticketsAhead++;
                if (limit != null && !w.fellBack() && expectedWaitMs(condition, tokensAhead, ticketsAhead) > limit.toMillis()) {
                    Optional<String> to = target(route, w, usable);
                    if (to.isPresent()) {
                        moves.add(new Move(w.id(), to.get(), FallbackReason.MAX_WAIT));
                        // it leaves: the tickets behind it no longer wait for it
                        tokensAhead -= w.tokens() + condition.completionTokensPerItem();
                        ticketsAhead--;
                    }
                }
            }
        }
        return moves;
    }

    /** Milliseconds the route needs to admit {@code tokens} in {@code tickets} tickets. */
    static double expectedWaitMs(Condition c, double tokens, int tickets) {
        double byTokens = c.tokensPerMs() > 0 ? tokens / c.tokensPerMs() : 0;
        double calls = Math.ceil(tickets / (double) Math.max(1, c.ticketsPerCall()));
        double byRequests = c.requestsPerMs() > 0 ? calls / c.requestsPerMs() : 0;
        return Math.max(byTokens, byRequests);
    }

    /** The first fallback of {@code route} that is usable and that {@code w} fits alone. */
    private Optional<String> target(RouteSettings route, Waiting w, Predicate<String> usable) {
        return target(route, w.tokens(), w.fellBack(), usable);
    }

    /**
     * The first fallback of {@code route} that is usable and that a ticket of {@code tokens} fits alone; none
     * for a ticket that fell back already ({@code fellBack}: it stays where it is).
     */
    public Optional<String> target(RouteSettings route, int tokens, boolean fellBack, Predicate<String> usable) {
        if (fellBack) {
            return Optional.empty();
        }
        for (String name : route.fallback()) {
            Optional<RouteSettings> to = routing.route(name);
            if (to.isPresent() && usable.test(name) && tokens <= chooser.budget(to.get())) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }
}

package io.quotaflow.status;

import io.quotaflow.records.Priority;

import io.quotaflow.provider.RouteState;
import io.quotaflow.records.TicketKey;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Answers {@code GET /tickets/{id}} from what this instance holds: the ticket's status record
 * (the stores of the tasks it owns) and the live queue of its scope ({@link TicketDirectory}). A
 * ticket found waiting in a queue is {@code pending} whatever its record says (a due retry, a
 * requeued call), with its position and ETA; a {@code pending} one not listed in the published queue
 * (beyond its first {@code QueueViews.LISTED} tickets) is placed by its class's rotation
 * ({@link QueueView#unlisted}: its tenant's turn, from its arrival), and its position says it is
 * estimated ({@code positionEstimated}); a {@code delayed} one, or a pending one the rotation cannot
 * place (not yet in the queue, spilled to disk), waits behind its class's tail, counted with everything
 * waiting (an upper bound); an {@code in-flight} one is done a latency after
 * its call went out; a finished one has no start and ended at its {@code updatedAt}.
 */
public final class TicketLocator {

    private final Function<String, Optional<TicketStatus>> statuses;
    private final TicketDirectory directory;
    private final Function<String, RouteState> routeStates;

    public TicketLocator(Function<String, Optional<TicketStatus>> statuses, TicketDirectory directory) {
        this(statuses, directory, null);
    }

    /**
     * As above; {@code routeStates} gives each route's state (null: none known), carried by every answer
     * naming a route; a pending or delayed ticket on a route that cannot serve has no ETA.
     */
    public TicketLocator(Function<String, Optional<TicketStatus>> statuses, TicketDirectory directory,
                         Function<String, RouteState> routeStates) {
        this.statuses = Objects.requireNonNull(statuses, "statuses");
        this.directory = Objects.requireNonNull(directory, "directory");
        this.routeStates = routeStates;
    }

    /** The status of the ticket whose key ({@link TicketKey}: its id, or {@code tenant:id}) is {@code key}. */
    public TicketAnswer answer(String key, long now) {
        TicketAnswer answer = located(key, now);
        if (routeStates == null || answer.route() == null) {
            return answer;
        }
        RouteState state = routeStates.apply(answer.route());
        TicketAnswer withState = answer.withRouteState(state.text());
        boolean waiting = TicketState.PENDING.wire().equals(answer.state()) || TicketState.DELAYED.wire().equals(answer.state());
        if (!state.canServe() && waiting) {
            // no estimate while the route cannot serve: "now" would be a promise nobody keeps
            return new TicketAnswer(withState.id(), withState.state(), withState.route(), withState.priority(), withState.tenant(),
                    withState.position(), withState.positionEstimated(), null, null, withState.routeState());
        }
        return withState;
    }

    private TicketAnswer located(String key, long now) {
        TicketKey id = TicketKey.parse(key);
        Optional<TicketStatus> found = statuses.apply(id.key());
        Optional<QueueView.Place> place = directory.place(id.key());
        if (found.isEmpty()) {
            return place.map(p -> waiting(id, null, p, now)).orElse(TicketAnswer.unknown(key));
        }
        TicketStatus s = found.get();
        // a queue view is published every half second: one taken before the ticket ended still lists it
        if (place.isPresent() && !(s.state().finished() && s.updatedAt() >= place.get().view().at())) {
            return waiting(id, s.route(), place.get(), now);
        }
        Optional<QueueView> view = Optional.ofNullable(s.route()).flatMap(directory::ofRoute);
        switch (s.state()) {
            case PENDING:
            case DELAYED:
                if (view.isPresent()) {
                    Priority priority = Priority.parse(s.priority()).orElse(Priority.BULK);
                    QueueView.Tail tail = s.state() == TicketState.PENDING
                            ? view.get().unlisted(priority, s.tenant(), s.enqueuedAt()).orElse(view.get().tail(priority))
                            : view.get().tail(priority);
                    Eta.Estimate e = Eta.of(now, tail.tokens(), tail.tickets(), view.get().rates(), s.dueAt(),
                            view.get().retriesAhead(priority).stream()
                                    .filter(r -> s.dueAt() == 0 || r.dueAt() < s.dueAt()).toList());
                    return new TicketAnswer(id.id(), s.state().wire(), s.route(), s.priority(), id.tenant(), tail.tickets(), Boolean.TRUE,
                            TicketAnswer.instant(e.startAt()), TicketAnswer.instant(e.doneAt()));
                }
                return of(id, s, null, null, null);
            case IN_FLIGHT:
                Long done = view.map(v -> Eta.sent(now, s.updatedAt(), v.rates()).doneAt()).orElse(null);
                return of(id, s, 0, s.updatedAt(), done);
            default:
                return of(id, s, null, null, s.updatedAt());
        }
    }

    private static TicketAnswer waiting(TicketKey id, String route, QueueView.Place p, long now) {
        Eta.Estimate e = Eta.of(now, p.tokensAhead(), p.position(), p.view().rates(), 0, p.view().retriesAhead(p.priority()));
        return new TicketAnswer(id.id(), TicketState.PENDING.wire(), route, p.priority().wireName(), id.tenant(), p.position(),
                TicketAnswer.instant(e.startAt()), TicketAnswer.instant(e.doneAt()));
    }

    private static TicketAnswer of(TicketKey id, TicketStatus s, Integer position, Long startAt, Long doneAt) {
        return new TicketAnswer(id.id(), s.state().wire(), s.route(), s.priority(), id.tenant(), position,
                startAt == null ? null : TicketAnswer.instant(startAt), doneAt == null ? null : TicketAnswer.instant(doneAt));
    }
}

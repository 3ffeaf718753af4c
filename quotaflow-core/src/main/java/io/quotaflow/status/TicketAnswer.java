package io.quotaflow.status;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.time.Instant;
import java.util.Objects;

/**
 * The answer of {@code GET /tickets/{id}}: every field is present, null when it does not apply
 * (the ETA of a finished ticket; {@code estimatedDoneAt} of a finished one is when it ended).
 * Times are ISO-8601 instants (UTC). {@code positionEstimated} says whether {@code position} was
 * counted ticket by ticket ({@code false}) or estimated from the queue's counts ({@code true}: a
 * ticket beyond the first {@code QueueViews.LISTED} of its scope, or spilled to disk, is placed
 * behind everything of its class and above: a bound, not a count); null without a position.
 * {@code routeState} is the state of the ticket's route ({@code io.quotaflow.provider.RouteState}); while the
 * route cannot serve, a waiting ticket has no ETA (both estimates null), never one of "now".
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonPropertyOrder({"id", "state", "route", "routeState", "priority", "tenant", "position", "positionEstimated", "estimatedStartAt",
    "estimatedDoneAt"})
public record TicketAnswer(String id, String state, String route, String priority, String tenant, Integer position,
                          Boolean positionEstimated, String estimatedStartAt, String estimatedDoneAt, String routeState) {

    /** An answer without its route's state. */
    public TicketAnswer(String id, String state, String route, String priority, String tenant, Integer position,
                        Boolean positionEstimated, String estimatedStartAt, String estimatedDoneAt) {
        this(id, state, route, priority, tenant, position, positionEstimated, estimatedStartAt, estimatedDoneAt, null);
    }

    /** An answer whose position, if any, was counted. */
    public TicketAnswer(String id, String state, String route, String priority, String tenant, Integer position,
                        String estimatedStartAt, String estimatedDoneAt) {
        this(id, state, route, priority, tenant, position, position == null ? null : Boolean.FALSE, estimatedStartAt, estimatedDoneAt);
    }

    public TicketAnswer {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(state, "state");
    }

    /** The answer for a ticket nobody knows, by its key ({@link io.quotaflow.records.TicketKey}). */
    public static TicketAnswer unknown(String key) {
        io.quotaflow.records.TicketKey id = io.quotaflow.records.TicketKey.parse(key);
        return new TicketAnswer(id.id(), TicketState.UNKNOWN.wire(), null, null, id.tenant(), null, null, null);
    }

    /** The same answer with its route's state ({@code routeState}: {@code ok}, {@code unreachable: connection refused}, ...). */
    public TicketAnswer withRouteState(String value) {
        return new TicketAnswer(id, state, route, priority, tenant, position, positionEstimated, estimatedStartAt, estimatedDoneAt, value);
    }

    public boolean known() {
        return !TicketState.UNKNOWN.wire().equals(state);
    }

    static String instant(long epochMs) {
        return Instant.ofEpochMilli(epochMs).toString();
    }
}

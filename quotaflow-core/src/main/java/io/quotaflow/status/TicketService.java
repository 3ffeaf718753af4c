package io.quotaflow.status;

import org.apache.kafka.common.utils.Time;

import java.util.Objects;

/**
 * {@code GET /tickets/{id}} of one instance: what it knows itself ({@link TicketLocator}), else
 * what another instance knows ({@link TicketForwarder}), unless the request came from another
 * instance ({@code local}), which never forwards again.
 */
public final class TicketService {

    private final TicketLocator locator;
    private final TicketForwarder forwarder;
    private final Time time;

    public TicketService(TicketLocator locator, TicketForwarder forwarder, Time time) {
        this.locator = Objects.requireNonNull(locator, "locator");
        this.forwarder = Objects.requireNonNull(forwarder, "forwarder");
        this.time = Objects.requireNonNull(time, "time");
    }

    public TicketAnswer answer(String id, boolean local) {
        return answer(id, local, Caller.OPEN);
    }

    /**
     * As above, asking the other instances for {@code caller} (who may see {@code id}: the HTTP
     * server checks that before it asks; each peer checks it again).
     */
    public TicketAnswer answer(String id, boolean local, Caller caller) {
        TicketAnswer mine = locator.answer(id, time.milliseconds());
        if (mine.known() || local) {
            return mine;
        }
        return forwarder.ask(id, caller).orElse(mine);
    }
}

package io.quotaflow.status;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * {@code GET /tickets/{id}} of one instance: what it knows itself ({@link TicketLocator}), else
 * what another instance knows ({@link TicketForwarder}), unless the request came from another
 * instance ({@code local}), which never forwards again.
 */
public final class TicketService {

    private final TicketLocator locator;
    private final TicketForwarder forwarder;
    private final LongSupplier clock;

    public TicketService(TicketLocator locator, TicketForwarder forwarder, LongSupplier clock) {
        this.locator = Objects.requireNonNull(locator, "locator");
        this.forwarder = Objects.requireNonNull(forwarder, "forwarder");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public TicketAnswer answer(String id, boolean local) {
        TicketAnswer mine = locator.answer(id, clock.getAsLong());
        if (mine.known() || local) {
            return mine;
        }
        return forwarder.ask(id).orElse(mine);
    }
}

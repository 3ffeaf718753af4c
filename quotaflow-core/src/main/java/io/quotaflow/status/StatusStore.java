package io.quotaflow.status;

import io.quotaflow.cache.ExpiryIndex;
import org.apache.kafka.streams.state.KeyValueStore;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The ticket statuses of a dispatcher task, over two changelogged stores: {@link #STATUS}
 * (ticket id → {@link TicketStatus}) and {@link #EXPIRY}, an index keyed by the zero-padded time a
 * finished status expires and the ticket id, so {@link #sweep} deletes what is due without reading
 * the rest (an {@link ExpiryIndex}, as the cache's answers have). A status not finished never expires:
 * the ticket is still held.
 */
public final class StatusStore {

    /** Ticket id → {@link TicketStatus}. */
    public static final String STATUS = "qf-status";
    /** {@code <zero-padded expiresAt>:<ticket id>} → ticket id. */
    public static final String EXPIRY = "qf-status-expiry";

    private final KeyValueStore<String, TicketStatus> statuses;
    private final ExpiryIndex expiry;
    private final Duration retention;

    public StatusStore(KeyValueStore<String, TicketStatus> statuses, KeyValueStore<String, String> expiry, Duration retention) {
        this.statuses = Objects.requireNonNull(statuses, "statuses");
        this.expiry = new ExpiryIndex(expiry);
        this.retention = Objects.requireNonNull(retention, "retention");
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("status.retention must be > 0, got " + retention);
        }
    }

    /** Records {@code status} of ticket {@code id}; a finished one is indexed to expire after the retention. */
    public void put(String id, TicketStatus status) {
        statuses.put(id, status);
        if (status.state().finished()) {
            expiry.add(status.updatedAt() + retention.toMillis(), id);
        }
    }

    /** Forgets ticket {@code id}: another copy of it, elsewhere, is the one that counts. */
    public void remove(String id) {
        statuses.delete(id);
    }

    public Optional<TicketStatus> get(String id) {
        return Optional.ofNullable(statuses.get(id));
    }

    /**
     * Deletes up to {@code maxEntries} finished statuses whose retention is over at {@code now},
     * oldest first; an index entry whose ticket came back meanwhile (not finished, or finished
     * later) only loses its index entry. Returns the index entries read.
     */
    public int sweep(long now, int maxEntries) {
        List<String> due = expiry.takeDue(now, maxEntries);
        for (String id : due) {
            TicketStatus status = statuses.get(id);
            if (status != null && status.state().finished() && status.updatedAt() + retention.toMillis() <= now) {
                statuses.delete(id);
            }
        }
        return due.size();
    }

    static String indexKey(long expiresAt, String id) {
        return ExpiryIndex.indexKey(expiresAt, id);
    }
}

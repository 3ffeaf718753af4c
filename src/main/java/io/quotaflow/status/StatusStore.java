package io.quotaflow.status;

import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The ticket statuses of a dispatcher task, over two changelogged stores: {@link #STATUS}
 * (ticket id → {@link TicketStatus}) and {@link #EXPIRY}, an index keyed by the zero-padded time a
 * finished status expires and the ticket id, so {@link #sweep} deletes what is due without reading
 * the rest (as {@code io.quotaflow.cache.ResultCache} does). A status not finished never expires:
 * the ticket is still held.
 */
public final class StatusStore {

    /** Ticket id → {@link TicketStatus}. */
    public static final String STATUS = "qf-status";
    /** {@code <zero-padded expiresAt>:<ticket id>} → ticket id. */
    public static final String EXPIRY = "qf-status-expiry";

    private static final int TIME_DIGITS = 19;

    private final KeyValueStore<String, TicketStatus> statuses;
    private final KeyValueStore<String, String> expiry;
    private final Duration retention;

    public StatusStore(KeyValueStore<String, TicketStatus> statuses, KeyValueStore<String, String> expiry, Duration retention) {
        this.statuses = Objects.requireNonNull(statuses, "statuses");
        this.expiry = Objects.requireNonNull(expiry, "expiry");
        this.retention = Objects.requireNonNull(retention, "retention");
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("status.retention must be > 0, got " + retention);
        }
    }

    /** Records {@code status} of ticket {@code id}; a finished one is indexed to expire after the retention. */
    public void put(String id, TicketStatus status) {
        statuses.put(id, status);
        if (status.state().finished()) {
            expiry.put(indexKey(status.updatedAt() + retention.toMillis(), id), id);
        }
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
        if (maxEntries <= 0) {
            throw new IllegalArgumentException("maxEntries must be > 0, got " + maxEntries);
        }
        List<KeyValue<String, String>> due = new ArrayList<>();
        try (KeyValueIterator<String, String> it = expiry.range(null, pad(now) + ";")) {
            while (due.size() < maxEntries && it.hasNext()) {
                due.add(it.next());
            }
        }
        for (KeyValue<String, String> entry : due) {
            expiry.delete(entry.key);
            TicketStatus status = statuses.get(entry.value);
            if (status != null && status.state().finished() && status.updatedAt() + retention.toMillis() <= now) {
                statuses.delete(entry.value);
            }
        }
        return due.size();
    }

    static String indexKey(long expiresAt, String id) {
        return pad(expiresAt) + ":" + id;
    }

    private static String pad(long time) {
        String digits = Long.toString(Math.max(0, time));
        return "0".repeat(TIME_DIGITS - digits.length()) + digits;
    }
}

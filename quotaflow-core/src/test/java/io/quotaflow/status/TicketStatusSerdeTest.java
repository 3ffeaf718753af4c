package io.quotaflow.status;

import io.quotaflow.ticket.BinarySerde;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code qf-status} records are changelogged: one written before {@code publishedAt} existed restores
 * with 0 (no publication known, so it never takes a copy as overtaken), and one written now round-trips.
 */
class TicketStatusSerdeTest {

    private final BinarySerde<TicketStatus> serde = new BinarySerde<>(TicketStatus.class);
    @SuppressWarnings("rawtypes")
    private final BinarySerde<Map> older = new BinarySerde<>(Map.class);

    @Test
    void shouldRestoreAStatusWrittenWithoutItsPublicationAsNotKnown() {
        Map<String, Object> before = new LinkedHashMap<>();
        before.put("state", "CLASSIFIED");
        before.put("route", "default");
        before.put("priority", "interactive");
        before.put("tenant", "acme");
        before.put("enqueuedAt", 1_000L);
        before.put("updatedAt", 2_000L);
        before.put("dueAt", 0L);

        TicketStatus read = serde.deserializer().deserialize("qf-status-changelog", older.serializer().serialize("t", before));

        assertThat(read.state()).isEqualTo(TicketState.CLASSIFIED);
        assertThat(read.priority()).isEqualTo("interactive");
        assertThat(read.publishedAt()).isZero();
    }

    @Test
    void shouldKeepThePublicationOfAStatusThroughTheChangelog() {
        TicketStatus status = new TicketStatus(TicketState.PENDING, "default", "bulk", "acme", 1_000L, 2_000L, 0, null, 900L);

        assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", status))).isEqualTo(status);
    }
}

package io.quotaflow.status;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.quotaflow.status.StatusFixture.NOW;
import static io.quotaflow.status.StatusFixture.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Ticket statuses in the dispatcher's stores: finished ones kept for the retention, swept in bounded steps. */
class StatusStoreTest {

    private static final Duration RETENTION = Duration.ofHours(1);

    private final StatusFixture fixture = new StatusFixture();
    private final StatusStore store = fixture.store(RETENTION);

    @Test
    void shouldKeepTheLatestStatusOfATicket() {
        store.put("T-1", status(TicketState.PENDING, NOW));
        store.put("T-1", status(TicketState.IN_FLIGHT, NOW + 10));

        assertThat(store.get("T-1")).contains(status(TicketState.IN_FLIGHT, NOW + 10));
        assertThat(store.get("T-2")).isEmpty();
        assertThat(fixture.entries(StatusStore.EXPIRY)).as("nothing unfinished is indexed").isZero();
    }

    @Test
    void shouldDeleteAFinishedStatusOnlyOnceItsRetentionIsOver() {
        store.put("T-1", status(TicketState.CLASSIFIED, NOW));
        store.put("T-2", status(TicketState.PENDING, NOW));

        assertThat(store.sweep(NOW + RETENTION.toMillis() - 1, 100)).isZero();
        assertThat(store.get("T-1")).isPresent();
        assertThat(store.sweep(NOW + RETENTION.toMillis(), 100)).isEqualTo(1);
        assertThat(store.get("T-1")).isEmpty();
        assertThat(store.get("T-2")).as("a waiting ticket never expires").isPresent();
        assertThat(fixture.entries(StatusStore.EXPIRY)).isZero();
    }

    @Test
    void shouldKeepATicketThatCameBackAfterItFinished() {
        store.put("T-1", status(TicketState.DEAD_LETTERED, NOW));
        store.put("T-1", status(TicketState.PENDING, NOW + 1_000));

        store.sweep(NOW + RETENTION.toMillis(), 100);

        assertThat(store.get("T-1")).contains(status(TicketState.PENDING, NOW + 1_000));
        assertThat(fixture.entries(StatusStore.EXPIRY)).as("its stale index entry is gone").isZero();
    }

    @Test
    void shouldSweepAtMostTheGivenNumberOldestFirst() {
        for (int i = 0; i < 5; i++) {
            store.put("T-" + i, status(TicketState.CLASSIFIED, NOW + i));
        }

        assertThat(store.sweep(NOW + RETENTION.toMillis() + 10, 2)).isEqualTo(2);
        assertThat(store.get("T-0")).isEmpty();
        assertThat(store.get("T-1")).isEmpty();
        assertThat(store.get("T-2")).isPresent();
        assertThat(store.sweep(NOW + RETENTION.toMillis() + 10, 10)).isEqualTo(3);
        assertThat(fixture.entries(StatusStore.STATUS)).isZero();
    }

    @Test
    void shouldRefuseAZeroRetention() {
        assertThatThrownBy(() -> fixture.store(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}

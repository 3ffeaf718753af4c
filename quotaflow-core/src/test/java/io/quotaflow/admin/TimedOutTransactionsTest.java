package io.quotaflow.admin;

import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class TimedOutTransactionsTest {

    @Test
    void shouldPickOnlyOngoingTransactionsAMarginPastTheirOwnTimeout() {
        long now = 100_000;
        Map<String, TransactionDescription> described = Map.of(
                "app-a-1", ongoing(now - 6_000, 5_000),     // 1 s past its 5 s timeout: due
                "app-b-1", ongoing(now - 5_500, 5_000),     // within the margin (clock skew): not yet
                "app-c-1", ongoing(now - 60_000, 120_000),  // a long timeout of its own: not yet
                "app-d-1", new TransactionDescription(1, TransactionState.PREPARE_ABORT, 4, 0, 5_000, OptionalLong.of(now - 60_000), Set.of()),
                "app-e-1", new TransactionDescription(1, TransactionState.ONGOING, 5, 0, 5_000, OptionalLong.empty(), Set.of()));

        assertThat(TimedOutTransactions.timedOut(described, now)).containsExactly("app-a-1");
    }

    private static TransactionDescription ongoing(long startedAt, long timeoutMs) {
        return new TransactionDescription(1, TransactionState.ONGOING, 3, 0, timeoutMs, OptionalLong.of(startedAt), Set.of());
    }
}

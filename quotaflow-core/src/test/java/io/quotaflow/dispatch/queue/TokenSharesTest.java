package io.quotaflow.dispatch.queue;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class TokenSharesTest {

    /** Serves {@code rounds} tickets to always-backlogged tenants of fixed ticket sizes; returns tokens per tenant. */
    private static Map<String, Long> serve(TokenShares shares, Map<String, Long> sizes, int rounds) {
        List<String> tenants = List.copyOf(sizes.keySet());
        tenants.forEach(shares::join);
        Map<String, Long> served = new HashMap<>();
        for (int i = 0; i < rounds; i++) {
            String t = shares.next(tenants, sizes::get);
            shares.charge(t, sizes.get(t));
            served.merge(t, sizes.get(t), Long::sum);
        }
        return served;
    }

    @Test
    void shouldShareTokensByWeightWhateverTheTicketSizes() {
        TokenShares shares = new TokenShares(t -> t.equals("heavy") ? 3 : 1);
        Map<String, Long> sizes = new java.util.TreeMap<>(Map.of("heavy", 120L, "light", 2_000L));
        Map<String, Long> served = serve(shares, sizes, 4_000);
        double ratio = (double) served.get("heavy") / served.get("light");
        assertThat(ratio).isCloseTo(3.0, within(0.05));
    }

    @Test
    void shouldGiveEqualTokensNotEqualTicketsAtEqualWeights() {
        TokenShares shares = new TokenShares(t -> 1);
        Map<String, Long> sizes = new java.util.TreeMap<>(Map.of("long", 1_000L, "short", 100L));
        Map<String, Long> served = serve(shares, sizes, 2_200);
        assertThat((double) served.get("long") / served.get("short")).isCloseTo(1.0, within(0.02));
    }

    @Test
    void shouldLetANewTenantJoinAtTheLowestServiceNotAtZero() {
        TokenShares shares = new TokenShares(t -> 1);
        shares.join("a");
        shares.join("b");
        shares.charge("a", 5_000);
        shares.charge("b", 4_000);
        shares.join("late");
        assertThat(shares.serviceOf("late")).isEqualTo(4_000.0);
        shares.leave("a");
        shares.join("a");
        assertThat(shares.serviceOf("a")).as("idle time is no credit, and no debt").isEqualTo(4_000.0);
    }

    @Test
    void shouldBreakTiesInRotationOrderAndLeaveTheOriginalUntouchedByACopy() {
        TokenShares shares = new TokenShares(t -> 1);
        shares.join("x");
        shares.join("y");
        assertThat(shares.next(List.of("y", "x"), t -> 10)).isEqualTo("y");
        TokenShares trial = shares.copy();
        trial.charge("y", 10);
        assertThat(trial.next(List.of("y", "x"), t -> 10)).isEqualTo("x");
        assertThat(shares.serviceOf("y")).isZero();
        assertThat(shares.next(List.of(), t -> 10)).isNull();
    }
}

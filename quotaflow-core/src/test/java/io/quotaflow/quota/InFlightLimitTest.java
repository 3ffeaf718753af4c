package io.quotaflow.quota;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InFlightLimitTest {

    @Test
    void shouldKeepAFixedLimit() {
        InFlightLimit fixed = new InFlightLimit(7, 256);
        fixed.answered(10_000);
        assertThat(fixed.limit(1_000, 1e9)).isEqualTo(7);
        assertThat(fixed.auto()).isFalse();
    }

    @Test
    void shouldFollowLittlesLawWithHeadroom() {
        InFlightLimit auto = new InFlightLimit(0, 256);
        assertThat(auto.limit(100, 1e9)).isEqualTo(InFlightLimit.INITIAL_AUTO);
        for (int i = 0; i < 20; i++) {
            auto.admitted(2_500);
            auto.answered(2_300);
        }
        // 2 M TPM at 2 500 tokens a call: 13.3 calls/s × 2.3 s × 1.5 + 2 = 48
        assertThat(auto.limit(10_000 / 60.0, 2_000_000 / 60.0)).isEqualTo(48);
        // RPM binds: 1 call/s × 2.3 s × 1.5 + 2 = 6
        assertThat(auto.limit(1, 2_000_000 / 60.0)).isEqualTo(6);
    }

    @Test
    void shouldGrowWithLatencyUpToTheCeiling() {
        InFlightLimit auto = new InFlightLimit(0, 100);
        for (int i = 0; i < InFlightLimit.WINDOW; i++) {
            auto.admitted(1_000);
            auto.answered(100);
        }
        int fast = auto.limit(50, 1e6);
        for (int i = 0; i < InFlightLimit.WINDOW; i++) {
            auto.answered(4_000);
        }
        int slow = auto.limit(50, 1e6);
        assertThat(fast).as("50 calls/s x 0.1 s x 1.5 + 2").isEqualTo(10);
        assertThat(slow).isEqualTo(100);
    }

    @Test
    void shouldStayUnderWhatTheProviderRefusedForConcurrency() {
        InFlightLimit auto = new InFlightLimit(0, 256);
        auto.concurrencyLimited(12);
        for (int i = 0; i < 10; i++) {
            auto.admitted(100);
            auto.answered(60_000);
        }
        assertThat(auto.limit(1_000, 1e9)).isEqualTo(11);
        assertThat(auto.ceiling()).isEqualTo(11);
    }

    @Test
    void shouldGrowWithTheOldestCallsWaitBeforeTheFirstAnswer() {
        InFlightLimit auto = new InFlightLimit(0, 100);
        for (int i = 0; i < 16; i++) {
            auto.admitted(2_500);
        }
        double rps = 10_000 / 60.0;
        double tps = 2_000_000 / 60.0;
        assertThat(auto.limit(new InFlightLimit.Demand(rps, tps, 0, 0, 0))).as("nothing out yet").isEqualTo(16);
        assertThat(auto.limit(new InFlightLimit.Demand(rps, tps, 0, 0, 500))).as("0.5 s is no reason to go below the start")
                .isEqualTo(16);
        // 13.3 calls/s x at least 1.5 s x 1.5 + 2 = 32
        assertThat(auto.limit(new InFlightLimit.Demand(rps, tps, 0, 0, 1_500))).isEqualTo(32);
        assertThat(auto.limit(new InFlightLimit.Demand(rps, tps, 0, 0, 3_000))).isEqualTo(62);
        assertThat(auto.limit(new InFlightLimit.Demand(rps, tps, 0, 0, 60_000))).as("the ceiling").isEqualTo(100);
        // once an answer says how long calls take, the measured latency rules, not the age
        auto.answered(1_000);
        assertThat(auto.limit(new InFlightLimit.Demand(rps, tps, 0, 0, 60_000))).as("13.3 x 1 s x 1.5 + 2").isEqualTo(22);
    }

    @Test
    void shouldAddTheCallsThatSpendWhatTheBucketsHold() {
        InFlightLimit auto = new InFlightLimit(0, 256);
        for (int i = 0; i < 20; i++) {
            auto.admitted(2_500);
            auto.answered(2_300);
        }
        double rps = 10_000 / 60.0;
        double tps = 2_000_000 / 60.0;
        assertThat(auto.limit(new InFlightLimit.Demand(rps, tps, 0, 0, 0))).isEqualTo(48);
        // 100 000 tokens banked at 2 500 a call: 40 calls more
        assertThat(auto.limit(new InFlightLimit.Demand(rps, tps, 1_000, 100_000, 0))).isEqualTo(88);
        // but never more than the requests banked
        assertThat(auto.limit(new InFlightLimit.Demand(rps, tps, 10.5, 100_000, 0))).isEqualTo(58);
        // a bucket in debt banks nothing
        assertThat(auto.limit(new InFlightLimit.Demand(rps, tps, 1_000, -5_000, 0))).isEqualTo(48);
    }

    @Test
    void shouldAllowTheCeilingWithoutAnyRateLimit() {
        InFlightLimit auto = new InFlightLimit(0, 256);
        assertThat(auto.limit(new InFlightLimit.Demand(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
                Double.POSITIVE_INFINITY, 0))).isEqualTo(InFlightLimit.INITIAL_AUTO);
        auto.admitted(1_000);
        auto.answered(500);
        assertThat(auto.limit(new InFlightLimit.Demand(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
                Double.POSITIVE_INFINITY, 0))).isEqualTo(256);
        // only a token limit: Little's law from it alone (20 000 tokens/s over 1 000-token calls × 0.5 s × 1.5 + 2)
        assertThat(auto.limit(new InFlightLimit.Demand(Double.POSITIVE_INFINITY, 20_000, Double.POSITIVE_INFINITY, 0, 0))).isEqualTo(17);
    }
}

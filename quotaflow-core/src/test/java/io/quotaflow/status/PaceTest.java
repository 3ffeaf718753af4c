package io.quotaflow.status;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The measured pace: admissions over the last minute, between the first and the last, and the mean latency. */
class PaceTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final Eta.Rates FALLBACK = new Eta.Rates(1, 1, 0, false);

    @Test
    void shouldMeasureNothingWithTooLittleHistory() {
        Pace pace = new Pace();
        pace.admitted(T0, 10, 3_000);
        pace.admitted(T0 + 5_000, 10, 3_000);

        assertThat(pace.measured(T0 + 5_000)).isEmpty();
        assertThat(pace.rates(T0 + 5_000, FALLBACK)).isSameAs(FALLBACK);
    }

    @Test
    void shouldMeasureTheRateBetweenTheFirstAndTheLastAdmission() {
        Pace pace = new Pace();
        // an admission every 2 s of 10 tickets and 3,000 tokens: 5 tickets/s, 1,500 tokens/s
        for (int i = 0; i <= 10; i++) {
            pace.admitted(T0 + i * 2_000L, 10, 3_000);
        }

        Eta.Rates rates = pace.measured(T0 + 20_000).orElseThrow();

        assertThat(rates.ticketsPerSecond()).isEqualTo(5.0);
        assertThat(rates.tokensPerSecond()).isEqualTo(1_500.0);
        assertThat(rates.measured()).isTrue();
    }

    @Test
    void shouldForgetAdmissionsOlderThanAMinute() {
        Pace pace = new Pace();
        for (int i = 0; i < 10; i++) {
            pace.admitted(T0 + i * 1_000L, 100, 10_000);
        }
        // later, slower: one ticket every second
        for (int i = 0; i < 10; i++) {
            pace.admitted(T0 + 100_000 + i * 1_000L, 1, 100);
        }

        Eta.Rates rates = pace.measured(T0 + 109_000).orElseThrow();

        assertThat(rates.ticketsPerSecond()).isEqualTo(1.0);
        assertThat(rates.tokensPerSecond()).isEqualTo(100.0);
    }

    @Test
    void shouldAverageTheLatencyOfTheLastCalls() {
        Pace pace = new Pace();
        assertThat(pace.latencyMs()).isZero();
        for (int i = 0; i < 100; i++) {
            pace.answered(10_000);
        }
        for (int i = 0; i < 64; i++) {
            pace.answered(i < 32 ? 400 : 600);
        }

        assertThat(pace.latencyMs()).as("only the last 64 calls count").isEqualTo(500);
    }

    @Test
    void shouldMeasureTheLastTwentySecondsWhenAStartWasSlower() {
        Pace pace = new Pace();
        // 40 s at 2 tickets a second (a cold start), then 20 s at 10 a second
        for (int i = 0; i < 40; i++) {
            pace.admitted(T0 + i * 1_000L, 2, 200, 300);
        }
        for (int i = 0; i <= 20; i++) {
            pace.admitted(T0 + 40_000 + i * 1_000L, 10, 1_000, 1_500);
        }

        Eta.Rates rates = pace.measured(T0 + 60_000).orElseThrow();

        assertThat(rates.ticketsPerSecond()).isEqualTo(10.0);
        assertThat(rates.tokensPerSecond()).isEqualTo(1_000.0);
    }

    @Test
    void shouldMeasureTheMinuteWhileTheLastTwentySecondsHoldTooFewAdmissions() {
        Pace pace = new Pace();
        // one call every 15 s: the last 20 s hold two admissions
        for (int i = 0; i <= 4; i++) {
            pace.admitted(T0 + i * 15_000L, 30, 3_000, 4_000);
        }

        Eta.Rates rates = pace.measured(T0 + 60_000).orElseThrow();

        // the minute from T0: 4 calls after the first, 120 tickets in 60 s
        assertThat(rates.ticketsPerSecond()).isEqualTo(2.0);
    }

    @Test
    void shouldHoldTheMeasuredRateToTheLimitsAtTheChargePerTicket() {
        Pace pace = new Pace();
        // a full bucket's burst: 10 tickets charged 1,500 every 100 ms for 3 s, 15,000 tokens a second
        for (int i = 0; i <= 30; i++) {
            pace.admitted(T0 + i * 100L, 10, 1_000, 1_500);
        }

        Eta.Rates held = pace.measured(T0 + 3_000, new AdmittedRate.Ceiling(3_000, 100)).orElseThrow();

        assertThat(pace.measured(T0 + 3_000).orElseThrow().ticketsPerSecond()).isCloseTo(100.0, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(held.ticketsPerSecond()).as("3,000 charged tokens a second at 150 a ticket")
                .isCloseTo(20.0, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(pace.rates(T0 + 3_000, new AdmittedRate.Ceiling(3_000, 100), FALLBACK)).isEqualTo(held);
    }
}

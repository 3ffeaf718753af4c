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
}

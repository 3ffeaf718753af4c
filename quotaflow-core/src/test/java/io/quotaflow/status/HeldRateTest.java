package io.quotaflow.status;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The pace while the limits bind: what the provider really admitted per second since the limiter first
 * held the scope back, over a decaying window, whatever the limiter charged.
 */
class HeldRateTest {

    private static final long T0 = 1_700_000_000_000L;
    /** What the limits allow, as the limiter prices a ticket: 3,000 charged tokens a second. */
    private static final AdmittedRate.Ceiling CEILING = new AdmittedRate.Ceiling(3_000, 1_000);

    /**
     * A provider admitting 20 tickets a second (a call of 10 every 500 ms, the limiter held back
     * between calls) while the limiter charges 1.4 times what the provider counts: 210 tokens a
     * ticket against a ceiling of 3,000 a second, so the limits at our charge say 14.3 a second.
     */
    private static Pace providerAdmitting20PerSecond(int calls) {
        Pace pace = new Pace();
        for (int i = 0; i < calls; i++) {
            long at = T0 + i * 500L;
            pace.admitted(at, 10, 1_500, 2_100);
            pace.held(at);
        }
        return pace;
    }

    @Test
    void shouldConvergeOnWhatTheProviderAdmitsWhileOurChargeIsOff() {
        Pace pace = providerAdmitting20PerSecond(21);

        Eta.Rates rates = pace.measured(T0 + 10_000, CEILING).orElseThrow();

        assertThat(rates.ticketsPerSecond()).as("within 20 calls (10 s), not the ceiling's 14.3").isCloseTo(20.0, within(0.01));
        assertThat(rates.tokensPerSecond()).as("150 estimated tokens a ticket").isCloseTo(3_000.0, within(1.0));
        assertThat(rates.measured()).isTrue();
    }

    @Test
    void shouldHoldAnUnboundRateToTheLimitsAtTheCharge() {
        Pace pace = new Pace();
        // the same admissions, but the limiter never held the scope back: nothing says the limits bind
        for (int i = 0; i < 9; i++) {
            pace.admitted(T0 + i * 500L, 10, 1_500, 2_100);
        }

        Eta.Rates rates = pace.measured(T0 + 4_000, CEILING).orElseThrow();

        assertThat(rates.ticketsPerSecond()).isCloseTo(3_000.0 / 210, within(0.01));
    }

    @Test
    void shouldLeaveAFullBucketsFirstBurstOut() {
        Pace pace = new Pace();
        // a full bucket: 50 calls of 10 in the first tick, then the limiter holds and admits a call every 500 ms
        for (int i = 0; i < 50; i++) {
            pace.admitted(T0, 10, 1_500, 2_100);
        }
        pace.held(T0);
        for (int i = 1; i <= 20; i++) {
            pace.admitted(T0 + i * 500L, 10, 1_500, 2_100);
            pace.held(T0 + i * 500L);
        }

        Eta.Rates rates = pace.measured(T0 + 10_000, AdmittedRate.Ceiling.NONE).orElseThrow();

        assertThat(rates.ticketsPerSecond()).as("the 500 tickets of the burst are not the pace").isCloseTo(20.0, within(0.01));
    }

    @Test
    void shouldFollowASlowerProviderWithinAHalfMinute() {
        Pace pace = providerAdmitting20PerSecond(120); // a minute at 20 a second
        // then the provider admits 10 a second: a call of 10 every second
        long start = T0 + 120 * 500L;
        for (int i = 0; i < 30; i++) {
            pace.admitted(start + i * 1_000L, 10, 1_500, 2_100);
            pace.held(start + i * 1_000L);
        }
        long now = start + 29_000;
        Eta.Rates after30s = pace.measured(now, AdmittedRate.Ceiling.NONE).orElseThrow();
        for (int i = 30; i < 90; i++) {
            pace.admitted(start + i * 1_000L, 10, 1_500, 2_100);
            pace.held(start + i * 1_000L);
        }
        Eta.Rates after90s = pace.measured(start + 89_000, AdmittedRate.Ceiling.NONE).orElseThrow();

        assertThat(after30s.ticketsPerSecond()).as("most of the way from 20 to 10").isBetween(10.0, 14.0);
        assertThat(after90s.ticketsPerSecond()).isCloseTo(10.0, within(0.5));
    }

    @Test
    void shouldScaleTheWaitWithThePositionAtTheProvidersRate() {
        Pace pace = providerAdmitting20PerSecond(41);
        long now = T0 + 20_000;
        Eta.Rates rates = pace.measured(now, CEILING).orElseThrow();

        Eta.Estimate at200 = Eta.of(now, 200 * 150L, 200, rates, 0);
        Eta.Estimate at2000 = Eta.of(now, 2_000 * 150L, 2_000, rates, 0);

        assertThat(at200.startAt() - now).as("200 ahead at 20 a second").isCloseTo(10_000L, within(20L));
        assertThat(at2000.startAt() - now).as("ten times as many ahead, ten times the wait").isCloseTo(100_000L, within(200L));
    }

    @Test
    void shouldEndAStretchWhenTheScopeRunsDry() {
        Pace pace = providerAdmitting20PerSecond(40);
        // the queue ran dry; 30 s later a trickle, one ticket every 5 s, never held back
        long start = T0 + 40 * 500L + 30_000;
        for (int i = 0; i < 12; i++) {
            pace.admitted(start + i * 5_000L, 1, 150, 210);
        }

        Eta.Rates rates = pace.measured(start + 55_000, CEILING).orElseThrow();

        assertThat(rates.ticketsPerSecond()).as("the trickle as admitted, not the backlog of a minute ago").isCloseTo(0.2, within(0.01));
    }

    @Test
    void shouldMeasureNothingBeforeThreeHeldAdmissions() {
        Pace pace = new Pace();
        pace.held(T0);
        pace.admitted(T0 + 1_000, 10, 1_500, 2_100);
        pace.held(T0 + 1_000);
        pace.admitted(T0 + 2_000, 10, 1_500, 2_100);

        assertThat(pace.measured(T0 + 2_000, CEILING)).isEmpty();
    }

    @Test
    void shouldHoldTheFirstTenSecondsAfterAHoldToTheLimitsAtOurCharge() {
        Pace early = providerAdmitting20PerSecond(20); // 9.5 s after the first hold

        assertThat(early.measured(T0 + 9_500, CEILING).orElseThrow().ticketsPerSecond())
                .as("the rest of a provider's burst may still be in it: the ceiling until ten seconds are measured")
                .isCloseTo(3_000.0 / 210, within(0.01));
    }
}

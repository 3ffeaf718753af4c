package io.quotaflow.status;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The route's pace from what its limiter admitted: tickets as admitted, held to the limits at the same admissions' cost per ticket. */
class AdmittedRateTest {

    /** 200k TPM, 500 RPM at a safety factor of 0.9: 3,000 charged tokens and 7.5 calls a second. */
    private static final AdmittedRate.Ceiling LIMITS = AdmittedRate.Ceiling.perMinute(200_000, 500, 0.9);

    @Test
    void shouldTakeTheTicketsAsAdmittedBelowTheLimits() {
        // 10 s: 20 calls of 10 tickets of 100 tokens each, charged 1,500 a call (prompt as the provider counts it + max_tokens)
        var sums = new AdmittedRate.Sums(10, 20, 200, 20_000, 30_000);

        Eta.Rates rates = AdmittedRate.of(sums, LIMITS, 1_900).orElseThrow();

        assertThat(rates.ticketsPerSecond()).isEqualTo(20.0);
        assertThat(rates.tokensPerSecond()).as("our estimate of the tickets' tokens, not the charge").isEqualTo(2_000.0);
        assertThat(rates.latencyMs()).isEqualTo(1_900);
        assertThat(rates.measured()).isTrue();
    }

    @Test
    void shouldHoldAFullBucketsBurstToTheTokenLimitAtTheChargePerTicket() {
        // a bucket that started full let 60,000 charged tokens out in 10 s: twice the limit of 3,000 a second
        var sums = new AdmittedRate.Sums(10, 40, 400, 40_000, 60_000);

        Eta.Rates rates = AdmittedRate.of(sums, LIMITS, 0).orElseThrow();

        // 150 charged tokens a ticket: 3,000 / 150 = 20 tickets a second, 100 of our tokens each
        assertThat(rates.ticketsPerSecond()).isCloseTo(20.0, within(1e-9));
        assertThat(rates.tokensPerSecond()).isCloseTo(2_000.0, within(1e-6));
    }

    @Test
    void shouldConvertTheTokenLimitWithWhatTheProviderCountsNotWhatWeCount() {
        // a provider counting 30 % more than our estimate: same tickets, same ticket tokens, charged 1.3 times as much
        var ours = AdmittedRate.of(new AdmittedRate.Sums(10, 40, 400, 40_000, 60_000), LIMITS, 0).orElseThrow();
        var theirs = AdmittedRate.of(new AdmittedRate.Sums(10, 40, 400, 40_000, 78_000), LIMITS, 0).orElseThrow();

        assertThat(theirs.ticketsPerSecond()).isCloseTo(ours.ticketsPerSecond() / 1.3, within(1e-9));
    }

    @Test
    void shouldHoldTheRateToTheRequestLimitAtTheTicketsPerCall() {
        // 30 calls a second of 2 tickets, cheap: the 7.5 calls a second bind
        var sums = new AdmittedRate.Sums(10, 300, 600, 6_000, 30_000);

        Eta.Rates rates = AdmittedRate.of(sums, LIMITS, 0).orElseThrow();

        assertThat(rates.ticketsPerSecond()).isCloseTo(15.0, within(1e-9));
        assertThat(rates.tokensPerSecond()).isCloseTo(150.0, within(1e-9));
    }

    @Test
    void shouldTakeTheAdmissionsAsTheyAreWithoutLimitsOrCharges() {
        var sums = new AdmittedRate.Sums(4, 8, 80, 8_000, 0);

        assertThat(AdmittedRate.of(sums, AdmittedRate.Ceiling.NONE, 0).orElseThrow().ticketsPerSecond()).isEqualTo(20.0);
        assertThat(AdmittedRate.of(sums, LIMITS, 0).orElseThrow().ticketsPerSecond()).as("no charge known: only the calls bind")
                .isEqualTo(20.0);
    }

    @Test
    void shouldMeasureNothingWithoutATicket() {
        assertThat(AdmittedRate.of(new AdmittedRate.Sums(5, 0, 0, 0, 0), LIMITS, 0)).isEmpty();
        assertThatThrownBy(() -> new AdmittedRate.Sums(0, 1, 1, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AdmittedRate.Ceiling(0, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}

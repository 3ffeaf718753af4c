package io.quotaflow.quota;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TransitBoundTest {

    private static final long MS = 1_000_000L;

    @Test
    void shouldBoundByTheMaximumBeforeAnyAnswer() {
        assertThat(new TransitBound().nanos()).isEqualTo(TransitBound.MAX_NANOS).isEqualTo(500 * MS);
    }

    @Test
    void shouldFollowTheQuickestRoundTripOfAQuickProvider() {
        TransitBound transit = new TransitBound();
        transit.observe(420 * MS);
        transit.observe(180 * MS);
        transit.observe(350 * MS);

        assertThat(transit.nanos()).isEqualTo(180 * MS);
    }

    @Test
    void shouldNeverExceedTheMaximumOnASlowProvider() {
        TransitBound transit = new TransitBound();
        for (int i = 0; i < 10; i++) {
            transit.observe((1_500 + i * 100) * MS);
        }

        assertThat(transit.nanos()).isEqualTo(TransitBound.MAX_NANOS);
    }

    @Test
    void shouldForgetAQuickRoundTripOnceTheWindowHasMovedOn() {
        TransitBound transit = new TransitBound();
        transit.observe(50 * MS);
        for (int i = 0; i < TransitBound.WINDOW - 1; i++) {
            transit.observe(300 * MS);
        }
        assertThat(transit.nanos()).isEqualTo(50 * MS);

        transit.observe(300 * MS);

        assertThat(transit.nanos()).isEqualTo(300 * MS);
    }

    @Test
    void shouldIgnoreRoundTripsThatAreNotPositive() {
        TransitBound transit = new TransitBound();
        transit.observe(0);
        transit.observe(-5 * MS);

        assertThat(transit.nanos()).isEqualTo(TransitBound.MAX_NANOS);
    }
}

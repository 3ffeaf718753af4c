package io.quotaflow.metrics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MinuteWindowTest {

    @Test
    void shouldSumWhatWasAddedInTheLastSixtySeconds() {
        MinuteWindow w = new MinuteWindow();
        w.add(1_000, 5);
        w.add(1_999, 5);
        w.add(30_000, 7);
        assertThat(w.sum(30_000)).isEqualTo(17);
        assertThat(w.sum(60_999)).isEqualTo(17);
        assertThat(w.sum(61_000)).as("second 1 has left the window").isEqualTo(7);
        assertThat(w.sum(90_000)).isZero();
    }

    @Test
    void shouldReuseASlotForANewSecondWithoutKeepingItsOldSum() {
        MinuteWindow w = new MinuteWindow();
        w.add(0, 100);
        w.add(60_000, 1);
        assertThat(w.sum(60_000)).isEqualTo(1);
    }

    @Test
    void shouldIgnoreAdditionsFromTheFutureOfTheQuestion() {
        MinuteWindow w = new MinuteWindow();
        w.add(10_000, 3);
        assertThat(w.sum(5_000)).isZero();
    }
}

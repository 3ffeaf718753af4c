package io.quotaflow.dispatch.limit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class TickLatenessTest {

    private static final long T0 = 1_767_225_600_000L;

    @Test
    void shouldReadNothingWhileTicksComeOnTime() {
        TickLateness ticks = new TickLateness(50);
        for (long t = T0; t <= T0 + 10_000; t += 50) {
            ticks.tick(t);
        }
        assertThat(ticks.lateMs()).isZero();
    }

    @Test
    void shouldKeepTheLatestLatenessAndHalveItEveryThirtySeconds() {
        TickLateness ticks = new TickLateness(50);
        ticks.tick(T0);
        ticks.tick(T0 + 300);
        assertThat(ticks.lateMs()).isEqualTo(250);
        long t = T0 + 300;
        for (; t < T0 + 300 + TickLateness.HALF_LIFE_MS; t += 50) {
            ticks.tick(t + 50);
        }
        assertThat(ticks.lateMs()).as("ticks on time since: halved after 30 s").isCloseTo(125, within(0.01));
        ticks.tick(t + 250);
        assertThat(ticks.lateMs()).as("a new one above the decayed one").isCloseTo(200, within(0.01));
        ticks.tick(t + 350);
        assertThat(ticks.lateMs()).as("a smaller one does not lower it").isCloseTo(200, within(1.0));
    }

    @Test
    void shouldCapALatenessAtHalfASecondAndStartOverWhenTheClockGoesBack() {
        TickLateness ticks = new TickLateness(50);
        ticks.tick(T0);
        ticks.tick(T0 + 3_600_000);
        assertThat(ticks.lateMs()).as("a wall-clock step forward, or a suspended machine").isEqualTo(TickLateness.MAX_MS);
        long t = T0 + 3_600_000;
        for (; t < T0 + 3_600_000 + TickLateness.HALF_LIFE_MS; t += 50) {
            ticks.tick(t + 50);
        }
        assertThat(ticks.lateMs()).as("then halved by 30 s of ticks on time").isCloseTo(250, within(0.01));
        ticks.tick(T0);
        assertThat(ticks.lateMs()).as("the clock stepped back an hour: starts over").isZero();
        ticks.tick(T0 + 50);
        assertThat(ticks.lateMs()).isZero();
    }
}

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
        assertThat(ticks.lateMs(T0 + 10_000)).isZero();
    }

    @Test
    void shouldKeepTheLatestLatenessAndHalveItEveryThirtySeconds() {
        TickLateness ticks = new TickLateness(50);
        ticks.tick(T0);
        ticks.tick(T0 + 300);
        assertThat(ticks.lateMs(T0 + 300)).isEqualTo(250);
        long t = T0 + 300;
        for (; t < T0 + 300 + TickLateness.HALF_LIFE_MS; t += 50) {
            ticks.tick(t + 50);
        }
        assertThat(ticks.lateMs(t)).as("ticks on time since: halved after 30 s").isCloseTo(125, within(0.01));
        ticks.tick(t + 250);
        assertThat(ticks.lateMs(t + 250)).as("a new one above the decayed one").isCloseTo(200, within(0.01));
        ticks.tick(t + 350);
        assertThat(ticks.lateMs(t + 350)).as("a smaller one does not lower it").isCloseTo(200, within(1.0));
    }

    @Test
    void shouldCapALatenessAtHalfASecondAndIgnoreAClockGoingBack() {
        TickLateness ticks = new TickLateness(50);
        ticks.tick(T0);
        ticks.tick(T0 + 3_600_000);
        assertThat(ticks.lateMs(T0 + 3_600_000)).as("a suspended machine's tick").isEqualTo(TickLateness.MAX_MS);
        TickLateness back = new TickLateness(50);
        back.tick(T0);
        back.tick(T0 - 5_000);
        back.tick(T0 + 50);
        assertThat(back.lateMs(T0 + 50)).isZero();
    }
}

package io.quotaflow.quota;

import io.quotaflow.testkit.ManualTime;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EpochNanoClockTest {

    @Test
    void shouldReadNanosecondsSinceTheEpochThatNeverGoBack() {
        long before = System.currentTimeMillis();
        EpochNanoClock clock = EpochNanoClock.of(Time.SYSTEM);
        long first = clock.epochNanos();
        long after = System.currentTimeMillis();
        assertThat(first / 1_000_000L).isBetween(before - 1, after + 1);
        long previous = first;
        for (int i = 0; i < 10_000; i++) {
            long next = clock.epochNanos();
            assertThat(next).isGreaterThanOrEqualTo(previous);
            previous = next;
        }
    }

    @Test
    void shouldReadTheInjectedTimeToTheNanosecond() {
        ManualTime time = new ManualTime(1_700_000_000_000L);
        EpochNanoClock clock = EpochNanoClock.of(time);
        assertThat(clock.epochNanos()).isEqualTo(1_700_000_000_000L * 1_000_000L);

        time.advanceNanos(1_234);
        time.sleep(5);

        assertThat(clock.epochNanos()).isEqualTo(1_700_000_000_000L * 1_000_000L + 5_000_000L + 1_234);
    }
}

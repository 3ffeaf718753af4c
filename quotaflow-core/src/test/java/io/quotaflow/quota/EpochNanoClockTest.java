package io.quotaflow.quota;

import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EpochNanoClockTest {

    @Test
    void shouldReadNanosecondsSinceTheEpochThatNeverGoBack() {
        long before = System.currentTimeMillis();
        EpochNanoClock clock = EpochNanoClock.of(Time.SYSTEM);
        long first = clock.getAsLong();
        long after = System.currentTimeMillis();
        assertThat(first / 1_000_000L).isBetween(before - 1, after + 1);
        long previous = first;
        for (int i = 0; i < 10_000; i++) {
            long next = clock.getAsLong();
            assertThat(next).isGreaterThanOrEqualTo(previous);
            previous = next;
        }
    }
}

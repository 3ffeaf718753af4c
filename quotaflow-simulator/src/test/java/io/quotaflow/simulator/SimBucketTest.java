package io.quotaflow.simulator;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SimBucketTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    private SimBucket bucket(double limitPerMinute, double burstSeconds) {
        return new SimBucket(limitPerMinute, burstSeconds, nanos::get);
    }

    private void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    @Test
    void shouldStartFullAtLimitTimesBurstOverSixty() {
        SimBucket b = bucket(600, 5);
        assertThat(b.capacity()).isEqualTo(50.0);
        assertThat(b.available()).isEqualTo(50.0);
        assertThat(b.remaining()).isEqualTo(50);
        assertThat(b.timeUntilFull()).isEqualTo(Duration.ZERO);
    }

    @Test
    void shouldNotGrantAFullMinuteBurst() {
        SimBucket b = bucket(600, 5);
        int granted = 0;
        while (b.tryTake(1)) {
            granted++;
        }
        assertThat(granted).isEqualTo(50);
        assertThat(b.tryTake(1)).isFalse();
    }

    @Test
    void shouldRefillContinuouslyAtLimitPerSixtySeconds() {
        SimBucket b = bucket(600, 5); // 10 per second
        assertThat(b.tryTake(50)).isTrue();
        assertThat(b.available()).isCloseTo(0.0, within(1e-9));

        advance(Duration.ofMillis(100));
        assertThat(b.available()).isCloseTo(1.0, within(1e-9));
        advance(Duration.ofMillis(1_400));
        assertThat(b.available()).isCloseTo(15.0, within(1e-9));
        assertThat(b.remaining()).isEqualTo(15);
    }

    @Test
    void shouldCapTheLevelAtCapacity() {
        SimBucket b = bucket(200_000, 5);
        b.tryTake(10_000);
        advance(Duration.ofHours(1));
        assertThat(b.available()).isCloseTo(b.capacity(), within(1e-9));
        assertThat(b.timeUntilFull()).isEqualTo(Duration.ZERO);
    }

    @Test
    void shouldReportTimeUntilAvailableAndFull() {
        SimBucket b = bucket(600, 5);
        b.tryTake(50);
        assertThat(b.timeUntilAvailable(3)).isEqualTo(Duration.ofMillis(300));
        assertThat(b.timeUntilFull()).isEqualTo(Duration.ofSeconds(5));

        advance(b.timeUntilAvailable(3));
        assertThat(b.canTake(3)).isTrue();
        assertThat(b.canTake(4)).isFalse();
        assertThat(b.timeUntilAvailable(3)).isEqualTo(Duration.ZERO);
    }

    @Test
    void shouldLeaveLevelUnchangedWhenRefusing() {
        SimBucket b = bucket(600, 5);
        b.tryTake(45);
        assertThat(b.tryTake(6)).isFalse();
        assertThat(b.available()).isCloseTo(5.0, within(1e-9));
    }

    @Test
    void shouldGrantOversizeAmountOnlyWhenFullAndRepayTheDebt() {
        SimBucket b = bucket(12, 2); // capacity 0.4, 0.2 per second
        assertThat(b.capacity()).isCloseTo(0.4, within(1e-12));
        assertThat(b.tryTake(1)).isTrue();
        assertThat(b.available()).isCloseTo(-0.6, within(1e-9));
        assertThat(b.remaining()).isZero();
        assertThat(b.timeUntilAvailable(1)).isEqualTo(Duration.ofSeconds(5)); // back to full (0.4)

        advance(Duration.ofMillis(4_999));
        assertThat(b.tryTake(1)).isFalse();
        advance(Duration.ofMillis(1));
        assertThat(b.tryTake(1)).isTrue();
    }

    @Test
    void shouldNeverExceedTheLimitOverALongRun() {
        SimBucket b = bucket(600, 5);
        long granted = 0;
        for (int ms = 0; ms < 60_000; ms++) {
            while (b.tryTake(1)) {
                granted++;
            }
            advance(Duration.ofMillis(1));
        }
        // one minute: the initial burst (50) plus one minute of refill (600)
        assertThat(granted).isBetween(649L, 650L);
    }

    @Test
    void shouldResetToFull() {
        SimBucket b = bucket(600, 5);
        b.tryTake(50);
        b.reset();
        assertThat(b.available()).isEqualTo(50.0);
    }

    @Test
    void shouldHoldAndStartWithAFullMinuteAtSixtyBurstSeconds() {
        SimBucket b = bucket(6_000, 60);
        assertThat(b.capacity()).isEqualTo(6_000.0);
        assertThat(b.startLevel()).isEqualTo(1.0);
        assertThat(b.remaining()).isEqualTo(6_000);
        assertThat(b.tryTake(6_000)).isTrue();
        assertThat(b.tryTake(1)).isFalse();
        assertThat(b.timeUntilFull()).isEqualTo(Duration.ofMinutes(1));
        advance(Duration.ofSeconds(30));
        assertThat(b.remaining()).isEqualTo(3_000);
    }

    @Test
    void shouldStartAtTheConfiguredLevel() {
        SimBucket empty = new SimBucket(600, 60, 0.0, nanos::get);
        assertThat(empty.available()).isZero();
        assertThat(empty.canTake(1)).isFalse();
        assertThat(empty.timeUntilFull()).isEqualTo(Duration.ofMinutes(1));
        assertThat(empty.timeUntilAvailable(10)).isEqualTo(Duration.ofSeconds(1));
        advance(Duration.ofSeconds(1));
        assertThat(empty.tryTake(10)).isTrue();

        SimBucket half = new SimBucket(600, 10, 0.5, nanos::get);
        assertThat(half.available()).isEqualTo(50.0);
        half.tryTake(50);
        half.reset();
        assertThat(half.available()).isEqualTo(50.0);
    }

    @Test
    void shouldRejectInvalidArguments() {
        assertThatThrownBy(() -> new SimBucket(100, 5, 1.5, nanos::get)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SimBucket(100, 5, -0.1, nanos::get)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SimBucket(100, 5, Double.NaN, nanos::get)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> bucket(0, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> bucket(100, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> bucket(100, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> bucket(100, 5).tryTake(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}

package io.quotaflow.dlq;

import io.quotaflow.testkit.ManualTime;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** The pacer on a manual clock: every wait it asks for is recorded and moves the clock, nothing sleeps. */
class ReplayPacerTest {

    private static final long MS = 1_000_000L;

    private final ManualTime now = new ManualTime(5_000);
    private final List<Long> sleeps = new ArrayList<>();
    private final ReplayClock clock = ReplayClock.of(now, nanos -> {
        sleeps.add(nanos);
        now.advanceNanos(nanos);
    });
    private final AtomicBoolean stop = new AtomicBoolean();

    private long totalSleptNanos() {
        return sleeps.stream().mapToLong(Long::longValue).sum();
    }

    @Test
    void shouldAskForAboutTwoSecondsOfSleepsToPaceOneHundredRecordsAtFiftyPerSecond() throws Exception {
        ReplayPacer pacer = new ReplayPacer(50, clock);
        long started = System.nanoTime();

        for (int i = 0; i < 100; i++) {
            assertThat(pacer.acquire(stop)).isTrue();
        }

        assertThat(totalSleptNanos()).as("the first record at once, then 99 gaps of 20 ms").isEqualTo(99 * 20 * MS);
        assertThat(now.nanoseconds() - 5_000 * MS).isEqualTo(1_980 * MS);
        assertThat(sleeps).allSatisfy(s -> assertThat(s).isPositive().isLessThanOrEqualTo(ReplayPacer.MAX_SLEEP_NANOS));
        assertThat((System.nanoTime() - started) / MS).as("no real sleeping").isLessThan(1_000);
    }

    @Test
    void shouldNeverSleepAtRateZero() throws Exception {
        ReplayPacer pacer = new ReplayPacer(0, clock);

        for (int i = 0; i < 100; i++) {
            assertThat(pacer.acquire(stop)).isTrue();
        }

        assertThat(sleeps).isEmpty();
        assertThat(now.nanoseconds()).isEqualTo(5_000 * MS);
    }

    @Test
    void shouldWaitInSlicesOfAtMostOneHundredMillisecondsAtALowRate() throws Exception {
        ReplayPacer pacer = new ReplayPacer(2, clock);

        pacer.acquire(stop);
        pacer.acquire(stop);

        assertThat(sleeps).containsExactly(100 * MS, 100 * MS, 100 * MS, 100 * MS, 100 * MS);
    }

    @Test
    void shouldNotBurstToCatchUpAfterASlowSpell() throws Exception {
        ReplayPacer pacer = new ReplayPacer(50, clock);
        pacer.acquire(stop);
        now.advanceNanos(1_000 * MS);  // the writes stalled for a second

        pacer.acquire(stop);
        assertThat(sleeps).as("the slot is long past: at once").isEmpty();
        pacer.acquire(stop);

        assertThat(totalSleptNanos()).as("then a whole interval again, not 50 records at once").isEqualTo(20 * MS);
    }

    @Test
    void shouldGiveUpWaitingWhenAStopIsRequested() throws Exception {
        ReplayClock stopping = ReplayClock.of(now, nanos -> {
            sleeps.add(nanos);
            now.advanceNanos(nanos);
            stop.set(true);
        });
        ReplayPacer slow = new ReplayPacer(1, stopping);
        assertThat(slow.acquire(stop)).isTrue();

        assertThat(slow.acquire(stop)).as("one slice, then the stop is seen").isFalse();
        assertThat(sleeps).containsExactly(100 * MS);
    }
}

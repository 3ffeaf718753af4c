package io.quotaflow.testkit;

import org.apache.kafka.common.utils.Time;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Kafka {@link Time} a test sets and moves by hand; {@link #sleep} moves it instead of waiting.
 * Kafka's own {@code MockTime} lives in kafka-clients' test jar, which the build does not take, so
 * this is the few lines of it the tests need. The wall clock and the monotonic clock are one
 * counter of nanoseconds since the epoch, so they move together; thread-safe.
 */
public final class ManualTime implements Time {

    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final AtomicLong epochNanos;

    /** A time reading {@code epochMs} milliseconds since the epoch. */
    public ManualTime(long epochMs) {
        this.epochNanos = new AtomicLong(Math.multiplyExact(epochMs, NANOS_PER_MILLI));
    }

    /** A time reading {@code at}. */
    public static ManualTime at(Instant at) {
        ManualTime time = new ManualTime(at.toEpochMilli());
        time.advanceNanos(at.getNano() % NANOS_PER_MILLI);
        return time;
    }

    /** Moves the time on by {@code nanos} (a negative value moves it back). */
    public void advanceNanos(long nanos) {
        epochNanos.addAndGet(nanos);
    }

    /** Moves the time on by {@code ms} milliseconds. */
    public void advanceMs(long ms) {
        advanceNanos(Math.multiplyExact(ms, NANOS_PER_MILLI));
    }

    /** Moves the time on by {@code by}. */
    public void advance(Duration by) {
        advanceNanos(by.toNanos());
    }

    /** Sets the time to {@code epochMs} milliseconds since the epoch. */
    public void setMs(long epochMs) {
        epochNanos.set(Math.multiplyExact(epochMs, NANOS_PER_MILLI));
    }

    @Override
    public long milliseconds() {
        return Math.floorDiv(epochNanos.get(), NANOS_PER_MILLI);
    }

    @Override
    public long nanoseconds() {
        return epochNanos.get();
    }

    /** Moves the time on by {@code ms} instead of waiting. */
    @Override
    public void sleep(long ms) {
        advanceMs(ms);
    }
}

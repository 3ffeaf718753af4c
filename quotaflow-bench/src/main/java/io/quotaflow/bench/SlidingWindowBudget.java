package io.quotaflow.bench;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The baseline's token budget: a sliding window (60 s) of reservations whose sum may not exceed a
 * budget (0.85 × TPM). A reservation is added before a call and stays in the window, with the time
 * it was made, until the window has slid past it; after the answer it is corrected to the tokens the
 * provider reported ({@code usage.total_tokens}). Nothing else: no refill rate, no burst limit, no
 * idea of what the provider charged ({@code prompt + max_tokens}) as against what it reported.
 *
 * <p>A reservation larger than the whole budget is let through when the window is empty (otherwise it
 * could never go; the baseline's job had no such case, its groups were small).
 *
 * <p>Thread-safe. {@link #tryReserve} and {@link #correct} are pure bookkeeping at a given time (unit
 * tests drive them); {@link #reserve} blocks on the real clock until the window has room.
 */
public final class SlidingWindowBudget {

    /** One reservation; {@link #tokens} changes once, when it is corrected. */
    public static final class Reservation {
        private final long atNanos;
        private long tokens;

        private Reservation(long atNanos, long tokens) {
            this.atNanos = atNanos;
            this.tokens = tokens;
        }

        public long atNanos() {
            return atNanos;
        }

        public synchronized long tokens() {
            return tokens;
        }
    }

    private final long budget;
    private final long windowNanos;
    private final LongSupplier nanoClock;
    private final Deque<Reservation> entries = new ArrayDeque<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long sum;
    private long waits;

    /**
     * @param budget    most tokens reserved within one window
     * @param window    the window's length (60 s)
     * @param nanoClock monotonic clock
     */
    public SlidingWindowBudget(long budget, Duration window, LongSupplier nanoClock) {
        if (budget < 1) {
            throw new IllegalArgumentException("budget must be >= 1: " + budget);
        }
        this.budget = budget;
        this.windowNanos = Objects.requireNonNull(window, "window").toNanos();
        if (windowNanos <= 0) {
            throw new IllegalArgumentException("window must be > 0");
        }
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    /** {@code fraction × tpm} over 60 s, on the system clock: the baseline's {@code 0.85 × TPM}. */
    public static SlidingWindowBudget ofTpm(long tpm, double fraction) {
        return new SlidingWindowBudget(Math.max(1, (long) Math.floor(tpm * fraction)), Duration.ofSeconds(60), System::nanoTime);
    }

    public long budget() {
        return budget;
    }

    /**
     * Reserves {@code tokens} at {@code nowNanos} when the window has room for them, else returns null
     * and reserves nothing.
     */
    public Reservation tryReserve(long tokens, long nowNanos) {
        if (tokens < 0) {
            throw new IllegalArgumentException("tokens must be >= 0: " + tokens);
        }
        lock.lock();
        try {
            expire(nowNanos);
            if (sum + tokens > budget && !entries.isEmpty()) {
                return null;
            }
            Reservation r = new Reservation(nowNanos, tokens);
            entries.addLast(r);
            sum += tokens;
            return r;
        } finally {
            lock.unlock();
        }
    }

    /**
     * How long from {@code nowNanos} until the oldest reservation leaves the window (0 when the
     * window is empty): the most a blocked {@link #reserve} waits before it looks again.
     */
    public long nanosUntilNextExpiry(long nowNanos) {
        lock.lock();
        try {
            expire(nowNanos);
            Reservation oldest = entries.peekFirst();
            return oldest == null ? 0 : Math.max(0, oldest.atNanos + windowNanos - nowNanos);
        } finally {
            lock.unlock();
        }
    }

    /** Blocks until {@code tokens} fit in the window, then reserves them. */
    public Reservation reserve(long tokens) throws InterruptedException {
        lock.lock();
        try {
            boolean waited = false;
            while (true) {
                long now = nanoClock.getAsLong();
                Reservation r = tryReserve(tokens, now);
                if (r != null) {
                    if (waited) {
                        waits++;
                    }
                    return r;
                }
                waited = true;
                long wait = nanosUntilNextExpiry(now);
                changed.await(Math.max(1_000_000L, wait), TimeUnit.NANOSECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Replaces what {@code reservation} holds with {@code actualTokens} (the provider's {@code usage.total_tokens}). */
    public void correct(Reservation reservation, long actualTokens) {
        Objects.requireNonNull(reservation, "reservation");
        if (actualTokens < 0) {
            throw new IllegalArgumentException("actualTokens must be >= 0: " + actualTokens);
        }
        lock.lock();
        try {
            long before;
            synchronized (reservation) {
                before = reservation.tokens;
                reservation.tokens = actualTokens;
            }
            // an expired reservation no longer counts in the sum
            if (entries.contains(reservation)) {
                sum += actualTokens - before;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Tokens reserved in the window at {@code nowNanos}. */
    public long used(long nowNanos) {
        lock.lock();
        try {
            expire(nowNanos);
            return sum;
        } finally {
            lock.unlock();
        }
    }

    /** How many {@link #reserve} calls had to wait for room. */
    public long waits() {
        lock.lock();
        try {
            return waits;
        } finally {
            lock.unlock();
        }
    }

    private void expire(long nowNanos) {
        while (!entries.isEmpty() && nowNanos - entries.peekFirst().atNanos >= windowNanos) {
            sum -= entries.pollFirst().tokens();
        }
    }
}

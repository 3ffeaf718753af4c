package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class SlidingWindowBudgetTest {

    private static final long S = 1_000_000_000L;

    @Test
    void shouldAdmitUpToTheBudgetWithinTheWindowAndForgetWhatSlidOut() {
        SlidingWindowBudget w = new SlidingWindowBudget(1_000, Duration.ofSeconds(60), () -> 0);
        assertThat(w.tryReserve(600, 0)).isNotNull();
        assertThat(w.tryReserve(400, 10 * S)).isNotNull();
        assertThat(w.used(10 * S)).isEqualTo(1_000);
        assertThat(w.tryReserve(1, 20 * S)).isNull();
        assertThat(w.used(20 * S)).isEqualTo(1_000);
        // the first reservation leaves the window 60 s after it was made, not before
        assertThat(w.nanosUntilNextExpiry(20 * S)).isEqualTo(40 * S);
        assertThat(w.tryReserve(600, 60 * S - 1)).isNull();
        assertThat(w.tryReserve(600, 60 * S)).isNotNull();
        assertThat(w.used(60 * S)).isEqualTo(1_000);
        assertThat(w.used(130 * S)).isZero();
        assertThat(w.nanosUntilNextExpiry(130 * S)).isZero();
    }

    @Test
    void shouldCorrectAReservationToWhatTheProviderReported() {
        SlidingWindowBudget w = new SlidingWindowBudget(1_000, Duration.ofSeconds(60), () -> 0);
        SlidingWindowBudget.Reservation r = w.tryReserve(900, 0);
        assertThat(w.tryReserve(300, S)).isNull();
        w.correct(r, 500);
        assertThat(r.tokens()).isEqualTo(500);
        assertThat(w.used(S)).isEqualTo(500);
        assertThat(w.tryReserve(300, S)).isNotNull();
        assertThat(w.used(S)).isEqualTo(800);
        // correcting one that already slid out changes nothing in the window
        w.correct(r, 5_000);
        assertThat(w.used(60 * S + S / 2)).isEqualTo(300);
    }

    @Test
    void shouldLetAnOversizedReservationThroughAnEmptyWindowOnly() {
        SlidingWindowBudget w = new SlidingWindowBudget(1_000, Duration.ofSeconds(60), () -> 0);
        assertThat(w.tryReserve(5_000, 0)).isNotNull();
        assertThat(w.tryReserve(5_000, S)).isNull();
        assertThat(w.tryReserve(5_000, 60 * S)).isNotNull();
    }

    @Test
    void shouldBlockUntilACorrectionMakesRoom() throws Exception {
        AtomicLong now = new AtomicLong();
        SlidingWindowBudget w = new SlidingWindowBudget(1_000, Duration.ofSeconds(60), now::get);
        SlidingWindowBudget.Reservation r = w.reserve(1_000);
        CompletableFuture<SlidingWindowBudget.Reservation> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return w.reserve(400);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(5)).until(() -> !waiting.isDone());
        assertThat(waiting).isNotDone();
        w.correct(r, 600);
        assertThat(waiting.get(5, TimeUnit.SECONDS).tokens()).isEqualTo(400);
        assertThat(w.waits()).isEqualTo(1);
        assertThat(w.used(0)).isEqualTo(1_000);
    }

    @Test
    void shouldBlockUntilTheWindowSlides() throws Exception {
        AtomicLong now = new AtomicLong();
        SlidingWindowBudget w = new SlidingWindowBudget(100, Duration.ofMillis(200), System::nanoTime);
        w.reserve(100);
        long start = System.nanoTime();
        w.reserve(100);
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(150_000_000L);
        assertThat(now.get()).isZero();
    }

    @Test
    void shouldBeZeroPointEightFiveOfTpmOverAMinute() {
        assertThat(SlidingWindowBudget.ofTpm(30_000, 0.85).budget()).isEqualTo(25_500);
        assertThat(SlidingWindowBudget.ofTpm(200_000, 0.85).budget()).isEqualTo(170_000);
        assertThatThrownBy(() -> new SlidingWindowBudget(0, Duration.ofSeconds(60), () -> 0)).isInstanceOf(IllegalArgumentException.class);
        SlidingWindowBudget w = new SlidingWindowBudget(10, Duration.ofSeconds(60), () -> 0);
        assertThatThrownBy(() -> w.tryReserve(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

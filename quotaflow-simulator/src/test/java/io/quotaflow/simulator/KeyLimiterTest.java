package io.quotaflow.simulator;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-key RPM and TPM buckets on a manual clock: every number below is exact. */
class KeyLimiterTest {

    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);

    /** 60 RPM and 6 000 TPM with a 10 s burst: capacity 10 requests and 1 000 tokens. */
    private KeyLimiter limiter(double startLevel) {
        SimulatorConfig config = SimulatorConfig.builder().rpm(60).tpm(6_000).burstSeconds(10).startLevel(startLevel).build();
        return new KeyLimiter(config, nanos::get);
    }

    private void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    @Test
    void shouldDebitBothBucketsAndReportTheLevelsAfterTheDebit() {
        KeyLimiter limiter = limiter(1.0);

        Admission admission = limiter.admit(400);

        assertThat(admission).isInstanceOf(Admission.Admitted.class);
        assertThat(admission.headers())
                .containsEntry("x-ratelimit-limit-requests", "60")
                .containsEntry("x-ratelimit-limit-tokens", "6000")
                .containsEntry("x-ratelimit-remaining-requests", "9")
                .containsEntry("x-ratelimit-remaining-tokens", "600")
                .containsEntry("x-ratelimit-reset-requests", "1s")
                .containsEntry("x-ratelimit-reset-tokens", "4s");
        assertThat(limiter.snapshot()).isEqualTo(admission.headers());
    }

    @Test
    void shouldRefuseByTokensWithTheExactWaitUntilTheRefillCoversTheRequest() {
        KeyLimiter limiter = limiter(1.0);
        assertThat(limiter.admit(900)).isInstanceOf(Admission.Admitted.class);

        Admission refused = limiter.admit(300);

        assertThat(refused).isInstanceOf(Admission.Limited.class);
        Admission.Limited limited = (Admission.Limited) refused;
        assertThat(limited.limitedBy()).isEqualTo("tokens");
        assertThat(limited.used()).isEqualTo(6_000 - 100);
        // 200 tokens short at 100 tokens per second
        assertThat(limited.retryAfter()).isEqualTo(Duration.ofSeconds(2));
        assertThat(refused.headers()).containsEntry("x-ratelimit-remaining-tokens", "100")
                .containsEntry("x-ratelimit-remaining-requests", "9");

        advance(Duration.ofMillis(1_999));
        assertThat(limiter.admit(300)).isInstanceOf(Admission.Limited.class);
        advance(Duration.ofMillis(1));
        assertThat(limiter.admit(300)).isInstanceOf(Admission.Admitted.class);
    }

    @Test
    void shouldRefuseByRequestsWhenTheRequestBucketIsEmptyAndTokensAreLeft() {
        KeyLimiter limiter = limiter(1.0);
        for (int i = 0; i < 10; i++) {
            assertThat(limiter.admit(1)).as("request %d", i).isInstanceOf(Admission.Admitted.class);
        }

        Admission refused = limiter.admit(1);

        assertThat(refused).isInstanceOf(Admission.Limited.class);
        assertThat(((Admission.Limited) refused).limitedBy()).isEqualTo("requests");
        assertThat(((Admission.Limited) refused).used()).isEqualTo(60);
        assertThat(((Admission.Limited) refused).retryAfter()).isEqualTo(Duration.ofSeconds(1));
        advance(Duration.ofSeconds(1));
        assertThat(limiter.admit(1)).isInstanceOf(Admission.Admitted.class);
    }

    @Test
    void shouldCallAnEstimateAboveTheMinuteLimitTooLargeWithoutChargingIt() {
        KeyLimiter limiter = limiter(1.0);

        Admission refused = limiter.admit(6_001);

        assertThat(refused).isInstanceOf(Admission.TooLarge.class);
        assertThat(refused.headers()).containsEntry("x-ratelimit-remaining-tokens", "1000")
                .containsEntry("x-ratelimit-remaining-requests", "10");
    }

    @Test
    void shouldStartEmptyAndBePacedByTheRefillAloneAtStartLevelZero() {
        KeyLimiter limiter = limiter(0.0);
        assertThat(limiter.admit(1)).isInstanceOf(Admission.Limited.class);

        advance(Duration.ofSeconds(3));

        assertThat(limiter.snapshot()).containsEntry("x-ratelimit-remaining-requests", "3")
                .containsEntry("x-ratelimit-remaining-tokens", "300");
        assertThat(limiter.admit(300)).isInstanceOf(Admission.Admitted.class);
        assertThat(limiter.admit(1)).isInstanceOf(Admission.Limited.class);
    }
}

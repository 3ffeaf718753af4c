package io.quotaflow.failure;

import io.quotaflow.settings.RetrySettings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class BackoffTest {

    private final RetrySettings settings = RetrySettings.ofDefaults();
    private final Backoff backoff = new Backoff(settings, new SplittableRandom(1));

    @Test
    void shouldDrawFullJitterWithinZeroAndTheCappedExponentialBound() {
        for (int attempt = 0; attempt < 12; attempt++) {
            long bound = Math.min(300_000, 1_000L << attempt);
            assertThat(backoff.ceiling(attempt)).isEqualTo(Duration.ofMillis(bound));
            long min = Long.MAX_VALUE;
            long max = 0;
            for (int i = 0; i < 2_000; i++) {
                long d = backoff.delay(attempt, Optional.empty()).toMillis();
                assertThat(d).isBetween(0L, bound);
                min = Math.min(min, d);
                max = Math.max(max, d);
            }
            // spread over the whole range, not clustered at the bound
            assertThat(min).isLessThan(bound / 10 + 1);
            assertThat(max).isGreaterThan(bound * 9 / 10);
        }
    }

    @Test
    void shouldPreferTheProvidersHintButNeverBeyondTheCap() {
        assertThat(backoff.delay(5, Optional.of(Duration.ofSeconds(3)))).isEqualTo(Duration.ofSeconds(3));
        assertThat(backoff.delay(0, Optional.of(Duration.ofHours(2)))).isEqualTo(Duration.ofMinutes(5));
    }
}

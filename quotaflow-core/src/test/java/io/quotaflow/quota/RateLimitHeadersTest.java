package io.quotaflow.quota;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimitHeadersTest {

    private static final Instant NOW = Instant.parse("2026-11-30T06:00:00Z");

    @Test
    void shouldReadOpenAiHeadersWithGoDurations() {
        RateLimitInfo info = RateLimitHeaders.parse(Map.of(
                "X-RateLimit-Limit-Requests", List.of("500"),
                "x-ratelimit-limit-tokens", List.of("200000"),
                "x-ratelimit-remaining-requests", List.of("499"),
                "x-ratelimit-remaining-tokens", List.of("198765"),
                "x-ratelimit-reset-requests", List.of("120ms"),
                "x-ratelimit-reset-tokens", List.of("4m12.172s")), NOW);
        assertThat(info.limitRequests().getAsLong()).isEqualTo(500);
        assertThat(info.limitTokens().getAsLong()).isEqualTo(200_000);
        assertThat(info.remainingRequests().getAsLong()).isEqualTo(499);
        assertThat(info.remainingTokens().getAsLong()).isEqualTo(198_765);
        assertThat(info.resetRequests()).contains(Duration.ofMillis(120));
        assertThat(info.resetTokens()).contains(Duration.ofMinutes(4).plusSeconds(12).plusMillis(172));
        assertThat(info.retryAfter()).isEmpty();
    }

    @Test
    void shouldReadEveryGoDurationForm() {
        for (var e : Map.of("12ms", Duration.ofMillis(12), "1.28s", Duration.ofMillis(1280), "6m0s", Duration.ofMinutes(6),
                "1h2m3s", Duration.ofSeconds(3723), "0s", Duration.ZERO).entrySet()) {
            RateLimitInfo info = RateLimitHeaders.parse(Map.of("x-ratelimit-reset-tokens", List.of(e.getKey())), NOW);
            assertThat(info.resetTokens()).as(e.getKey()).contains(e.getValue());
        }
    }

    @Test
    void shouldReadAnthropicHeadersWithRfc3339Resets() {
        RateLimitInfo info = RateLimitHeaders.parse(Map.of(
                "anthropic-ratelimit-requests-limit", List.of("50"),
                "anthropic-ratelimit-requests-remaining", List.of("49"),
                "anthropic-ratelimit-requests-reset", List.of("2026-11-30T06:00:01Z"),
                "anthropic-ratelimit-tokens-limit", List.of("40000"),
                "anthropic-ratelimit-tokens-remaining", List.of("39000"),
                "anthropic-ratelimit-tokens-reset", List.of("2026-11-30T06:00:02.500+00:00")), NOW);
        assertThat(info.limitRequests().getAsLong()).isEqualTo(50);
        assertThat(info.remainingTokens().getAsLong()).isEqualTo(39_000);
        assertThat(info.resetRequests()).contains(Duration.ofSeconds(1));
        assertThat(info.resetTokens()).contains(Duration.ofMillis(2_500));
    }

    @Test
    void shouldTellA429AboutADailyLimitFromOneAboutAMinute() {
        assertThat(RateLimitHeaders.aboutDay("Rate limit reached for gpt-4o-mini in organization org-x on requests per day (RPD): "
                + "Limit 10000, Used 10000, Requested 1. Please try again in 8.64s.")).isTrue();
        assertThat(RateLimitHeaders.aboutDay("Rate limit reached on tokens per day (TPD): Limit 2000000, Used 1999000")).isTrue();
        assertThat(RateLimitHeaders.aboutDay("Rate limit reached for gpt-4o-mini on tokens per min (TPM): Limit 200000")).isFalse();
        assertThat(RateLimitHeaders.aboutDay(null)).isFalse();
    }

    @Test
    void shouldReadAnthropicsSeparateInputAndOutputTokenLimits() {
        RateLimitInfo info = RateLimitHeaders.parse(Map.of(
                "anthropic-ratelimit-input-tokens-limit", List.of("400000"),
                "anthropic-ratelimit-input-tokens-remaining", List.of("399100"),
                "anthropic-ratelimit-output-tokens-limit", List.of("80000"),
                "anthropic-ratelimit-output-tokens-remaining", List.of("79500")), NOW);
        assertThat(info.remaining(QuotaDimension.INPUT_TOKENS)).hasValue(399_100);
        assertThat(info.limit(QuotaDimension.INPUT_TOKENS)).hasValue(400_000);
        assertThat(info.remaining(QuotaDimension.OUTPUT_TOKENS)).hasValue(79_500);
        assertThat(info.limit(QuotaDimension.OUTPUT_TOKENS)).hasValue(80_000);
        assertThat(info.remainingTokens()).isEmpty();
        assertThat(info.isEmpty()).isFalse();
        assertThat(RateLimitHeaders.parse(Map.of("anthropic-ratelimit-input-tokens-remaining", List.of("-3")), NOW)).isEqualTo(RateLimitInfo.EMPTY);
    }

    @Test
    void shouldPreferRetryAfterMsThenSecondsThenAnHttpDate() {
        assertThat(RateLimitHeaders.parse(Map.of("retry-after-ms", List.of("1280"), "retry-after", List.of("2")), NOW).retryAfter())
                .contains(Duration.ofMillis(1280));
        assertThat(RateLimitHeaders.parse(Map.of("retry-after", List.of("2")), NOW).retryAfter()).contains(Duration.ofSeconds(2));
        assertThat(RateLimitHeaders.parse(Map.of("retry-after", List.of("0.5")), NOW).retryAfter()).contains(Duration.ofMillis(500));
        assertThat(RateLimitHeaders.parse(Map.of("retry-after", List.of("Mon, 30 Nov 2026 06:00:07 GMT")), NOW).retryAfter())
                .contains(Duration.ofSeconds(7));
    }

    @Test
    void shouldIgnoreMalformedValuesSafely() {
        RateLimitInfo info = RateLimitHeaders.parse(Map.of(
                "x-ratelimit-remaining-tokens", List.of("lots"),
                "x-ratelimit-remaining-requests", List.of("-3"),
                "x-ratelimit-reset-tokens", List.of("soon"),
                "x-ratelimit-reset-requests", List.of("1.2.3s"),
                "retry-after-ms", List.of("NaN"),
                "retry-after", List.of("tomorrow"),
                "anthropic-ratelimit-tokens-reset", List.of("not a date")), NOW);
        assertThat(info).isEqualTo(RateLimitInfo.EMPTY);
    }

    @Test
    void shouldReadUsedAndRequestedAndTheHintFromA429Message() {
        String message = "Rate limit reached for gpt-4o-mini in organization org-x on tokens per min (TPM): Limit 200000, "
                + "Used 199100, Requested 1450. Please try again in 1.28s. Visit https://platform.openai.com/account/rate-limits.";
        assertThat(RateLimitHeaders.usedRequested(message)).hasValue(new RateLimitHeaders.UsedRequested(199_100L, 1_450L));
        assertThat(RateLimitHeaders.tryAgainIn(message)).contains(Duration.ofMillis(1280));
        assertThat(RateLimitHeaders.tryAgainIn("Please try again in 6m0s.")).contains(Duration.ofMinutes(6));
        assertThat(RateLimitHeaders.usedRequested("no numbers here")).isEmpty();
        assertThat(RateLimitHeaders.tryAgainIn(null)).isEmpty();
    }
}

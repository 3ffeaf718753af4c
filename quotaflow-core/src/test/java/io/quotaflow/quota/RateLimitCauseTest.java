package io.quotaflow.quota;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimitCauseTest {

    private static final Instant NOW = Instant.parse("2026-12-01T06:00:00Z");

    @Test
    void shouldNameTheTokenLimitFromAnOpenAiMessage() {
        String message = "Rate limit reached for gpt-4o-mini in organization org-x on tokens per min (TPM): Limit 200000, "
                + "Used 199000, Requested 1500. Please try again in 450ms.";
        assertThat(RateLimitCause.ofRateLimit(message, RateLimitInfo.EMPTY)).isEqualTo(RateLimitCause.TPM);
    }

    @Test
    void shouldNameTheRequestLimitFromAnOpenAiMessage() {
        String message = "Rate limit reached for gpt-4o-mini in organization org-x on requests per min (RPM): Limit 500, Used 500, "
                + "Requested 1.";
        assertThat(RateLimitCause.ofRateLimit(message, RateLimitInfo.EMPTY)).isEqualTo(RateLimitCause.RPM);
    }

    @Test
    void shouldNameConcurrencyFromTheMessage() {
        assertThat(RateLimitCause.ofRateLimit("Too many concurrent requests for this model", RateLimitInfo.EMPTY))
                .isEqualTo(RateLimitCause.CONCURRENCY);
    }

    @Test
    void shouldFallBackToTheDimensionWhoseRemainingCountIsZero() {
        RateLimitInfo tokensOut = RateLimitHeaders.parse(Map.of("x-ratelimit-remaining-tokens", List.of("0"),
                "x-ratelimit-remaining-requests", List.of("12")), NOW);
        RateLimitInfo requestsOut = RateLimitHeaders.parse(Map.of("x-ratelimit-remaining-tokens", List.of("5000"),
                "x-ratelimit-remaining-requests", List.of("0")), NOW);
        assertThat(RateLimitCause.ofRateLimit("slow down", tokensOut)).isEqualTo(RateLimitCause.TPM);
        assertThat(RateLimitCause.ofRateLimit("slow down", requestsOut)).isEqualTo(RateLimitCause.RPM);
    }

    @Test
    void shouldSayUnknownWhenNeitherMessageNorHeadersTell() {
        assertThat(RateLimitCause.ofRateLimit(null, null)).isEqualTo(RateLimitCause.UNKNOWN);
        assertThat(RateLimitCause.ofRateLimit("slow down", RateLimitInfo.EMPTY)).isEqualTo(RateLimitCause.UNKNOWN);
    }

    @Test
    void shouldUseTheContractsLabelValues() {
        assertThat(List.of(RateLimitCause.values()).stream().map(RateLimitCause::label).toList())
                .containsExactly("tpm", "rpm", "concurrency", "quota-exhausted", "unknown");
    }
}

package io.quotaflow.quota;


import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.quotaflow.duration.GoDuration;

/**
 * Reads a provider's rate-limit headers. OpenAI: {@code x-ratelimit-{limit,remaining,reset}-{requests,tokens}}
 * with resets as Go durations; Anthropic: {@code anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset}}
 * with RFC 3339 resets, and its separate {@code anthropic-ratelimit-{input,output}-tokens-{limit,remaining}};
 * both: {@code retry-after-ms} and {@code retry-after} (seconds or an HTTP date).
 * Malformed values are ignored, never thrown.
 */
public final class RateLimitHeaders {

    private static final Pattern USED_REQUESTED = Pattern.compile("Used\\s+(\\d+),\\s*Requested\\s+(\\d+)", Pattern.CASE_INSENSITIVE);
    private static final Pattern TRY_AGAIN = Pattern.compile("try again in\\s+([0-9][0-9a-zµ.]*)", Pattern.CASE_INSENSITIVE);

    private RateLimitHeaders() {
    }

    /** Parses headers given as a case-insensitive lookup of first values. */
    public static RateLimitInfo parse(Function<String, Optional<String>> header, Instant now) {
        OptionalLong limitRequests = number(header, "x-ratelimit-limit-requests", "anthropic-ratelimit-requests-limit");
        OptionalLong limitTokens = number(header, "x-ratelimit-limit-tokens", "anthropic-ratelimit-tokens-limit");
        OptionalLong remainingRequests = number(header, "x-ratelimit-remaining-requests", "anthropic-ratelimit-requests-remaining");
        OptionalLong remainingTokens = number(header, "x-ratelimit-remaining-tokens", "anthropic-ratelimit-tokens-remaining");
        Optional<Duration> resetRequests = header.apply("x-ratelimit-reset-requests").flatMap(GoDuration::parse)
                .or(() -> header.apply("anthropic-ratelimit-requests-reset").flatMap(v -> untilRfc3339(v, now)));
        Optional<Duration> resetTokens = header.apply("x-ratelimit-reset-tokens").flatMap(GoDuration::parse)
                .or(() -> header.apply("anthropic-ratelimit-tokens-reset").flatMap(v -> untilRfc3339(v, now)));
        RateLimitInfo.Split split = new RateLimitInfo.Split(number(header, "anthropic-ratelimit-input-tokens-limit"),
                number(header, "anthropic-ratelimit-input-tokens-remaining"), number(header, "anthropic-ratelimit-output-tokens-limit"),
                number(header, "anthropic-ratelimit-output-tokens-remaining"));
        return new RateLimitInfo(limitRequests, limitTokens, remainingRequests, remainingTokens, resetRequests, resetTokens,
                retryAfter(header, now), split);
    }

    /** Parses a map of header names (any case) to values. */
    public static RateLimitInfo parse(Map<String, List<String>> headers, Instant now) {
        return parse(name -> headers.entrySet().stream()
                .filter(e -> e.getKey() != null && e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty())
                .map(e -> e.getValue().get(0))
                .findFirst(), now);
    }

    /** {@code retry-after-ms} (milliseconds) wins over {@code retry-after} (seconds or HTTP date). */
    public static Optional<Duration> retryAfter(Function<String, Optional<String>> header, Instant now) {
        Optional<Duration> ms = header.apply("retry-after-ms").flatMap(v -> decimal(v).map(d -> Duration.ofNanos((long) (d * 1_000_000))));
        if (ms.isPresent()) {
            return ms;
        }
        return header.apply("retry-after").flatMap(v -> {
            Optional<Duration> seconds = decimal(v).map(d -> Duration.ofNanos((long) (d * 1_000_000_000L)));
            return seconds.isPresent() ? seconds : httpDate(v, now);
        });
    }

    /** What a 429 message says of the limit it hit: "Used X, Requested Y". */
    public record UsedRequested(long used, long requested) {
    }

    /** "Used X, Requested Y" from a 429 message. */
    public static Optional<UsedRequested> usedRequested(String message) {
        if (message == null) {
            return Optional.empty();
        }
        Matcher m = USED_REQUESTED.matcher(message);
        if (!m.find()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new UsedRequested(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Whether a 429 message is about the token limit ("tokens per min (TPM)"), as opposed to requests. */
    public static boolean aboutTokens(String message) {
        if (message == null) {
            return false;
        }
        String m = message.toLowerCase(java.util.Locale.ROOT);
        return m.contains("(tpm)") || m.contains("tokens per min");
    }

    /** Whether a 429 message is about a daily limit ("requests per day (RPD)", "tokens per day (TPD)"). */
    public static boolean aboutDay(String message) {
        if (message == null) {
            return false;
        }
        String m = message.toLowerCase(java.util.Locale.ROOT);
        return m.contains("per day") || m.contains("(rpd)") || m.contains("(tpd)");
    }

    /** Whether a 429 message is about concurrent requests ("too many concurrent requests", "concurrency limit"). */
    public static boolean aboutConcurrency(String message) {
        if (message == null) {
            return false;
        }
        String m = message.toLowerCase(java.util.Locale.ROOT);
        return m.contains("concurren") || m.contains("parallel requests") || m.contains("simultaneous");
    }

    /** "Please try again in 1.28s" from a 429 message. */
    public static Optional<Duration> tryAgainIn(String message) {
        if (message == null) {
            return Optional.empty();
        }
        Matcher m = TRY_AGAIN.matcher(message);
        if (!m.find()) {
            return Optional.empty();
        }
        String value = m.group(1);
        if (value.endsWith(".")) {
            value = value.substring(0, value.length() - 1);
        }
        return GoDuration.parse(value);
    }

    private static OptionalLong number(Function<String, Optional<String>> header, String... names) {
        for (String name : names) {
            Optional<String> v = header.apply(name);
            if (v.isPresent()) {
                Optional<Double> d = decimal(v.get());
                if (d.isPresent() && d.get() >= 0) {
                    return OptionalLong.of((long) Math.floor(d.get()));
                }
            }
        }
        return OptionalLong.empty();
    }

    private static Optional<Double> decimal(String v) {
        if (v == null) {
            return Optional.empty();
        }
        try {
            double d = Double.parseDouble(v.strip());
            return Double.isFinite(d) && d >= 0 ? Optional.of(d) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<Duration> untilRfc3339(String v, Instant now) {
        try {
            Instant at = ZonedDateTime.parse(v.strip(), DateTimeFormatter.ISO_DATE_TIME).toInstant();
            Duration d = Duration.between(now, at);
            return Optional.of(d.isNegative() ? Duration.ZERO : d);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<Duration> httpDate(String v, Instant now) {
        try {
            Instant at = ZonedDateTime.parse(v.strip(), DateTimeFormatter.RFC_1123_DATE_TIME.withLocale(Locale.US)).toInstant();
            Duration d = Duration.between(now, at);
            return Optional.of(d.isNegative() ? Duration.ZERO : d);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }
}

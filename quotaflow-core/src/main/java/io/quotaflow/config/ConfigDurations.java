package io.quotaflow.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.quotaflow.settings.Redactor;

/**
 * Durations as configuration values ({@code cache.ttl}, {@code routing.max-wait.<priority>}): a whole
 * number with a unit, {@code 90s}, {@code 30m}, {@code 24h}, {@code 2d}, {@code 250ms}, or a bare
 * number of milliseconds ({@code 0}, {@code 86400000}).
 */
final class ConfigDurations {

    /** The shape, for rule descriptions. */
    static final String SHAPE = "a duration such as 90s, 30m, 24h or 2d, or milliseconds";

    private static final Pattern FORM = Pattern.compile("(\\d{1,15})\\s*(ms|s|m|h|d)?");

    private ConfigDurations() {
    }

    /** {@code value} as a duration, empty when it is not one. */
    static Optional<Duration> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        Matcher m = FORM.matcher(value.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return Optional.empty();
        }
        long amount = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        try {
            switch (unit) {
                case "s":
                    return Optional.of(Duration.ofSeconds(amount));
                case "m":
                    return Optional.of(Duration.ofMinutes(amount));
                case "h":
                    return Optional.of(Duration.ofHours(amount));
                case "d":
                    return Optional.of(Duration.ofDays(amount));
                default:
                    return Optional.of(Duration.ofMillis(amount));
            }
        } catch (ArithmeticException e) {
            return Optional.empty();
        }
    }

    /** {@code value} as a duration; an {@link IllegalArgumentException} naming {@code key} when it is not one. */
    static Duration require(String key, String value) {
        return parse(value).orElseThrow(() -> new IllegalArgumentException(key + " must be " + SHAPE + ", got '"
                + Redactor.scrub(value) + "'"));
    }
}

package io.quotaflow.duration;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Durations in Go's {@code time.Duration} text form, as OpenAI-compatible providers use them in the
 * {@code x-ratelimit-reset-requests} / {@code x-ratelimit-reset-tokens} headers: {@code 12ms},
 * {@code 1.28s}, {@code 6m0s}, {@code 4m12.172s}, {@code 1h2m3s}, {@code 0s}.
 *
 * <p>{@link #format(Duration)} reproduces Go's {@code Duration.String()} exactly (including
 * {@code µs} for sub-millisecond values); {@link #parse(String)} accepts what Go's
 * {@code time.ParseDuration} accepts plus a bare decimal number meaning seconds (the form of
 * {@code retry-after}), and never throws.
 */
public final class GoDuration {

    /** Longer header values are not durations; refusing them bounds the parsing work. */
    private static final int MAX_INPUT_LENGTH = 100;
    private static final BigDecimal MAX_NANOS = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final Pattern BARE_NUMBER = Pattern.compile("\\d+(?:\\.\\d*)?|\\.\\d+");

    private GoDuration() {
    }

    /**
     * Go's {@code Duration.String()}: {@code 0s}; below one second the largest fitting unit of
     * {@code ns}, {@code µs}, {@code ms} with a trimmed decimal fraction ({@code 1.5ms}); from one
     * second on {@code [Nh][Nm]N[.fff]s} where minutes appear once there are minutes or hours
     * ({@code 6m0s}, {@code 1h0m0s}). Negative durations get a leading {@code -}.
     */
    public static String format(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isZero()) {
            return "0s";
        }
        StringBuilder out = new StringBuilder();
        Duration abs = duration;
        if (duration.isNegative()) {
            out.append('-');
            try {
                abs = duration.negated();
            } catch (ArithmeticException overflow) {
                abs = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
            }
        }
        long seconds = abs.getSeconds();
        int nanos = abs.getNano();
        if (seconds == 0) {
            if (nanos < 1_000) {
                out.append(nanos).append("ns");
            } else if (nanos < 1_000_000) {
                appendDecimal(out, nanos / 1_000, nanos % 1_000, 3).append("\u00b5s");
            } else {
                appendDecimal(out, nanos / 1_000_000, nanos % 1_000_000, 6).append("ms");
            }
            return out.toString();
        }
        long hours = seconds / 3600;
        long minutes = (seconds % 3600) / 60;
        long secs = seconds % 60;
        if (hours > 0) {
            out.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            out.append(minutes).append('m');
        }
        appendDecimal(out, secs, nanos, 9).append('s');
        return out.toString();
    }

    private static StringBuilder appendDecimal(StringBuilder out, long whole, long fraction, int fractionDigits) {
        out.append(whole);
        if (fraction != 0) {
            StringBuilder digits = new StringBuilder(Long.toString(fraction));
            while (digits.length() < fractionDigits) {
                digits.insert(0, '0');
            }
            int end = digits.length();
            while (end > 0 && digits.charAt(end - 1) == '0') {
                end--;
            }
            out.append('.').append(digits, 0, end);
        }
        return out;
    }

    /**
     * Parses a Go duration ({@code 12ms}, {@code 1.28s}, {@code 6m0s}, {@code 4m12.172s},
     * {@code 1h2m3s}, {@code 500us}, {@code 500µs}, {@code 0s}, {@code -1.5h}) or a bare decimal
     * number of seconds ({@code 2}, {@code 0.5}). Surrounding whitespace is ignored. Units are
     * {@code ns}, {@code us}/{@code µs}/{@code μs}, {@code ms}, {@code s}, {@code m}, {@code h}
     * (case-sensitive, as in Go). Precision beyond nanoseconds is truncated.
     *
     * @return the duration, or empty for {@code null}, blank, malformed or out-of-range
     *         (beyond ±2<sup>63</sup> ns, about 292 years) input; never throws
     */
    public static Optional<Duration> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String s = text.strip();
        if (s.isEmpty() || s.length() > MAX_INPUT_LENGTH) {
            return Optional.empty();
        }
        int i = 0;
        boolean negative = false;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            negative = s.charAt(0) == '-';
            i = 1;
        }
        if (i == s.length()) {
            return Optional.empty();
        }
        BigDecimal totalNanos = BigDecimal.ZERO;
        String rest = s.substring(i);
        if (BARE_NUMBER.matcher(rest).matches()) {
            totalNanos = decimal(rest, 0, rest.length()).multiply(BigDecimal.valueOf(1_000_000_000L));
        } else {
            int len = s.length();
            while (i < len) {
                int numberStart = i;
                while (i < len && isDigit(s.charAt(i))) {
                    i++;
                }
                boolean digits = i > numberStart;
                if (i < len && s.charAt(i) == '.') {
                    i++;
                    int fractionStart = i;
                    while (i < len && isDigit(s.charAt(i))) {
                        i++;
                    }
                    digits |= i > fractionStart;
                }
                if (!digits) {
                    return Optional.empty();
                }
                int numberEnd = i;
                while (i < len && !isDigit(s.charAt(i)) && s.charAt(i) != '.') {
                    i++;
                }
                long unitNanos = unitNanos(s.substring(numberEnd, i));
                if (unitNanos < 0) {
                    return Optional.empty();
                }
                totalNanos = totalNanos.add(decimal(s, numberStart, numberEnd).multiply(BigDecimal.valueOf(unitNanos)));
            }
        }
        BigDecimal nanos = totalNanos.setScale(0, RoundingMode.DOWN);
        if (nanos.compareTo(MAX_NANOS) > 0) {
            return Optional.empty();
        }
        long n = nanos.longValueExact();
        return Optional.of(Duration.ofNanos(negative ? -n : n));
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** {@code s[start, end)} is digits with at most one '.', and at least one digit. */
    private static BigDecimal decimal(String s, int start, int end) {
        String number = s.substring(start, end);
        int dot = number.indexOf('.');
        if (dot < 0) {
            return new BigDecimal(number);
        }
        String whole = dot == 0 ? "0" : number.substring(0, dot);
        String fraction = dot == number.length() - 1 ? "0" : number.substring(dot + 1);
        return new BigDecimal(whole + "." + fraction);
    }

    private static long unitNanos(String unit) {
        switch (unit) {
            case "ns":
                return 1L;
            case "us":
            case "\u00b5s": // micro sign, what Go prints
            case "\u03bcs": // Greek small letter mu, which Go also accepts
            case "\u00c2\u00b5s": // UTF-8 "µs" decoded as ISO-8859-1 by an HTTP header reader
                return 1_000L;
            case "ms":
                return 1_000_000L;
            case "s":
                return 1_000_000_000L;
            case "m":
                return 60_000_000_000L;
            case "h":
                return 3_600_000_000_000L;
            default:
                return -1L;
        }
    }
}

package io.quotaflow.duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class GoDurationTest {

    @ParameterizedTest(name = "{1} ns formats as {0}")
    @CsvSource({
            "0s, 0",
            "1ns, 1",
            "999ns, 999",
            "1µs, 1000",
            "1.5µs, 1500",
            "500µs, 500000",
            "1ms, 1000000",
            "12ms, 12000000",
            "12.5ms, 12500000",
            "999.999999ms, 999999999",
            "1s, 1000000000",
            "1.28s, 1280000000",
            "59.999s, 59999000000",
            "1m0s, 60000000000",
            "6m0s, 360000000000",
            "4m12.172s, 252172000000",
            "1h0m0s, 3600000000000",
            "1h2m3s, 3723000000000",
            "26h0m0.000000001s, 93600000000001",
            "-1.5s, -1500000000",
            "-12ms, -12000000",
    })
    void shouldFormatLikeGo(String expected, long nanos) {
        assertThat(GoDuration.format(Duration.ofNanos(nanos))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} parses to {1} ns")
    @CsvSource({
            "0s, 0",
            "0, 0",
            "12ms, 12000000",
            "1.28s, 1280000000",
            "6m0s, 360000000000",
            "4m12.172s, 252172000000",
            "1h2m3s, 3723000000000",
            "500us, 500000",
            "500µs, 500000",
            "500μs, 500000",
            "250ns, 250",
            "1.5h, 5400000000000",
            "2m, 120000000000",
            "1h30m, 5400000000000",
            "1.s, 1000000000",
            ".5s, 500000000",
            "+3s, 3000000000",
            "-1.5s, -1500000000",
            "' 20ms ', 20000000",
            "2, 2000000000",
            "0.5, 500000000",
            "1.25, 1250000000",
            "20, 20000000000",
            "1.0000000001s, 1000000000",
    })
    void shouldParseGoDurationsAndBareSeconds(String text, long nanos) {
        assertThat(GoDuration.parse(text)).contains(Duration.ofNanos(nanos));
    }

    @ParameterizedTest(name = "\"{0}\" is malformed")
    @NullAndEmptySource
    @ValueSource(strings = {" ", "abc", "s", "ms", "1x", "1S", "1 s", "1.2.3s", "-", "+", ".", ".s", "s1",
            "1m30", "1h-2m", "--1s", "1e3s", "0x10s", "NaN", "Infinity", "1,5s", "99999999999h",
            "1h2m3s4", "12 ms"})
    void shouldReturnEmptyForMalformedInput(String text) {
        assertThat(GoDuration.parse(text)).isEmpty();
    }

    @Test
    void shouldRejectOverlongInputWithoutThrowing() {
        assertThat(GoDuration.parse("1".repeat(10_000) + "s")).isEmpty();
    }

    @Test
    void shouldRoundTripFormatAndParse() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 5_000; i++) {
            long nanos = switch (i % 4) {
                case 0 -> random.nextLong(1_000_000_000L);                       // sub-second, ns precision
                case 1 -> random.nextLong(3_600_000L) * 1_000_000L;              // up to 1 h, ms precision
                case 2 -> random.nextLong(100L * 3_600_000_000_000L);            // up to 100 h, ns precision
                default -> -random.nextLong(86_400_000_000_000L);                // negative, up to 1 day
            };
            Duration d = Duration.ofNanos(nanos);
            assertThat(GoDuration.parse(GoDuration.format(d))).as("round trip of %s", d).contains(d);
        }
    }

    @Test
    void shouldRoundTripHeaderExamples() {
        for (String text : new String[] {"12ms", "1.28s", "6m0s", "4m12.172s", "1h2m3s", "0s", "500µs"}) {
            assertThat(GoDuration.parse(text).map(GoDuration::format)).contains(text);
        }
    }
}

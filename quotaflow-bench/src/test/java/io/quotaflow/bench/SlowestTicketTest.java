package io.quotaflow.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SlowestTicketTest {

    private static Map<String, Long> published(Object... idAndTime) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < idAndTime.length; i += 2) {
            m.put((String) idAndTime[i], ((Number) idAndTime[i + 1]).longValue());
        }
        return m;
    }

    @Test
    void shouldNameTheSlowestTicketsPlaceInTheFeedAndSplitItsTime() {
        Map<String, Long> publishedAt = published("I-1", 1_000, "I-2", 2_000, "I-3", 3_000);
        Map<String, ResultTimes> times = Map.of(
                "I-1", new ResultTimes(1_400, 200),
                "I-2", new ResultTimes(7_000, 300),
                "I-3", new ResultTimes(3_500, 250));

        SlowestTicket slowest = SlowestTicket.of(publishedAt, times).orElseThrow();

        assertThat(slowest).isEqualTo(new SlowestTicket(2, 3, 5_000, 300));
        assertThat(slowest.beforeCallMs()).isEqualTo(4_700);
    }

    @Test
    void shouldSkipTicketsWithoutAResultAndKeepTheFirstOfEquals() {
        Map<String, Long> publishedAt = published("I-1", 0, "I-2", 1_000, "I-3", 2_000);
        Map<String, ResultTimes> times = Map.of("I-2", new ResultTimes(1_500, 100), "I-3", new ResultTimes(2_500, 600));

        assertThat(SlowestTicket.of(publishedAt, times)).contains(new SlowestTicket(2, 3, 500, 100));
        assertThat(SlowestTicket.of(publishedAt, Map.of())).isEmpty();
    }

    @Test
    void shouldNeverReportMoreTimeInTheCallThanInAll() {
        SlowestTicket odd = new SlowestTicket(1, 1, 100, 250);
        assertThat(odd.beforeCallMs()).isZero();
    }

    @ParameterizedTest
    @CsvSource({"1, 1st", "2, 2nd", "3, 3rd", "4, 4th", "11, 11th", "12, 12th", "13, 13th", "22, 22nd", "30, 30th", "101, 101st"})
    void shouldWriteItsPlaceAsEnglishDoes(int position, String words) {
        assertThat(new SlowestTicket(position, 200, 1, 0).place()).isEqualTo(words);
    }
}

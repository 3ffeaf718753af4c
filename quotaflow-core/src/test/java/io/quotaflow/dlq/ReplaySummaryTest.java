package io.quotaflow.dlq;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The line a replay's end is logged with: the counts in words, never the record's raw form. */
class ReplaySummaryTest {

    @Test
    void shouldDescribeACompletedReplayInOneLine() {
        Map<String, Long> byTopic = new LinkedHashMap<>();
        byTopic.put("tickets.standard", 12L);
        byTopic.put("tickets.bulk", 7L);
        ReplaySummary done = new ReplaySummary(false, ReplaySummary.Outcome.COMPLETED, 30, 19, 10, 1, byTopic,
                Map.of("retries-exhausted", 19L), 0, Duration.ofMillis(1234));

        assertThat(done.describe()).isEqualTo("replayed 19 dead letters in 1.2 s (tickets.standard 12, tickets.bulk 7); "
                + "30 examined, 10 filtered out, 1 over max replays");
    }

    @Test
    void shouldSayWhatWasHeldBackAndWhyADryRunStoppedEarly() {
        ReplaySummary dry = new ReplaySummary(true, ReplaySummary.Outcome.MAX_RECORDS, 5_000, 1, 0, 0,
                Map.of("tickets.interactive", 1L), Map.of(), 12_345, Duration.ofSeconds(3), 2, Map.of("bad-input", 4L));

        assertThat(dry.describe()).isEqualTo("would replay 1 dead letter in 3.0 s (tickets.interactive 1); 5,000 examined, "
                + "0 filtered out, 0 over max replays, 4 held back (need --force), 2 truncated with the origin gone; "
                + "stopped at --max-records, ~12,345 left");
        assertThat(new ReplaySummary(false, ReplaySummary.Outcome.STOPPED, 3, 0, 3, 0, Map.of(), Map.of(), 7, Duration.ZERO)
                .describe()).isEqualTo("replayed 0 dead letters in 0.0 s; 3 examined, 3 filtered out, 0 over max replays; "
                + "stopped on request, ~7 left").doesNotContain("ReplaySummary[");
    }
}

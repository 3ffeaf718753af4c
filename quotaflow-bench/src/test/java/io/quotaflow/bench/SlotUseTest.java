package io.quotaflow.bench;

import io.quotaflow.simulator.SimulatorStats;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SlotUseTest {

    /** 60 000 TPM (1 000 tokens a second), a 5 s bucket starting full (5 000 tokens), admissions per second as given. */
    private static SimulatorStats stats(List<SimulatorStats.Second> seconds) {
        long tokens = seconds.stream().mapToLong(SimulatorStats.Second::tokensAdmitted).sum();
        return new SimulatorStats("gpt-4o-mini", 1_000, 60_000, 5, 0, 0, 10, 0, Map.of("200", 10L), 0, 10, tokens / 2, tokens / 4,
                tokens, Map.of(), seconds, "o200k_base", 128_000, 1.0, 0, 0, 0, Map.of());
    }

    private static SimulatorStats.Second second(long epochSecond, long tokens) {
        return new SimulatorStats.Second(epochSecond, 1, tokens, tokens, 0);
    }

    @Test
    void shouldShowEachTenSecondSlotsShareWithTheStartingBucketInTheFirstAndAShortLastSlot() {
        List<SimulatorStats.Second> seconds = new java.util.ArrayList<>();
        // the first slot: the starting 5 000 tokens and 10 s of refill, all spent
        for (long s = 100; s < 110; s++) {
            seconds.add(second(s, s == 100 ? 6_000 : 1_000));
        }
        // the second: half of the refill (a batch boundary)
        for (long s = 110; s < 120; s++) {
            seconds.add(second(s, 500));
        }
        // the tail: 4 s at a quarter
        for (long s = 120; s < 124; s++) {
            seconds.add(second(s, 250));
        }
        List<Double> use = SlotUse.of(stats(seconds), Binding.TPM, 100_400, 123_900);
        assertThat(use).hasSize(3);
        assertThat(use.get(0)).isCloseTo(1.0, within(1e-9));
        assertThat(use.get(1)).isCloseTo(0.5, within(1e-9));
        assertThat(use.get(2)).isCloseTo(0.25, within(1e-9));
        assertThat(SlotUse.describe(use, 100_400, 123_900)).endsWith("(the first with the starting bucket; the last 4 s): "
                + "100 %, 50 %, 25 %");
    }

    @Test
    void shouldSaySoWhenNoCallWasMade() {
        assertThat(SlotUse.describe(List.of(), 0, 0)).isEqualTo("use per 10 s slot: no call");
    }
}

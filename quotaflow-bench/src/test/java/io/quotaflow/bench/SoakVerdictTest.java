package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** When a soak series is flat. */
class SoakVerdictTest {

    private static final List<Long> MINUTES = List.of(60_000L, 120_000L, 180_000L, 240_000L, 300_000L);

    @Test
    void shouldJudgeFromTheSettleMarkOnly() {
        SoakVerdict v = SoakVerdict.of("heap", MINUTES, List.of(10L, 50L, 100L, 105L, 98L), 180_000, 0.10);

        assertThat(v.measured()).isTrue();
        assertThat(v.reference()).isEqualTo(100);
        assertThat(v.max()).isEqualTo(105);
        assertThat(v.last()).isEqualTo(98);
        assertThat(v.flat()).isTrue();
        assertThat(v.describe(false)).isEqualTo("heap: 100 at the mark, at most 105 (+5.0 %), last 98 (-2.0 %): flat");
    }

    @Test
    void shouldCallSteadyGrowthNotFlat() {
        SoakVerdict v = SoakVerdict.of("store", MINUTES, List.of(100L, 100L, 100L, 106L, 112L), 120_000, 0.10);

        assertThat(v.flat()).isFalse();
        assertThat(v.maxGrowth()).isEqualTo(0.12);
    }

    @Test
    void shouldCallASpikeAboveTheToleranceNotFlatEvenWhenItFallsBack() {
        assertThat(SoakVerdict.of("heap", MINUTES, List.of(100L, 100L, 130L, 100L, 100L), 60_000, 0.10).flat()).isFalse();
    }

    @Test
    void shouldCallAFallNotAGrowthButWantTheLastValueNearTheMark() {
        assertThat(SoakVerdict.of("heap", MINUTES, List.of(100L, 95L, 92L, 91L, 95L), 60_000, 0.10).flat()).isTrue();
        assertThat(SoakVerdict.of("heap", MINUTES, List.of(100L, 80L, 60L, 50L, 40L), 60_000, 0.10).flat()).isFalse();
    }

    @Test
    void shouldSayWhenNoSampleReachedTheMark() {
        SoakVerdict v = SoakVerdict.of("heap", MINUTES, List.of(1L, 2L, 3L, 4L, 5L), 600_000, 0.10);

        assertThat(v.measured()).isFalse();
        assertThat(v.flat()).isFalse();
        assertThat(v.describe(true)).isEqualTo("heap: not measured (no sample after the settle mark)");
    }

    @Test
    void shouldReadTheTicketIndexFromAKey() {
        assertThat(SoakTally.index("BT-000001")).isZero();
        assertThat(SoakTally.index("acme:BT-000123")).isEqualTo(122);
        assertThat(SoakTally.index("other")).isEqualTo(-1);
    }
}

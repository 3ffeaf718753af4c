package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PercentilesTest {

    @Test
    void shouldTakeTheNearestRank() {
        List<Long> thirty = new ArrayList<>();
        for (long i = 30; i >= 1; i--) {
            thirty.add(i * 100);
        }
        assertThat(Percentiles.nearestRank(thirty, 50)).isEqualTo(1_500);
        assertThat(Percentiles.nearestRank(thirty, 99)).isEqualTo(3_000);
        assertThat(Percentiles.nearestRank(thirty, 90)).isEqualTo(2_700);
        assertThat(Percentiles.nearestRank(thirty, 100)).isEqualTo(3_000);
        assertThat(Percentiles.nearestRank(List.of(10L, 20L, 30L, 40L, 50L, 60L, 70L, 80L, 90L, 100L), 90)).isEqualTo(90);
        assertThat(Percentiles.nearestRank(List.of(7L), 1)).isEqualTo(7);
    }

    @Test
    void shouldRejectNoSamplesOrABadPercentile() {
        assertThatThrownBy(() -> Percentiles.nearestRank(List.of(), 50)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Percentiles.nearestRank(List.of(1L), 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Percentiles.nearestRank(List.of(1L), 101)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldSummariseLatencies() {
        ScenarioFigures.Latency l = ScenarioFigures.Latency.of(List.of(300L, 100L, 200L), 1);
        assertThat(List.of(l.tickets(), l.missing())).containsExactly(3, 1);
        assertThat(List.of(l.p50Ms(), l.p99Ms(), l.maxMs())).containsExactly(200L, 300L, 300L);
        assertThat(l.samplesMs()).containsExactly(300L, 100L, 200L);
        assertThat(ScenarioFigures.Latency.of(List.of(), 2).tickets()).isZero();
    }
}

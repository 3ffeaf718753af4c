package io.quotaflow.bench;

import io.quotaflow.bench.ChaosPlan.Kill;
import io.quotaflow.bench.ChaosPlan.Step;
import io.quotaflow.bench.ChaosPlan.Target;
import io.quotaflow.bench.ChaosPlan.Wave;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChaosPlanTest {

    @Test
    void shouldPublishHalfAtOnceAndAQuarterAt30And55Percent() {
        ChaosPlan plan = ChaosPlan.standard(2_000);

        assertThat(plan.waves()).containsExactly(new Wave(1, 0, 0, 1_000), new Wave(2, 0.30, 1_000, 1_500),
                new Wave(3, 0.55, 1_500, 2_000));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 10, 333, 2_001})
    void shouldCoverEveryTicketExactlyOnceAcrossTheWaves(int tickets) {
        ChaosPlan plan = ChaosPlan.standard(tickets);

        int next = 0;
        for (Wave w : plan.waves()) {
            assertThat(w.from()).isEqualTo(next);
            next = w.to();
        }
        assertThat(next).isEqualTo(tickets);
        assertThat(plan.waves().stream().mapToInt(Wave::size).sum()).isEqualTo(tickets);
    }

    @Test
    void shouldKillThePipelineThreeTimesAndTheBrokerOnceInShareOrder() {
        ChaosPlan plan = ChaosPlan.standard(2_000);

        assertThat(plan.kills()).extracting(Kill::target)
                .containsExactly(Target.PIPELINE, Target.PIPELINE, Target.BROKER, Target.PIPELINE);
        assertThat(plan.kills()).extracting(Kill::atShare).containsExactly(0.15, 0.40, 0.50, 0.65);
        assertThat(plan.kills(Target.PIPELINE)).isEqualTo(3);
        assertThat(plan.kills(Target.BROKER)).isEqualTo(1);
    }

    @Test
    void shouldInterleaveWavesAndKillsSoThatEveryKillHasPublishedWorkInFlight() {
        ChaosPlan plan = ChaosPlan.standard(2_000);

        List<Step> steps = plan.steps();

        assertThat(steps).extracting(ChaosPlanTest::label)
                .containsExactly("wave 1", "pipeline 1", "wave 2", "pipeline 2", "broker 3", "wave 3", "pipeline 4");
        int published = 0;
        for (Step s : steps) {
            if (s instanceof Wave w) {
                published = w.to();
            } else {
                assertThat((long) published).as("published before %s", label(s)).isGreaterThan(plan.threshold(s.atShare()));
            }
        }
    }

    @Test
    void shouldPutAWaveBeforeAKillOfTheSameShare() {
        ChaosPlan plan = new ChaosPlan(100, List.of(new Wave(1, 0, 0, 50), new Wave(2, 0.5, 50, 100)),
                List.of(new Kill(1, Target.BROKER, 0.5)));

        assertThat(plan.steps()).extracting(ChaosPlanTest::label).containsExactly("wave 1", "wave 2", "broker 1");
    }

    @Test
    void shouldMakeEachStepDueAtItsThresholdOneAtATime() {
        ChaosPlan plan = ChaosPlan.standard(2_000);

        assertThat(plan.due(0, 0)).map(ChaosPlanTest::label).contains("wave 1");
        assertThat(plan.due(1, 299)).isEmpty();
        assertThat(plan.due(1, 300)).map(ChaosPlanTest::label).contains("pipeline 1");
        // a jump in outcomes still yields only the next step
        assertThat(plan.due(1, 1_900)).map(ChaosPlanTest::label).contains("pipeline 1");
        assertThat(plan.due(2, 599)).isEmpty();
        assertThat(plan.due(2, 600)).map(ChaosPlanTest::label).contains("wave 2");
        assertThat(plan.due(3, 800)).map(ChaosPlanTest::label).contains("pipeline 2");
        assertThat(plan.due(4, 1_000)).map(ChaosPlanTest::label).contains("broker 3");
        assertThat(plan.due(5, 1_100)).map(ChaosPlanTest::label).contains("wave 3");
        assertThat(plan.due(6, 1_299)).isEmpty();
        assertThat(plan.due(6, 1_300)).map(ChaosPlanTest::label).contains("pipeline 4");
        assertThat(plan.due(7, 2_000)).isEmpty();
    }

    @Test
    void shouldNeverKillOnceEveryTicketIsAccountedFor() {
        ChaosPlan plan = ChaosPlan.standard(10);

        assertThat(plan.due(1, 10)).isEmpty();
        assertThat(plan.due(6, 10)).isEmpty();
        assertThat(plan.due(1, 9)).map(ChaosPlanTest::label).contains("pipeline 1");
    }

    @Test
    void shouldRoundThresholdsUpAndNeverToZeroForAPositiveShare() {
        ChaosPlan plan = ChaosPlan.standard(10);

        assertThat(plan.threshold(0)).isZero();
        assertThat(plan.threshold(0.15)).isEqualTo(2);
        assertThat(plan.threshold(0.40)).isEqualTo(4);
        assertThat(plan.threshold(0.5)).isEqualTo(5);
        assertThat(ChaosPlan.standard(1).threshold(0.15)).isEqualTo(1);
    }

    @Test
    void shouldDescribeThePlan() {
        assertThat(ChaosPlan.standard(2_000).describe()).isEqualTo(
                "pipeline SIGKILL at 15 %, 40 %, 65 %; broker SIGKILL at 50 %; tickets published in 3 waves (at 0 %, 30 %, 55 %)");
    }

    @Test
    void shouldRejectWavesThatDoNotCoverTheTicketsInOrder() {
        assertThatThrownBy(() -> new ChaosPlan(10, List.of(new Wave(1, 0, 0, 4), new Wave(2, 0.5, 5, 10)), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ChaosPlan(10, List.of(new Wave(1, 0, 0, 9)), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Kill(1, Target.BROKER, 1.0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ChaosPlan.standard(0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static String label(Step s) {
        return s instanceof Wave w ? "wave " + w.index() : ((Kill) s).target().label() + " " + ((Kill) s).index();
    }
}

package io.quotaflow.quota;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

class CostCalibrationTest {

    @Test
    void shouldOnlyScaleUpUntilEnoughAnswersAreIn() {
        CostCalibration calibration = new CostCalibration();
        assertThat(calibration.apply(1_000)).isEqualTo(1_000);
        calibration.observe(1_200, 1_000);
        assertThat(calibration.factor()).isEqualTo(1.2);
        assertThat(calibration.apply(1_000)).isEqualTo(1_200);
        calibration.observe(500, 1_000);
        calibration.observe(500, 1_000);
        assertThat(calibration.factor()).as("three answers are not enough to bet on fewer tokens").isEqualTo(1.2);
    }

    @Test
    void shouldFollowAProviderThatCountsFewerTokensDownOnceItIsClear() {
        CostCalibration calibration = new CostCalibration();
        for (int i = 0; i < CostCalibration.WINDOW; i++) {
            calibration.observe(800, 1_000);
        }
        assertThat(calibration.factor()).isCloseTo(0.8, offset(1e-9));
        assertThat(calibration.apply(1_000)).isEqualTo(800);
        assertThat(calibration.unapply(800)).isEqualTo(1_000);
    }

    @Test
    void shouldIgnoreNonsenseAndBoundTheFactor() {
        CostCalibration calibration = new CostCalibration();
        calibration.observe(0, 1_000);
        calibration.observe(1_000, 0);
        assertThat(calibration.observations()).isZero();
        for (int i = 0; i < 10; i++) {
            calibration.observe(1_000_000, 1);
        }
        assertThat(calibration.factor()).isEqualTo(CostCalibration.MAX_FACTOR);
    }

    @Property(tries = 200)
    void shouldConvergeToAChangedRatio(@ForAll @DoubleRange(min = 0.5, max = 2.5) double before,
                                       @ForAll @DoubleRange(min = 0.5, max = 2.5) double after) {
        CostCalibration calibration = new CostCalibration();
        for (int i = 0; i < 50; i++) {
            calibration.observe(Math.round(1_000 * before), 1_000);
        }
        for (int i = 0; i < CostCalibration.WINDOW; i++) {
            calibration.observe(Math.round(1_000 * after), 1_000);
        }
        assertThat(calibration.factor()).isCloseTo(after, offset(0.002));
    }

    @Property(tries = 200)
    void shouldStaySafeUnderNoise(@ForAll @DoubleRange(min = 0.6, max = 2.0) double ratio,
                                  @ForAll @DoubleRange(min = 0.0, max = 0.1) double noise,
                                  @ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
        CostCalibration calibration = new CostCalibration();
        SplittableRandom random = new SplittableRandom(seed);
        int under = 0;
        int n = 400;
        for (int i = 0; i < n; i++) {
            double actual = ratio * (1 + noise * (2 * random.nextDouble() - 1));
            long estimate = 500 + random.nextInt(2_000);
            long provider = Math.round(estimate * actual);
            if (i >= CostCalibration.WINDOW && calibration.apply(estimate) < provider) {
                under++;
            }
            calibration.observe(provider, estimate);
        }
        // the factor sits at a high quantile of the recent ratios: it under-estimates rarely
        assertThat(under).isLessThanOrEqualTo(n / 5);
        assertThat(calibration.factor()).isGreaterThanOrEqualTo(ratio * (1 - noise) - 0.01)
                .isLessThanOrEqualTo(ratio * (1 + noise) + 0.01);
    }
}

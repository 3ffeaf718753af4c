package io.quotaflow.quota;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CostCalibrationTest {

    @Test
    void shouldScaleEstimatesUpWhenTheProviderCountsMore() {
        CostCalibration calibration = new CostCalibration();
        assertThat(calibration.apply(1_000)).isEqualTo(1_000);
        calibration.observe(1_200, 1_000);
        assertThat(calibration.factor()).isEqualTo(1.2);
        assertThat(calibration.apply(1_000)).isEqualTo(1_200);
        calibration.observe(1_000, 1_000);
        assertThat(calibration.factor()).isCloseTo(1.14, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void shouldNeverScaleDownNorMoreThanDouble() {
        CostCalibration calibration = new CostCalibration();
        calibration.observe(500, 1_000);
        assertThat(calibration.factor()).isEqualTo(1.0);
        calibration.observe(10_000, 1_000);
        assertThat(calibration.factor()).isLessThanOrEqualTo(2.0);
        calibration.observe(0, 1_000);
        calibration.observe(1_000, 0);
        assertThat(calibration.factor()).isLessThanOrEqualTo(2.0).isGreaterThanOrEqualTo(1.0);
    }
}

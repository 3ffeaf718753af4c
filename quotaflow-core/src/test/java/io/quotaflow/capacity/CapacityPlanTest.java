package io.quotaflow.capacity;

import io.quotaflow.capacity.CapacityPlan.Inputs;
import io.quotaflow.capacity.CapacityPlan.Limit;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class CapacityPlanTest {

    private static Inputs inputs(Long rpm, Long tpm, double tokens, double latencySeconds, double factor, double ticketsPerRequest,
                                 Long backlog) {
        return new Inputs(rpm == null ? OptionalLong.empty() : OptionalLong.of(rpm), tpm == null ? OptionalLong.empty() : OptionalLong.of(tpm),
                tokens, Duration.ofMillis(Math.round(latencySeconds * 1000)), factor, ticketsPerRequest,
                backlog == null ? OptionalLong.empty() : OptionalLong.of(backlog));
    }

    @Test
    void shouldReproduceSeed004sExample() {
        CapacityPlan plan = CapacityPlan.of(inputs(1_000L, 2_000_000L, 4_000, 3.0, 0.8, 1, null));

        assertThat(plan.rpmCeiling().getAsDouble()).isEqualTo(1_000.0);
        assertThat(plan.tpmCeiling().getAsDouble()).isEqualTo(500.0);
        assertThat(plan.binding()).isEqualTo(Limit.TPM);
        assertThat(plan.safeRequestsPerMinute()).isCloseTo(400.0, within(1e-9));
        assertThat(plan.inFlight()).isEqualTo(20);
        assertThat(plan.drain()).isEmpty();
    }

    @Test
    void shouldBindOnRpmWhenRequestsAreSmall() {
        CapacityPlan plan = CapacityPlan.of(inputs(500L, 200_000L, 150, 2.0, 0.9, 10, 27_000L));

        assertThat(plan.tpmCeiling().getAsDouble()).isCloseTo(1_333.33, within(0.01));
        assertThat(plan.binding()).isEqualTo(Limit.RPM);
        assertThat(plan.safeRequestsPerMinute()).isCloseTo(450.0, within(1e-9));
        assertThat(plan.safeTicketsPerMinute()).isCloseTo(4_500.0, within(1e-9));
        assertThat(plan.inFlight()).as("7.5 a second × 2 s").isEqualTo(15);
        assertThat(plan.drain()).contains(Duration.ofMinutes(6));
    }

    @Test
    void shouldNeedNoCallInFlightAtZeroLatencyAndRoundUpOtherwise() {
        assertThat(CapacityPlan.of(inputs(60L, null, 100, 0, 1, 1, null)).inFlight()).isZero();
        assertThat(CapacityPlan.of(inputs(60L, null, 100, 0.1, 1, 1, null)).inFlight()).as("0.1 call busy is one call").isEqualTo(1);
        assertThat(CapacityPlan.of(inputs(60L, null, 100, 0.1, 1, 1, null)).binding()).isEqualTo(Limit.RPM);
    }

    @Test
    void shouldPlanWithOneLimitOnlyAndRefuseNone() {
        CapacityPlan tpmOnly = CapacityPlan.of(inputs(null, 30_000L, 250, 1, 1, 1, 0L));
        assertThat(tpmOnly.binding()).isEqualTo(Limit.TPM);
        assertThat(tpmOnly.rpmCeiling()).isEmpty();
        assertThat(tpmOnly.safeRequestsPerMinute()).isEqualTo(120.0);
        assertThat(tpmOnly.drain()).contains(Duration.ZERO);

        assertThatThrownBy(() -> inputs(null, null, 250, 1, 1, 1, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("give --rpm, --tpm or both");
        assertThatThrownBy(() -> inputs(100L, null, 250, 1, 0, 1, null)).hasMessageContaining("--safety-factor must be in (0, 1]");
        assertThatThrownBy(() -> inputs(100L, null, 0, 1, 1, 1, null)).hasMessageContaining("tokens a request must be > 0");
        assertThatThrownBy(() -> inputs(0L, null, 10, 1, 1, 1, null)).hasMessageContaining("--rpm must be > 0");
    }
}

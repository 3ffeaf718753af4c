package io.quotaflow.failure;

import io.quotaflow.settings.RetrySettings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ScopeHealthTest {

    @Test
    void shouldProbeAHaltedScopeOncePerIntervalAndResumeOnSuccess() {
        ScopeHealth health = new ScopeHealth("s", RetrySettings.ofDefaults().withHaltProbeInterval(Duration.ofSeconds(10)), (a, b) -> { });
        assertThat(health.tryStart(0)).isTrue();
        health.halt(100, "HTTP 401: invalid_api_key");
        assertThat(health.mode(5_000)).isEqualTo(ScopeHealth.Mode.BLOCKED);
        assertThat(health.tryStart(5_000)).isFalse();
        assertThat(health.mode(10_100)).isEqualTo(ScopeHealth.Mode.PROBE);
        assertThat(health.tryStart(10_100)).isTrue();
        assertThat(health.mode(10_200)).as("one probe at a time").isEqualTo(ScopeHealth.Mode.BLOCKED);
        health.halt(10_300, "HTTP 401: invalid_api_key");
        assertThat(health.halted()).isTrue();
        assertThat(health.tryStart(20_300)).isTrue();
        health.succeeded(20_400, 10);
        assertThat(health.halted()).isFalse();
        assertThat(health.mode(20_500)).isEqualTo(ScopeHealth.Mode.NORMAL);
    }

    @Test
    void shouldSayWhenAHaltedScopesNextProbeMayGo() {
        ScopeHealth health = new ScopeHealth("s", RetrySettings.ofDefaults().withHaltProbeInterval(Duration.ofSeconds(10)), (a, b) -> { });
        assertThat(health.nextHaltProbeAt(50)).as("not halted: now").isEqualTo(50);
        assertThat(health.tryStart(0)).isTrue();
        health.halt(100, "HTTP 401: invalid_api_key");
        assertThat(health.nextHaltProbeAt(5_000)).isEqualTo(10_100);
        assertThat(health.nextHaltProbeAt(12_000)).as("due: now").isEqualTo(12_000);
        assertThat(health.tryStart(12_000)).isTrue();
        assertThat(health.nextHaltProbeAt(12_500)).as("in flight: its answer may come now").isEqualTo(12_500);
        health.failed(13_000, 1_000, "connection reset");
        assertThat(health.nextHaltProbeAt(13_000)).as("a probe that failed: the next one").isEqualTo(22_000);
        assertThat(health.tryStart(22_000)).isTrue();
        health.halt(22_400, "HTTP 401: invalid_api_key");
        assertThat(health.nextHaltProbeAt(22_400)).as("refused again: one interval on").isEqualTo(32_400);
    }

    @Test
    void shouldOpenTheCircuitAfterMostlyFailingCallsAndCloseAfterAGoodProbe() {
        List<String> transitions = new ArrayList<>();
        ScopeHealth health = new ScopeHealth("s", RetrySettings.ofDefaults().withCircuitOpenWait(Duration.ofSeconds(5)),
                (from, to) -> transitions.add(from + "->" + to));
        for (int i = 0; i < 5; i++) {
            assertThat(health.tryStart(i)).isTrue();
            health.failed(i + 1, 1, "503");
        }
        assertThat(health.circuitOpen()).isTrue();
        assertThat(health.tryStart(4_000)).isFalse();
        assertThat(health.tryStart(5_100)).as("half-open probe").isTrue();
        assertThat(health.tryStart(5_150)).as("only one probe").isFalse();
        health.succeeded(5_200, 10);
        assertThat(health.circuitOpen()).isFalse();
        assertThat(transitions).containsExactly("CLOSED->OPEN", "OPEN->HALF_OPEN", "HALF_OPEN->CLOSED");
    }

    @Test
    void shouldKeepTheCircuitClosedWhenAFewStalledCallsEndLateAmongManyGoodOnes() {
        // a backlog's tail: 120 calls answered within 5 s, 6 of the calls started among them stall and end at their
        // 2 s deadline after the rest; the last ten outcomes are then mostly timeouts, the last 30 s are not
        ScopeHealth health = new ScopeHealth("s", RetrySettings.ofDefaults(), (a, b) -> { });
        for (int i = 0; i < 120; i++) {
            assertThat(health.tryStart(i * 40L)).isTrue();
            health.succeeded(i * 40L + 50, 50);
        }
        for (int i = 0; i < 6; i++) {
            assertThat(health.tryStart(3_000 + i * 100L)).isTrue();
            health.failed(5_000 + i * 100L, 2_000, "timeout");
        }
        assertThat(health.circuitOpen()).as("6 timeouts of 126 calls in the window").isFalse();
    }

    @Test
    void shouldOpenTheCircuitWhenTheProviderFailsAfterGoodCalls() {
        ScopeHealth health = new ScopeHealth("s", RetrySettings.ofDefaults(), (a, b) -> { });
        for (int i = 0; i < 10; i++) {
            assertThat(health.tryStart(i * 100L)).isTrue();
            health.succeeded(i * 100L + 50, 50);
        }
        // the outage: every call fails from here on
        int failures = 0;
        long t = 2_000;
        while (!health.circuitOpen() && failures < 100) {
            assertThat(health.tryStart(t)).isTrue();
            health.failed(t + 10, 10, "503");
            failures++;
            t += 200;
        }
        assertThat(health.circuitOpen()).isTrue();
        assertThat(failures).as("half of the window's calls failed").isEqualTo(10);
    }
}

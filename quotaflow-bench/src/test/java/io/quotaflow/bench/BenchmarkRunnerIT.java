package io.quotaflow.bench;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A tiny benchmark end to end: fresh broker, simulator and pipeline; every ticket accounted for once. */
@Order(17) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
class BenchmarkRunnerIT {

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldAccountForEveryTicketOnceWithoutA429() {
        Scenario smoke = new Scenario("s", "smoke", "high limits, 150 tickets", 150, 10_000, 10_000_000, 5, 1, Binding.TPM, false);
        List<String> phases = new ArrayList<>();

        ScenarioResult r = runner(11, Duration.ofSeconds(90), phases).run(smoke);

        assertThat(r.tickets()).isEqualTo(150);
        assertThat(r.classified() + r.deadLettered()).isEqualTo(150);
        assertThat(r.classified()).isPositive();
        assertThat(r.duplicates()).isZero();
        assertThat(r.http429()).isZero();
        assertThat(r.clean()).isTrue();
        assertThat(r.requestsAdmitted()).isPositive().isLessThan(150);
        assertThat(r.tokensPerTicketAdmitted()).isGreaterThan(r.tokensPerTicketUsed()).isGreaterThan(50);
        assertThat(r.categoryAccuracy()).isBetween(0.5, 1.0);
        assertThat(r.urgencyAccuracy()).isBetween(0.5, 1.0);
        assertThat(r.wallTimeMs()).isPositive();
        assertThat(r.steadyState().shortRun()).isTrue();
        assertThat(phases).anyMatch(p -> p.startsWith("publishing 150 tickets"));
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldRunThePipelineInAJvmOfItsOwn() {
        Scenario smoke = new Scenario("s", "smoke", "high limits, 120 tickets", 120, 10_000, 10_000_000, 5, 1, Binding.TPM, false);
        List<String> phases = new ArrayList<>();

        ScenarioResult r = runner(12, Duration.ofSeconds(120), phases).runInOwnJvm(smoke);

        assertThat(r.classified()).isEqualTo(120);
        assertThat(r.duplicates()).isZero();
        assertThat(r.http429()).isZero();
        assertThat(r.clean()).isTrue();
        assertThat(phases).anyMatch(p -> p.endsWith("pipeline instance(s), each in a JVM of its own"));
        // the child's CPU is its own process's, read from outside it
        assertThat(r.notes()).anyMatch(n -> n.startsWith("the pipeline's own JVM: CPU ") && !n.startsWith("the pipeline's own JVM: CPU 0 µs"));
    }

    /** A runner on a 20 ms simulator, its phase lines collected in {@code phases}. */
    private static BenchmarkRunner runner(long seed, Duration timeout, List<String> phases) {
        return new BenchmarkRunner(BenchmarkRunner.Options.defaults(seed).withTimeout(timeout).withProgressInterval(Duration.ofSeconds(1))
                .withSimulator(b -> b.baseLatencyMs(20).perCompletionTokenMs(0)),
                new BenchmarkRunner.Listener() {
                    @Override
                    public void phase(Scenario scenario, String message) {
                        phases.add(message);
                    }
                });
    }
}

package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** When benchmark (i) has warmed up enough to measure. */
class WarmUpTest {

    @Test
    void shouldWarmUpAtLeastTwice() {
        assertThat(WarmUp.done(List.of())).isFalse();
        assertThat(WarmUp.done(List.of(3_000.0))).isFalse();
    }

    @Test
    void shouldGoOnWhileEachRunIsClearlyFasterThanTheOneBefore() {
        assertThat(WarmUp.done(List.of(1_460.0, 2_559.0))).isFalse();
        assertThat(WarmUp.done(List.of(1_460.0, 2_559.0, 2_983.0, 3_637.0))).isFalse();
    }

    @Test
    void shouldStopOnceARunIsWithinFivePercentOfTheOneBefore() {
        assertThat(WarmUp.done(List.of(1_460.0, 2_559.0, 2_983.0, 3_637.0, 3_780.0))).isTrue();
        assertThat(WarmUp.done(List.of(3_000.0, 2_800.0))).isTrue();
        assertThat(WarmUp.done(List.of(3_000.0, 3_151.0))).isFalse();
    }

    @Test
    void shouldStopAfterSixRunsWhateverTheyMeasured() {
        assertThat(WarmUp.done(List.of(1.0, 2.0, 4.0, 8.0, 16.0))).isFalse();
        assertThat(WarmUp.done(List.of(1.0, 2.0, 4.0, 8.0, 16.0, 32.0))).isTrue();
    }

    @Test
    void shouldNotTrustARunThatMeasuredNothing() {
        assertThat(WarmUp.done(List.of(0.0, 0.0))).isFalse();
    }

    @Test
    void shouldSayHowEachWarmUpRunWent() {
        assertThat(WarmUp.describe(List.of(1_460.4, 2_559.0)))
                .isEqualTo("measured after 2 warm-up runs of 25,000 tickets in the same JVM, at 1,460, 2,559 tickets/s");
    }

    @Test
    void shouldSayWhetherTheColdRunWasTheFirstInItsJvm() {
        assertThat(WarmUp.describeCold(1_134.4, 1_300.0, 20_000, 0)).isEqualTo("cold: 20,000 tickets, the first pipeline run in a "
                + "fresh JVM: 1,134 tickets/s from first publish to last result (1,300 after the last publish)");
        assertThat(WarmUp.describeCold(null, null, 20_000, 2)).isEqualTo("cold: 20,000 tickets, after 2 pipeline runs in this JVM "
                + "(not a fresh JVM: run --scenario i alone): – tickets/s from first publish to last result (– after the last publish)");
    }

    @Test
    void shouldSayTheFreshJvmRunHadAJvmOfItsOwn() {
        assertThat(WarmUp.describeFreshJvm(2_345.6, 2_500.0, 20_000, List.of("-Xmx768m", "-XX:+UseSerialGC")))
                .isEqualTo("fresh pipeline JVM: 20,000 tickets through `quotaflow run` in a JVM of its own (-Xmx768m -XX:+UseSerialGC), started for them (the broker and the simulator warm): 2,346 tickets/s from first publish to last "
                + "result (2,500 after the last publish)");
    }

    @Test
    void shouldPassTheExtraPipelineJvmOptionsAfterTheHeapLimit() {
        BenchmarkRunner.Options defaults = BenchmarkRunner.Options.defaults(1);
        assertThat(defaults.pipelineJvmArgs()).containsExactly("-Xmx768m");
        assertThat(defaults.withPipelineJvmOptions(null).pipelineJvmArgs()).containsExactly("-Xmx768m");
        assertThat(defaults.withPipelineJvmOptions("  ").pipelineJvmArgs()).containsExactly("-Xmx768m");
        BenchmarkRunner.Options extra = defaults.withPipelineJvmOptions(" -XX:TieredStopAtLevel=1 \t-XX:+UseSerialGC ");
        assertThat(extra.pipelineJvmArgs()).containsExactly("-Xmx768m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
        assertThat(extra.withWarmUp(false).withTimeout(Duration.ofMinutes(1)).withProgressInterval(Duration.ofSeconds(1)).withSimulator(b -> b)
                .pipelineJvmArgs()).as("kept by every copy").isEqualTo(extra.pipelineJvmArgs());
    }

    @Test
    void shouldKeepTheFreshJvmAloneChoiceThroughEveryCopy() {
        BenchmarkRunner.Options defaults = BenchmarkRunner.Options.defaults(1);
        assertThat(defaults.freshOnly()).isFalse();
        BenchmarkRunner.Options fresh = defaults.withFreshOnly(true);
        assertThat(fresh.withWarmUp(true).withTimeout(Duration.ofMinutes(1)).withProgressInterval(Duration.ofSeconds(1))
                .withSimulator(b -> b).withPipelineJvmOptions("-XX:+UseSerialGC").freshOnly()).isTrue();
    }

    @Test
    void shouldLetQuotaflowRunStartWithThePipelineJvmOptionsSet() {
        // a shell that set it for a benchmark also starts `quotaflow run` (the bench's children inherit it)
        assertThat(io.quotaflow.config.ConfigKeys.unknownVariable(java.util.Map.of(io.quotaflow.dev.BenchCommand.PIPELINE_JVM_OPTS_ENV,
                "-XX:+UseSerialGC"), io.quotaflow.dev.QuotaflowDevCommand.VARIABLES)).isEmpty();
    }
}

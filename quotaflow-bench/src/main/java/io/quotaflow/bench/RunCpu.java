package io.quotaflow.bench;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** (i)'s CPU figures of a run: where the measured window's CPU went, the pipeline's own CPU a ticket, per run. */
final class RunCpu {

    /** The run names of (i)'s CPU figures. */
    static final String COLD = "cold";
    static final String WARM = "warm";
    static final String FRESH_JVM = "fresh JVM";

    private RunCpu() {
    }

    /** {@code result}'s own CPU figure, named {@code run}; empty when it has none. */
    static List<ScenarioFigures.PipelineCpu> cpuOf(ScenarioResult result, String run) {
        List<ScenarioFigures.PipelineCpu> cpu = result.figures().pipelineCpu();
        return cpu == null ? List.of() : cpu.stream().map(c -> new ScenarioFigures.PipelineCpu(run, c.microsPerTicket(),
                c.ticketsPerSecond(), c.counted())).toList();
    }

    /** The warm row with every run's CPU beside its rate, and one note saying them. */
    static ScenarioResult withRuns(ScenarioResult result, List<ScenarioFigures.PipelineCpu> runs) {
        return result.withFigures(result.figures().withPipelineCpu(runs)).withNote(ResultTable.pipelineCpu(runs));
    }

    /** A run whose instances had JVMs of their own: their CPU, as a note ({@code nanos} -1: they ran in this JVM, no note). */
    static ScenarioResult withOwnCpu(ScenarioResult result, long nanos, long tickets, long wallMs, String byThreads) {
        return nanos < 0 ? result : result.withNote(String.format(java.util.Locale.ROOT,
                "the pipeline's own JVM: CPU %,d µs a ticket (%.2f cores over the run)%s", nanos / 1_000 / Math.max(1, tickets),
                nanos / 1e6 / Math.max(1, wallMs), byThreads.isEmpty() ? "" : ": " + byThreads));
    }

    /** (i): where the measured window's CPU went ({@link CpuUse}), as a note. */
    static ScenarioResult withCpu(Scenario scenario, ScenarioResult result, Map<CpuUse.Group, Long> cpu, long tickets) {
        return scenario.kind() == Scenario.Kind.OVERHEAD
                ? result.withNote(CpuUse.describe(cpu, tickets, Runtime.getRuntime().availableProcessors())) : result;
    }

    /**
     * (i): the pipeline's own CPU a ticket as a figure beside the run's rate: its JVM's process CPU when it ran in one of its
     * own ({@code ownNanos} ≥ 0), else its threads' here (stream threads and the rest of the pipeline).
     */
    static ScenarioResult withPipelineCpu(Scenario scenario, ScenarioResult result, Map<CpuUse.Group, Long> cpu, long ownNanos,
                                                  long tickets) {
        if (scenario.kind() != Scenario.Kind.OVERHEAD) {
            return result;
        }
        boolean own = ownNanos >= 0;
        long nanos = own ? ownNanos : cpu.getOrDefault(CpuUse.Group.STREAM_THREAD, 0L) + cpu.getOrDefault(CpuUse.Group.PIPELINE_OTHER, 0L);
        ScenarioFigures.PipelineCpu run = new ScenarioFigures.PipelineCpu(own ? FRESH_JVM : "this run", nanos / 1e3 / Math.max(1, tickets),
                result.figures().ticketsPerSecond(), own ? "process" : "threads");
        return result.withFigures(result.figures().withPipelineCpu(List.of(run)));
    }

    /** CPU the instances in JVMs of their own used since {@code atStart}, by thread group (all zero when they run in this JVM). */
    static Map<JvmThreadsCpu.Group, Long> ownThreadsSince(List<BenchInstance> pipelines, List<JvmThreadsCpu> atStart) {
        Map<JvmThreadsCpu.Group, Long> spent = new java.util.EnumMap<>(JvmThreadsCpu.Group.class);
        for (int i = 0; i < pipelines.size(); i++) {
            pipelines.get(i).ownThreads().since(atStart.get(i)).forEach((g, n) -> spent.merge(g, n, Long::sum));
        }
        return spent;
    }

    /** CPU the instances in JVMs of their own used since {@code atStart}, in ns; -1 when they run in this JVM. */
    static long ownCpuSince(List<BenchInstance> pipelines, List<Duration> atStart) {
        long nanos = -1;
        for (int i = 0; i < pipelines.size(); i++) {
            Duration now = pipelines.get(i).ownCpu();
            if (now != null && atStart.get(i) != null) {
                nanos = Math.max(nanos, 0) + now.minus(atStart.get(i)).toNanos();
            }
        }
        return nanos;
    }
}

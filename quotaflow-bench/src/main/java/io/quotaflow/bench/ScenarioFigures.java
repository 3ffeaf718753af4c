package io.quotaflow.bench;

import java.util.List;

/**
 * The figures of a {@link ScenarioResult} beyond quota use and tokens: losses, whole-run use, tickets
 * per busy minute and the baseline, and what the overhead, interactive and replay scenarios measure.
 * Every field is null where it does not apply.
 *
 * @param kind                   {@link Scenario.Kind} name ({@code PIPELINE}, ...); null for rows made elsewhere
 * @param shape                  the provider's shape, when it differs from the defaults
 * @param lost                   tickets neither classified nor dead-lettered (dead letters not replayed, for (k))
 * @param busyMs                 first call to last answer
 * @param ticketsPerBusyMinute   classified tickets per minute of {@code busyMs}
 * @param wholeRun               whole-run use of the binding limit
 * @param contextLengthRefusals  requests the simulator refused with 400 {@code context_length_exceeded}
 * @param baseline               the fixed-batch baseline on the same tickets, when it ran
 * @param baselineRatio          ticketsPerBusyMinute / the baseline's
 * @param baselineFeasibleRatio  wholeRun.use / the baseline's
 * @param ticketsPerSecond       (i) tickets / (last result − first publish)
 * @param drainTicketsPerSecond  (i) results after the last publish / (last result − last publish)
 * @param publishMs              (i) first publish to last publish
 * @param interactive            (j) interactive tickets' time from publish to result
 * @param replay                 (k) the dead-letter replay
 * @param pipelineCpu            (i) the pipeline's own CPU a ticket beside its rate, one entry per measured run (this run's alone,
 *                               or the cold, warm and fresh-JVM runs together on the warm row)
 */
public record ScenarioFigures(String kind, String shape, Long lost, Long busyMs, Double ticketsPerBusyMinute, WholeRunUse wholeRun,
                              Long contextLengthRefusals, BaselineResult baseline, Double baselineRatio,
                              Double baselineFeasibleRatio, Double ticketsPerSecond, Double drainTicketsPerSecond, Long publishMs,
                              Latency interactive, Replay replay, List<PipelineCpu> pipelineCpu) {

    /** Nothing measured beyond the original figures. */
    public static final ScenarioFigures NONE = new ScenarioFigures(null, null, null, null, null, null, null, null, null, null, null,
            null, null, null, null);

    public ScenarioFigures {
        pipelineCpu = pipelineCpu == null ? null : List.copyOf(pipelineCpu);
    }

    /** Figures without a CPU measurement. */
    public ScenarioFigures(String kind, String shape, Long lost, Long busyMs, Double ticketsPerBusyMinute, WholeRunUse wholeRun,
                           Long contextLengthRefusals, BaselineResult baseline, Double baselineRatio, Double baselineFeasibleRatio,
                           Double ticketsPerSecond, Double drainTicketsPerSecond, Long publishMs, Latency interactive, Replay replay) {
        this(kind, shape, lost, busyMs, ticketsPerBusyMinute, wholeRun, contextLengthRefusals, baseline, baselineRatio,
                baselineFeasibleRatio, ticketsPerSecond, drainTicketsPerSecond, publishMs, interactive, replay, null);
    }

    /**
     * (i) What the pipeline itself spent on one run's tickets, from the first publish to the last result: CPU that
     * is comparable across days on a shared machine, where the rate is not.
     *
     * @param run              which run: {@code cold} (the bench JVM's first), {@code warm}, {@code fresh JVM}
     * @param microsPerTicket  the pipeline's CPU microseconds a ticket: its threads' when it runs in the bench JVM
     *                         (stream threads, producers, HTTP client; not the JIT and GC it shares with the broker),
     *                         its whole process's when it runs in a JVM of its own (JIT and GC included)
     * @param ticketsPerSecond the same run's tickets / (last result − first publish)
     * @param counted          what {@code microsPerTicket} counts: {@code threads} or {@code process}
     */
    public record PipelineCpu(String run, double microsPerTicket, Double ticketsPerSecond, String counted) {
    }

    /** These figures with the CPU of the runs given ({@code runs} in order). */
    public ScenarioFigures withPipelineCpu(List<PipelineCpu> runs) {
        return new ScenarioFigures(kind, shape, lost, busyMs, ticketsPerBusyMinute, wholeRun, contextLengthRefusals, baseline,
                baselineRatio, baselineFeasibleRatio, ticketsPerSecond, drainTicketsPerSecond, publishMs, interactive, replay, runs);
    }

    /**
     * Time from publish to result of a few tickets, in milliseconds.
     *
     * @param tickets  how many were measured
     * @param missing  how many had no result (dead-lettered or unreadable)
     * @param p50Ms    nearest-rank median
     * @param p99Ms    nearest-rank 99th percentile (with 30 samples: the largest)
     * @param maxMs    the largest
     * @param samplesMs every sample, in publish order
     */
    public record Latency(int tickets, int missing, long p50Ms, long p99Ms, long maxMs, List<Long> samplesMs) {
        public Latency {
            samplesMs = List.copyOf(samplesMs);
        }

        public static Latency of(List<Long> samplesMs, int missing) {
            if (samplesMs.isEmpty()) {
                return new Latency(0, missing, 0, 0, 0, List.of());
            }
            return new Latency(samplesMs.size(), missing, Percentiles.nearestRank(samplesMs, 50), Percentiles.nearestRank(samplesMs, 99),
                    Percentiles.nearestRank(samplesMs, 100), samplesMs);
        }
    }

    /**
     * A {@code dlq replay} measurement.
     *
     * @param deadLetters              dead letters written to {@code tickets.dlq}
     * @param replayed                 records the unlimited replay ({@code --rate 0}) wrote
     * @param elapsedMs                how long it took (client start to commit of the last batch)
     * @param recordsPerSecond         replayed / elapsed
     * @param found                    distinct dead-letter keys a {@code read_committed} consumer found on the origin topics
     * @param duplicates               records found beyond one per key
     * @param outcome                  how the replay ended ({@code completed}, ...)
     * @param defaultRate              the default {@code --rate}
     * @param defaultRateReplayed      records a second replay group wrote at the default rate
     * @param defaultRateElapsedMs     how long that took
     * @param defaultRateRecordsPerSecond defaultRateReplayed / its elapsed time
     */
    public record Replay(long deadLetters, long replayed, long elapsedMs, double recordsPerSecond, long found, long duplicates,
                         String outcome, double defaultRate, long defaultRateReplayed, long defaultRateElapsedMs,
                         double defaultRateRecordsPerSecond) {
    }

    public ScenarioFigures withBaseline(BaselineResult value) {
        Double ratio = value == null ? null : WholeRunUse.ratio(ticketsPerBusyMinute, value.ticketsPerBusyMinute());
        Double feasible = value == null || wholeRun == null || value.wholeRun() == null ? null
                : WholeRunUse.ratio(wholeRun.use(), value.wholeRun().use());
        return new ScenarioFigures(kind, shape, lost, busyMs, ticketsPerBusyMinute, wholeRun, contextLengthRefusals, value, ratio,
                feasible, ticketsPerSecond, drainTicketsPerSecond, publishMs, interactive, replay, pipelineCpu);
    }
}

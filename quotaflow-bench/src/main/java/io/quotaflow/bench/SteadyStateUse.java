package io.quotaflow.bench;

import io.quotaflow.simulator.SimulatorStats;

import java.util.List;
import java.util.Objects;

/**
 * Steady-state use of the binding limit: what the provider admitted in a window that leaves out
 * the start (the limiter starts with empty buckets and earns its burst) and the tail (the last
 * partial batches drain), divided by what the limit allows over that window.
 *
 * <p>Window, in whole wall-clock seconds {@code [from, to)}:
 * <ul>
 *   <li>{@code from} = first arrival + {@value #WARM_UP_SECONDS} s, where the first arrival is the
 *       first second with an admission (the simulator's buckets start full, so the very first
 *       request is always admitted);</li>
 *   <li>{@code to} = last answer − {@value #COOL_DOWN_SECONDS} s, rounded down to a whole second;</li>
 *   <li>a run shorter than {@value #WARM_UP_SECONDS} + {@value #COOL_DOWN_SECONDS} +
 *       {@value #COOL_DOWN_SECONDS} s (first arrival to last answer) starts the window at first
 *       arrival + {@value #SHORT_WARM_UP_SECONDS} s instead, and says so ({@link #shortRun}).</li>
 * </ul>
 * use = admitted in the window / (limit / 60 × window seconds); 1.0 means the provider was driven
 * exactly at its configured rate. Pure arithmetic over the simulator's per-second samples.
 *
 * @param binding        which limit
 * @param limitPerMinute that limit, per minute
 * @param fromEpochSecond first second of the window (inclusive)
 * @param toEpochSecond  end of the window (exclusive)
 * @param admitted       tokens (TPM) or requests (RPM) admitted in the window
 * @param use            admitted / allowed; NaN when the window is empty
 * @param shortRun       whether the short-run rule (first arrival + 10 s) was used
 */
public record SteadyStateUse(Binding binding, long limitPerMinute, long fromEpochSecond, long toEpochSecond, long admitted,
                             double use, boolean shortRun) {

    public static final int WARM_UP_SECONDS = 60;
    public static final int SHORT_WARM_UP_SECONDS = 10;
    public static final int COOL_DOWN_SECONDS = 10;

    public SteadyStateUse {
        Objects.requireNonNull(binding, "binding");
    }

    /**
     * @param perSecond         the simulator's admissions per second, oldest first (seconds without admissions omitted)
     * @param binding           the limit measured
     * @param limitPerMinute    its value
     * @param lastAnswerEpochMs when the last answer came back (the run's end)
     */
    public static SteadyStateUse compute(List<SimulatorStats.Second> perSecond, Binding binding, long limitPerMinute,
                                         long lastAnswerEpochMs) {
        Objects.requireNonNull(perSecond, "perSecond");
        if (limitPerMinute <= 0) {
            throw new IllegalArgumentException("limitPerMinute must be > 0: " + limitPerMinute);
        }
        if (perSecond.isEmpty()) {
            return new SteadyStateUse(binding, limitPerMinute, 0, 0, 0, Double.NaN, true);
        }
        long firstArrival = perSecond.stream().mapToLong(SimulatorStats.Second::epochSecond).min().getAsLong();
        double runSeconds = lastAnswerEpochMs / 1000.0 - firstArrival;
        boolean shortRun = runSeconds < WARM_UP_SECONDS + COOL_DOWN_SECONDS + COOL_DOWN_SECONDS;
        long from = firstArrival + (shortRun ? SHORT_WARM_UP_SECONDS : WARM_UP_SECONDS);
        long to = Math.floorDiv(lastAnswerEpochMs, 1000L) - COOL_DOWN_SECONDS;
        if (to <= from) {
            return new SteadyStateUse(binding, limitPerMinute, from, Math.max(from, to), 0, Double.NaN, shortRun);
        }
        long admitted = 0;
        for (SimulatorStats.Second s : perSecond) {
            if (s.epochSecond() >= from && s.epochSecond() < to) {
                admitted += binding.of(s);
            }
        }
        double allowed = limitPerMinute / 60.0 * (to - from);
        return new SteadyStateUse(binding, limitPerMinute, from, to, admitted, admitted / allowed, shortRun);
    }

    /** Seconds in the window (0 when none). */
    public long windowSeconds() {
        return Math.max(0, toEpochSecond - fromEpochSecond);
    }

    /** Whether there was a window to measure. */
    public boolean measured() {
        return windowSeconds() > 0 && !Double.isNaN(use);
    }

    /** How the window was chosen, for a footnote: {@code first arrival + 60 s … last answer − 10 s (245 s)}. */
    public String describeWindow() {
        return "first arrival + " + (shortRun ? SHORT_WARM_UP_SECONDS : WARM_UP_SECONDS) + " s … last answer − "
                + COOL_DOWN_SECONDS + " s (" + windowSeconds() + " s)" + (shortRun ? ", short run" : "");
    }
}

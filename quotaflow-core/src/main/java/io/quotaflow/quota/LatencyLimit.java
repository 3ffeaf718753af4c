package io.quotaflow.quota;

/**
 * How many calls a self-hosted engine should have outstanding, found from the calls' latency: an
 * engine's limit is physical, not a quota. Up to its saturation more calls in flight means more
 * throughput at the same latency; beyond it, the calls share the engine and each takes longer for
 * no more throughput. So the limit rises while the calls are not slower than the engine unloaded,
 * and falls as soon as they are: it finds the knee and stays just below it (seed 001: "raise
 * concurrency until latency per request starts rising disproportionately, and stay one step below").
 *
 * <p>A gradient/Vegas-style limiter, as Netflix concurrency-limits' Gradient2 and Vegas are: a
 * long-window baseline latency (the engine unloaded), a short-window latency (the calls sent under
 * the current limit), and a tolerance between them.
 * <ul>
 *   <li>Like with like: a call's latency depends on its size (a backlog's full batches take longer
 *       than single-ticket calls, loaded or not), so every call falls in a size class by the tokens
 *       it was charged (classes {@value #CLASS_STEP}× apart) and each class has its own baseline.</li>
 *   <li>Short window: the calls sent since the limit last changed, once at least
 *       max({@value #MIN_WINDOW}, limit) of them have been answered (about one round trip at the
 *       limit). Its ratio is what its calls took over what their classes' baselines say they take
 *       unloaded. Calls sent under an older limit do not count: their latency says nothing of the
 *       new one.</li>
 *   <li>Baselines: per class, the lowest mean of a window with at least {@value #MIN_CLASS} of its
 *       calls, drifting up by {@value #BASELINE_RISE} of the gap each such window it is not
 *       undercut, so an engine that has become slower is relearned. A class first seen (a size
 *       the engine has not run yet) takes its baseline from the window it is first seen in, unless
 *       the window's known classes read it overloaded; a window with fewer than {@value #MIN_CLASS}
 *       calls of known classes, after the first, neither grows nor shrinks the limit.</li>
 *   <li>Window within {@value #TOLERANCE} × the baseline: the limit grows, doubling at first (slow
 *       start) and then by one, but only when the window really ran at the limit (a queue too short
 *       to fill it says nothing of a higher one).</li>
 *   <li>Window above it: the limit shrinks by the ratio, tolerance × baseline / window, to at most
 *       one less and at least half, and slow start ends.</li>
 *   <li>An overload refusal (a 429 without rate-limit headers: "Model is overloaded", or a 503) of
 *       a call sent under the current limit shrinks it to {@value #OVERLOAD_BACKOFF} of itself, at
 *       most once per limit.</li>
 * </ul>
 * It starts at {@value #INITIAL}, low, so that the first window measures the engine unloaded.
 *
 * <p>Written here rather than taken from {@code com.netflix.concurrency-limits}: that library is
 * not among the build's dependencies, and its limiters keep their own synchronized state updated
 * from the caller's threads, while this one is the project's usual shape: owned by one stream task,
 * not thread-safe, a pure function of what it was told and the injected times it was told them at;
 * it reads no clock.
 */
public final class LatencyLimit {

    /** Where it starts: low enough that the first window sees the engine unloaded. */
    static final int INITIAL = 4;
    /** How much slower than the baseline a window may be and still count as not slower. */
    static final double TOLERANCE = 1.1;
    /** The fewest answers a window is made of. */
    static final int MIN_WINDOW = 16;
    /** The most one window can shrink the limit by. */
    static final double MAX_BACKOFF = 0.5;
    /** What an overload refusal leaves of the limit. */
    static final double OVERLOAD_BACKOFF = 0.75;
    /** How far the baseline moves toward a slower window, per window. */
    static final double BASELINE_RISE = 0.02;
    /** The ratio of tokens between one size class and the next. */
    static final double CLASS_STEP = 1.25;
    /** Size classes: the last holds every call of more than {@code CLASS_STEP^(CLASSES-1)} (about 1.3 M) tokens. */
    static final int CLASSES = 64;
    /** The fewest calls of a class in a window for the window to set or move the class's baseline, and of known classes to judge it. */
    static final int MIN_CLASS = 4;

    private final int ceiling;
    private int limit;
    private boolean slowStart = true;
    /** Per size class: its baseline latency, NaN until its first window. */
    private final double[] baselineMs = new double[CLASSES];
    /** Calls sent before this moment belong to an older limit. */
    private long changedNanos;
    /** Per size class: the latencies and calls of the window. */
    private final double[] windowSumMs = new double[CLASSES];
    private final int[] windowCalls = new int[CLASSES];
    private int windowCount;
    /** The most calls out when a call of the window was sent (itself included). */
    private int windowMostOut;

    /**
     * @param ceiling  the most it may choose
     * @param nowNanos the time it starts at, on the clock its callers use
     */
    public LatencyLimit(int ceiling, long nowNanos) {
        if (ceiling < 1) {
            throw new IllegalArgumentException("ceiling must be >= 1: " + ceiling);
        }
        this.ceiling = ceiling;
        this.limit = Math.min(INITIAL, ceiling);
        this.changedNanos = nowNanos;
        java.util.Arrays.fill(baselineMs, Double.NaN);
    }

    /** The size class of a call charged {@code tokens}: classes are {@value #CLASS_STEP}× apart. */
    public static int sizeClass(long tokens) {
        if (tokens <= 1) {
            return 0;
        }
        return (int) Math.min(CLASSES - 1, Math.floor(Math.log(tokens) / Math.log(CLASS_STEP)));
    }

    /** The calls that may be out now. */
    public int limit() {
        return limit;
    }

    /** The baseline latency of calls charged {@code tokens}, in milliseconds; NaN before their class's first window. */
    public double baselineMs(long tokens) {
        return baselineMs[sizeClass(tokens)];
    }

    /** Whether it still doubles. */
    public boolean slowStart() {
        return slowStart;
    }

    /**
     * A call sent at {@code sentNanos}, while {@code outAtSend} calls were out with it, was answered
     * after {@code latencyMs}; {@code nowNanos} is now. All calls of one size.
     */
    public void answered(long sentNanos, int outAtSend, long latencyMs, long nowNanos) {
        answered(sentNanos, outAtSend, 0, latencyMs, nowNanos);
    }

    /**
     * A call charged {@code tokens}, sent at {@code sentNanos} while {@code outAtSend} calls were out
     * with it, was answered after {@code latencyMs}; {@code nowNanos} is now.
     */
    public void answered(long sentNanos, int outAtSend, long tokens, long latencyMs, long nowNanos) {
        if (sentNanos < changedNanos) {
            return;
        }
        int c = sizeClass(tokens);
        windowSumMs[c] += Math.max(1, latencyMs);
        windowCalls[c]++;
        windowCount++;
        windowMostOut = Math.max(windowMostOut, outAtSend);
        if (windowCount < Math.max(MIN_WINDOW, limit)) {
            return;
        }
        double ratio = windowRatio();
        if (Double.isNaN(ratio)) {
            // sizes the engine has not run before: their baselines are set, the limit is not judged
            startWindow(nowNanos);
        } else if (ratio <= TOLERANCE) {
            if (windowMostOut >= limit) {
                change(slowStart ? limit * 2 : limit + 1, nowNanos);
            } else {
                startWindow(nowNanos);
            }
        } else {
            slowStart = false;
            double factor = Math.max(MAX_BACKOFF, TOLERANCE / ratio);
            change(Math.min(limit - 1, (int) Math.floor(limit * factor)), nowNanos);
        }
    }

    /**
     * The window's latency over what its calls' classes take unloaded, after moving the known
     * classes' baselines; the new classes' baselines are set from it unless it reads overloaded.
     * NaN when fewer than {@value #MIN_CLASS} of its calls are of known classes and some class was
     * known before (the first window of all is its own baseline: 1).
     */
    private double windowRatio() {
        boolean anyKnown = false;
        double took = 0;
        double unloaded = 0;
        int known = 0;
        for (int c = 0; c < CLASSES; c++) {
            if (Double.isNaN(baselineMs[c])) {
                continue;
            }
            anyKnown = true;
            int n = windowCalls[c];
            if (n == 0) {
                continue;
            }
            double mean = windowSumMs[c] / n;
            if (n >= MIN_CLASS) {
                baselineMs[c] = mean < baselineMs[c] ? mean : baselineMs[c] + (mean - baselineMs[c]) * BASELINE_RISE;
            }
            took += windowSumMs[c];
            unloaded += n * baselineMs[c];
            known += n;
        }
        double ratio = known >= MIN_CLASS ? took / unloaded : anyKnown ? Double.NaN : 1.0;
        if (Double.isNaN(ratio) || ratio <= TOLERANCE) {
            for (int c = 0; c < CLASSES; c++) {
                if (Double.isNaN(baselineMs[c]) && windowCalls[c] >= (anyKnown ? MIN_CLASS : 1)) {
                    baselineMs[c] = windowSumMs[c] / windowCalls[c];
                }
            }
        }
        return ratio;
    }

    /**
     * The engine refused a call sent at {@code sentNanos} as overloaded (a 429 without rate-limit
     * headers, or a 503): too many at once.
     */
    public void overloaded(long sentNanos, long nowNanos) {
        if (sentNanos < changedNanos) {
            // sent under an older limit, or a refusal this limit has already answered for
            return;
        }
        slowStart = false;
        change(Math.min(limit - 1, (int) Math.floor(limit * OVERLOAD_BACKOFF)), nowNanos);
    }

    private void change(int newLimit, long nowNanos) {
        limit = Math.max(1, Math.min(ceiling, newLimit));
        startWindow(nowNanos);
    }

    private void startWindow(long nowNanos) {
        changedNanos = nowNanos;
        java.util.Arrays.fill(windowSumMs, 0);
        java.util.Arrays.fill(windowCalls, 0);
        windowCount = 0;
        windowMostOut = 0;
    }
}

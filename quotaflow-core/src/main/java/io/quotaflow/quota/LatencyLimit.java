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
 *   <li>Short window: the calls sent since the limit last changed, once at least
 *       max({@value #MIN_WINDOW}, limit) of them have been answered (about one round trip at the
 *       limit); their mean latency is the window's. Calls sent under an older limit do not count:
 *       their latency says nothing of the new one.</li>
 *   <li>Baseline: the lowest window seen, drifting up by {@value #BASELINE_RISE} of the gap each
 *       window it is not undercut, so an engine that has become slower is relearned.</li>
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

    private final int ceiling;
    private int limit;
    private boolean slowStart = true;
    private double baselineMs = Double.NaN;
    /** Calls sent before this moment belong to an older limit. */
    private long changedNanos;
    private double windowSumMs;
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
    }

    /** The calls that may be out now. */
    public int limit() {
        return limit;
    }

    /** The baseline latency, in milliseconds; NaN before the first window. */
    public double baselineMs() {
        return baselineMs;
    }

    /** Whether it still doubles. */
    public boolean slowStart() {
        return slowStart;
    }

    /**
     * A call sent at {@code sentNanos}, while {@code outAtSend} calls were out with it, was answered
     * after {@code latencyMs}; {@code nowNanos} is now.
     */
    public void answered(long sentNanos, int outAtSend, long latencyMs, long nowNanos) {
        if (sentNanos < changedNanos) {
            return;
        }
        windowSumMs += Math.max(1, latencyMs);
        windowCount++;
        windowMostOut = Math.max(windowMostOut, outAtSend);
        if (windowCount < Math.max(MIN_WINDOW, limit)) {
            return;
        }
        double windowMs = windowSumMs / windowCount;
        if (Double.isNaN(baselineMs) || windowMs < baselineMs) {
            baselineMs = windowMs;
        } else {
            baselineMs += (windowMs - baselineMs) * BASELINE_RISE;
        }
        double ratio = windowMs / baselineMs;
        if (ratio <= TOLERANCE) {
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
        windowSumMs = 0;
        windowCount = 0;
        windowMostOut = 0;
    }
}

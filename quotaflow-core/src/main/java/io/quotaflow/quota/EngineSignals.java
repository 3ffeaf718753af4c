package io.quotaflow.quota;

import java.util.Arrays;

/**
 * Whether a route configured with rate limits looks like a self-hosted engine (vLLM, TGI, Ollama)
 * instead: its answers never carry rate-limit headers, and its calls take longer the more are in
 * flight. A provider with a quota sends rate-limit headers with every answer, and its latency does
 * not depend on how many of our calls are out; an engine sends none, and beyond its saturation its
 * running calls share it. A new user configures such an engine with huge numeric limits (rpm
 * 1 000 000), which by Little's law would allow the in-flight ceiling at once.
 *
 * <ul>
 *   <li>Headers: one answer carrying rate-limit headers settles it: not an engine, for good.</li>
 *   <li>Latency rising with calls in flight: of the last {@value #SAMPLES} answers (once at least
 *       {@value #MIN_ANSWERS}, none with headers), each call's latency over the quickest of its size
 *       class ({@link LatencyLimit#sizeClass}, so calls of different sizes are compared like with
 *       like); the calls sent with more out than the median against those sent with fewer: when the
 *       former had at least {@value #SPREAD}× as many out on average and took {@value #RISE}× as long,
 *       latency rises with concurrency. The verdict holds until an answer carries headers.</li>
 *   <li>Meanwhile, the safe thing: until an answer has carried headers or the verdict is in, the
 *       calls out are at most {@value #INITIAL_CAP}, doubling each second the first calls wait
 *       while none is answered, and then twice the most that were out when an answered call was
 *       sent: concurrency doubles per round trip, as a slow start, rather than jumping to the
 *       ceiling before anything is known.</li>
 * </ul>
 * Owned by one stream task; not thread-safe; a pure function of what it was told.
 */
public final class EngineSignals {

    /** Answers without headers before a verdict. */
    static final int MIN_ANSWERS = 16;
    /** The answers the verdict is taken over. */
    static final int SAMPLES = 64;
    /** How much longer the calls sent with more out must take. */
    static final double RISE = 1.3;
    /** How many more must have been out with them, on average. */
    static final double SPREAD = 1.5;
    /** The most calls out before the first answer. */
    public static final int INITIAL_CAP = 16;

    private boolean headersSeen;
    private boolean engine;
    private long headerless;
    private int mostOut;
    private final int[] outs = new int[SAMPLES];
    private final int[] classes = new int[SAMPLES];
    private final double[] latencies = new double[SAMPLES];
    /** Of a verdict: the calls with more out took this much longer... */
    private double rise = Double.NaN;
    /** ...with this many out on average against {@link #fewOut}. */
    private double manyOut = Double.NaN;
    private double fewOut = Double.NaN;

    /** An answer carried rate-limit headers (a 429 with them counts). */
    public void headers() {
        headersSeen = true;
        engine = false;
    }

    /**
     * A call charged {@code tokens}, sent while {@code outAtSend} calls were out (itself included),
     * was answered after {@code latencyMs}, without rate-limit headers.
     */
    public void answered(int outAtSend, long tokens, long latencyMs) {
        if (headersSeen) {
            return;
        }
        int i = (int) (headerless++ % SAMPLES);
        outs[i] = outAtSend;
        classes[i] = LatencyLimit.sizeClass(tokens);
        latencies[i] = Math.max(1, latencyMs);
        mostOut = Math.max(mostOut, outAtSend);
        if (!engine && headerless >= MIN_ANSWERS) {
            engine = rises();
        }
    }

    /** Whether the route looks like a self-hosted engine: no rate-limit headers, latency rising with calls in flight. */
    public boolean looksLikeEngine() {
        return engine;
    }

    /** Whether an answer has carried rate-limit headers. */
    public boolean headersSeen() {
        return headersSeen;
    }

    /** {@link #cap(long)} once something has been answered. */
    public int cap() {
        return cap(0);
    }

    /**
     * The calls that may be out while nothing is known (see the class comment), the oldest call
     * still out having waited {@code oldestOutstandingMs}; no cap once it is known.
     */
    public int cap(long oldestOutstandingMs) {
        if (headersSeen || engine) {
            return Integer.MAX_VALUE;
        }
        if (headerless == 0) {
            // no answer yet, the round trip unknown: doubling each second the first calls wait
            return (int) Math.min(Integer.MAX_VALUE, INITIAL_CAP * Math.pow(2, Math.min(30, Math.max(0, oldestOutstandingMs) / 1000.0)));
        }
        return Math.max(INITIAL_CAP, 2 * mostOut);
    }

    /** What the verdict rests on, for the operator: how much longer the calls with more out took, and how many were out. */
    public String evidence() {
        return String.format(java.util.Locale.ROOT, "calls sent with %.0f out took %.1f× as long as those sent with %.0f",
                manyOut, rise, fewOut);
    }

    private boolean rises() {
        int n = (int) Math.min(headerless, SAMPLES);
        double[] quickest = new double[LatencyLimit.CLASSES];
        Arrays.fill(quickest, Double.MAX_VALUE);
        for (int i = 0; i < n; i++) {
            quickest[classes[i]] = Math.min(quickest[classes[i]], latencies[i]);
        }
        int[] sorted = Arrays.copyOf(outs, n);
        Arrays.sort(sorted);
        int median = sorted[(n - 1) / 2];
        double lowOut = 0;
        double lowLatency = 0;
        int low = 0;
        double highOut = 0;
        double highLatency = 0;
        int high = 0;
        for (int i = 0; i < n; i++) {
            double relative = latencies[i] / quickest[classes[i]];
            if (outs[i] <= median) {
                lowOut += outs[i];
                lowLatency += relative;
                low++;
            } else {
                highOut += outs[i];
                highLatency += relative;
                high++;
            }
        }
        if (high == 0 || low == 0) {
            return false;
        }
        fewOut = lowOut / low;
        manyOut = highOut / high;
        rise = (highLatency / high) / (lowLatency / low);
        return manyOut >= SPREAD * fewOut && rise >= RISE;
    }
}

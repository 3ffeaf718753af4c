package io.quotaflow.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What an {@link EngineMode engine} runs now: the calls admitted and not yet answered, and a log of
 * the calls it ran and refused (the most recent {@value #LOG_LIMIT} of each). Thread-safe: handler
 * threads admit, the answer timer finishes.
 */
final class EngineLoad {

    /** The most calls and refusals each log keeps. */
    static final int LOG_LIMIT = 200_000;

    private final EngineMode mode;
    /** Guarded by itself. */
    private final List<EngineCall> calls = new ArrayList<>();
    /** Guarded by itself: when each refusal happened, in ms since the simulator's start. */
    private final List<Long> refusals = new ArrayList<>();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();

    EngineLoad(EngineMode mode) {
        this.mode = mode;
    }

    EngineMode mode() {
        return mode;
    }

    /**
     * Starts one more call: the number running with it, or 0 when {@link EngineMode#maxRunning()}
     * already run (the call is refused and not counted).
     */
    int tryStart() {
        while (true) {
            int now = running.get();
            if (now >= mode.maxRunning()) {
                return 0;
            }
            if (running.compareAndSet(now, now + 1)) {
                peak.accumulateAndGet(now + 1, Math::max);
                return now + 1;
            }
        }
    }

    /** Logs a call started {@code atMs} after the simulator's start with {@code running} running, answered after {@code latencyMs}. */
    void log(long atMs, int running, long latencyMs) {
        synchronized (calls) {
            if (calls.size() < LOG_LIMIT) {
                calls.add(new EngineCall(atMs, running, latencyMs));
            }
        }
    }

    /** Logs a refusal {@code atMs} after the simulator's start. */
    void refused(long atMs) {
        synchronized (refusals) {
            if (refusals.size() < LOG_LIMIT) {
                refusals.add(atMs);
            }
        }
    }

    List<EngineCall> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    List<Long> refusals() {
        synchronized (refusals) {
            return List.copyOf(refusals);
        }
    }

    /** Forgets the logs (the peak too). */
    void clear() {
        synchronized (calls) {
            calls.clear();
        }
        synchronized (refusals) {
            refusals.clear();
        }
        peak.set(running.get());
    }

    /** A started call was answered (or dropped). */
    void finish() {
        running.decrementAndGet();
    }

    int running() {
        return running.get();
    }

    /** The most calls that ran at once. */
    int peak() {
        return peak.get();
    }
}

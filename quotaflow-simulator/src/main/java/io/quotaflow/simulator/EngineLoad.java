package io.quotaflow.simulator;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What an {@link EngineMode engine} runs now: the calls admitted and not yet answered. Thread-safe:
 * handler threads admit, the answer timer finishes.
 */
final class EngineLoad {

    private final EngineMode mode;
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

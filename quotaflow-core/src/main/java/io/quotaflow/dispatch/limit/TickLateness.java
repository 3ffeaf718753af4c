package io.quotaflow.dispatch.limit;

/**
 * How late the dispatcher's ticks come, so that a batch leaves room for the refill of a late one. The limiter admits a
 * batch once its bucket holds the batch's cost above the floor; a batch sized to everything the bucket may hold above
 * the floor ({@code QuotaLimiter.maxRegularCost}) is admitted only when the bucket is within a few milliseconds of full
 * (about 70 ms at 60 000 TPM with the defaults), and a tick later than that finds it full and the refill meanwhile lost.
 * On a busy machine (commits, collections, other processes on the same cores) ticks come 100–300 ms late now and then: a
 * key under a configured limit then runs at 94 % instead of 95 % of what it may (a test-driver pipeline with ticks 200 ms
 * apart). So {@link ProviderModel#promptTokenCap} sizes batches to leave the refill of the latest recent lateness free.
 *
 * <p>The lateness is the largest seen, each tick's beyond the configured interval, halving every {@value #HALF_LIFE_MS} ms
 * and never more than {@value #MAX_MS} ms (a suspended machine's tick says nothing of the next): four numbers, on the
 * stream thread's clock. Owned by one scope's dispatcher; not thread-safe.
 */
final class TickLateness {

    static final long HALF_LIFE_MS = 30_000;
    static final long MAX_MS = 500;

    private final long intervalMs;
    private long lastTickMs = Long.MIN_VALUE;
    private double lateMs;
    private long lateAtMs;

    /** @param intervalMs the ticks' configured interval ({@code batch.punctuate-ms}) */
    TickLateness(long intervalMs) {
        this.intervalMs = intervalMs;
    }

    /**
     * A tick at {@code nowMs} (epoch ms, the punctuator's clock). A clock that went back (a wall-clock step) starts over:
     * what was seen before it is forgotten.
     */
    void tick(long nowMs) {
        if (lastTickMs != Long.MIN_VALUE && nowMs < lastTickMs) {
            lateMs = 0;
        } else if (lastTickMs != Long.MIN_VALUE) {
            double late = Math.min(MAX_MS, Math.max(0, nowMs - lastTickMs - intervalMs));
            lateMs = Math.max(decayedAt(nowMs), late);
            lateAtMs = nowMs;
        }
        lastTickMs = nowMs;
    }

    /**
     * The recent lateness as of the last tick, in ms: the largest seen, decayed. Read on the ticks' own clock, so a step
     * of another clock (the limiter's is monotonic) neither holds it up nor drops it.
     */
    double lateMs() {
        return decayedAt(lastTickMs);
    }

    private double decayedAt(long nowMs) {
        if (lateMs <= 0) {
            return 0;
        }
        return lateMs * Math.pow(0.5, Math.max(0, nowMs - lateAtMs) / (double) HALF_LIFE_MS);
    }
}

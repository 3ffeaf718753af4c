package io.quotaflow.simulator;

/**
 * How the simulator's Batch API treats the jobs created from now on ({@code POST /admin/batches},
 * docs/simulator.md): it can disagree with the client about its limits and fail in the ways a real
 * provider does.
 *
 * @param delayMs        how long a job runs before it ends
 * @param expireAfter    with {@code >= 0}, an expiring job answers that many lines, then {@code expired}
 * @param expireEvery    which jobs expire (every n-th; 1: all) when {@code expireAfter >= 0}
 * @param failEvery      every n-th job {@code failed} as a whole ({@code server_error}); 0: none
 * @param malformedEvery every n-th output line is written broken (not JSON); 0: none
 * @param vanishEvery    every n-th job's status is 404 forever, and it is not listed; 0: none
 * @param enqueuedLimit  the enqueued-token limit: a job that would pass it {@code failed} with
 *                       {@code token_limit_exceeded}; 0: none
 * @param countFactor    how the simulator counts a job against that limit: this factor times (its tokens of every
 *                       line's messages plus its {@code max_tokens}), also reported as {@code usage.input_tokens}
 */
public record BatchBehaviour(long delayMs, int expireAfter, int expireEvery, int failEvery, int malformedEvery, int vanishEvery,
                             long enqueuedLimit, double countFactor) {

    /** Jobs that take {@link SimBatches#DEFAULT_DELAY_MS} and complete, under no limit. */
    public static final BatchBehaviour DEFAULT = new BatchBehaviour(SimBatches.DEFAULT_DELAY_MS, -1, 1, 0, 0, 0, 0, 1);

    public BatchBehaviour {
        delayMs = Math.max(0, delayMs);
        expireEvery = Math.max(1, expireEvery);
        failEvery = Math.max(0, failEvery);
        malformedEvery = Math.max(0, malformedEvery);
        vanishEvery = Math.max(0, vanishEvery);
        enqueuedLimit = Math.max(0, enqueuedLimit);
        if (!Double.isFinite(countFactor) || countFactor <= 0) {
            throw new IllegalArgumentException("countFactor must be above 0");
        }
    }

    public BatchBehaviour withDelay(long ms) {
        return new BatchBehaviour(ms, expireAfter, expireEvery, failEvery, malformedEvery, vanishEvery, enqueuedLimit, countFactor);
    }

    /** Every {@code every}-th job answers {@code after} lines, then expires. */
    public BatchBehaviour withExpiry(int after, int every) {
        return new BatchBehaviour(delayMs, after, every, failEvery, malformedEvery, vanishEvery, enqueuedLimit, countFactor);
    }

    public BatchBehaviour withFailEvery(int n) {
        return new BatchBehaviour(delayMs, expireAfter, expireEvery, n, malformedEvery, vanishEvery, enqueuedLimit, countFactor);
    }

    public BatchBehaviour withMalformedEvery(int n) {
        return new BatchBehaviour(delayMs, expireAfter, expireEvery, failEvery, n, vanishEvery, enqueuedLimit, countFactor);
    }

    public BatchBehaviour withVanishEvery(int n) {
        return new BatchBehaviour(delayMs, expireAfter, expireEvery, failEvery, malformedEvery, n, enqueuedLimit, countFactor);
    }

    /** An enqueued-token limit of {@code limit}, counted at {@code factor} times the simulator's own count. */
    public BatchBehaviour withEnqueuedLimit(long limit, double factor) {
        return new BatchBehaviour(delayMs, expireAfter, expireEvery, failEvery, malformedEvery, vanishEvery, limit, factor);
    }

    /** Whether the {@code n}-th job (from 1) is picked by {@code every} (0: none). */
    static boolean picked(long n, int every) {
        return every > 0 && n % every == 0;
    }
}

package io.quotaflow.quota;

/**
 * What a scope's next owner takes over from the last one (a changelogged store, written as it
 * changes): when the scope last admitted a call, from which the new owner credits the provider's
 * refill since ({@link QuotaLimiter#takeOver}), and, with daily limits, the day's usage, so a
 * restart or a moved task does not start the day at zero.
 *
 * <p>It also carries whether the provider's answers ever showed rate-limit headers ({@code rateLimitHeaders}): a scope
 * is its base URL, key and model, so a next owner that finds it set knows the route is a provider with a quota, not a
 * self-hosted engine, and starts without {@link EngineSignals}' guard on the calls out before the first answer
 * (a record written before the field existed reads false: the guard applies, as it did).
 *
 * <p>And the per-minute limits in force ({@code requestLimit}, {@code tokenLimit}): a route whose limits are learned from
 * the headers starts at its defaults (500 RPM, 200 000 TPM), so a next owner that skips the guard would spend two
 * seconds of those before its first answer said the key's; it adopts the recorded ones instead, and without them
 * credits no refill to a limit not learned ({@link QuotaLimiter#takeOver}). A record written before the fields existed
 * reads 0: not known.
 *
 * @param lastAdmittedMs   when the scope last admitted a call (epoch milliseconds; 0: never)
 * @param day              the budget day's usage; null without daily limits
 * @param rateLimitHeaders an answer on this scope has carried rate-limit headers
 * @param requestLimit     requests per minute in force when written (0: not known, or no request limit)
 * @param tokenLimit       tokens per minute in force when written (0: not known, or no token limit)
 */
public record ScopeUsage(long lastAdmittedMs, DailyUsage day, boolean rateLimitHeaders, long requestLimit, long tokenLimit) {

    /** A record that says nothing of rate-limit headers. */
    public ScopeUsage(long lastAdmittedMs, DailyUsage day) {
        this(lastAdmittedMs, day, false);
    }

    /** A record that says nothing of the limits in force. */
    public ScopeUsage(long lastAdmittedMs, DailyUsage day, boolean rateLimitHeaders) {
        this(lastAdmittedMs, day, rateLimitHeaders, 0, 0);
    }

    /** The per-minute limit of {@code dimension} in force when written; 0 when not known (input and output: never recorded). */
    public long limit(QuotaDimension dimension) {
        return switch (dimension) {
            case REQUESTS -> requestLimit;
            case TOKENS -> tokenLimit;
            default -> 0;
        };
    }

    /** How far two instances' clocks may differ when one reads the time the other recorded ({@link #inheritedUntil}). */
    static final long CLOCK_MARGIN_NANOS = java.time.Duration.ofSeconds(1).toNanos();
    private static final long NANOS_PER_MILLI = 1_000_000L;

    /**
     * Until when a previous owner's calls found still out ({@link QuotaLimiter#inherit}) may be missing from the
     * provider's headers: its usage record ({@code previous}) is committed with its calls, so each was
     * sent at or before the record's last admission, and reached the provider within a transit of it
     * ({@link TransitBound#MAX_NANOS}; {@link #CLOCK_MARGIN_NANOS} more for the two owners'
     * clocks). After that the provider counts them as surely as our own calls sent that long before an
     * answer. Without a record they count until the request timeout ({@code timeoutNanos} from now).
     * Counted that long after a crash, they would hold the moved scope near 60 % of its key for that
     * minute: every re-seed would lower the level by calls the provider charged long ago, so its
     * bucket would sit full and lose its refill.
     */
    public static long inheritedUntil(ScopeUsage previous, long nowNanos, long timeoutNanos) {
        long timeout = nowNanos + timeoutNanos;
        if (previous == null || previous.lastAdmittedMs() <= 0) {
            return timeout;
        }
        return Math.min(timeout, previous.lastAdmittedMs() * NANOS_PER_MILLI + TransitBound.MAX_NANOS + CLOCK_MARGIN_NANOS);
    }
}

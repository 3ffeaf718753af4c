package io.quotaflow.settings;

/**
 * A route's optional daily limits ({@code route.<name>.rpd}, {@code .tpd}), reset every day at
 * {@code resetHourUtc}:00 UTC ({@code route.<name>.daily-reset-hour-utc}). {@link #NONE} when not configured.
 *
 * @param rpd          requests per day, 0 for none
 * @param tpd          tokens per day, 0 for none
 * @param resetHourUtc hour of the day (UTC) at which both budgets start again, [0, 23]
 */
public record DailyLimits(long rpd, long tpd, int resetHourUtc) {

    /** No daily limit. */
    public static final DailyLimits NONE = new DailyLimits(0, 0, 0);

    public DailyLimits {
        QuotaSettings.require(rpd >= 0, "rpd must be >= 0 (0: no daily request limit)");
        QuotaSettings.require(tpd >= 0, "tpd must be >= 0 (0: no daily token limit)");
        QuotaSettings.require(resetHourUtc >= 0 && resetHourUtc <= 23, "daily-reset-hour-utc must be in [0, 23]");
    }

    /** Whether either daily limit is set. */
    public boolean configured() {
        return rpd > 0 || tpd > 0;
    }
}

package io.quotaflow.batch;

import java.util.Locale;

/**
 * A batch job's status as the provider reports it ({@code validating}, {@code failed},
 * {@code in_progress}, {@code finalizing}, {@code completed}, {@code expired}, {@code cancelling},
 * {@code cancelled}), with what the dispatcher does about each.
 */
public enum BatchStatus {
    VALIDATING, FAILED, IN_PROGRESS, FINALIZING, COMPLETED, EXPIRED, CANCELLING, CANCELLED,
    /** A status this build does not know (or none): not finished, but only within the job's window (BatchCaller). */
    UNKNOWN;

    /** The status of wire name {@code value}; {@link #UNKNOWN} for one this build does not know. */
    public static BatchStatus of(String value) {
        if (value == null) {
            return UNKNOWN;
        }
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return UNKNOWN;
        }
    }

    /** Wire name: {@code in_progress}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The job will not change any more: its files are final (or, {@link #FAILED}, it has none). */
    public boolean terminal() {
        return this == FAILED || this == COMPLETED || this == EXPIRED || this == CANCELLED;
    }

    /** Requests the job did not get to are unfinished: they go to another route, not to the failure policy. */
    public boolean leavesUnfinished() {
        return this == EXPIRED || this == CANCELLED;
    }
}

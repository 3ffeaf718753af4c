package io.quotaflow.dispatch.report;

/**
 * One tenant as {@code /status} shows it: tickets waiting, its share (0..1) of the tokens admitted
 * over the last minute, and whether its own cap holds it now.
 */
public record TenantState(int depth, double share, boolean capped) {

    /** The label of the tenants beyond the {@link #MAX_TENANTS} deepest, summed. */
    public static final String OTHER = "other";

    /** The most tenants named in a snapshot (and so in the metrics' labels); the rest are {@link #OTHER}. */
    public static final int MAX_TENANTS = 50;
}

package io.quotaflow.settings;

import java.util.Map;
import java.util.TreeMap;

/**
 * How fast the others take over from an instance that died without leaving the group (a crash, a
 * SIGKILL, a lost host). Its tasks, and with them its quota scopes, move once its session has
 * expired (Kafka's {@code session.timeout.ms}, with {@code heartbeat.interval.ms}); a moved task
 * then restores its stores from their changelogs, which the dead instance's open transaction holds
 * until the transaction coordinator aborts it ({@code transaction.timeout.ms} after it began, at
 * the coordinator's next scan for timed-out transactions). An instance restarted within its
 * session (same {@code instance.id}) keeps its tasks without a rebalance.
 *
 * <p>Kafka's defaults (45 s, 3 s; Kafka Streams' 10 s transactions) left a dead instance's scopes
 * idle for 47–52 s in the failover benchmark, the defaults below for 10.0 s on average (9.0–11.9 s;
 * with 1 s heartbeats 10.5 s, 8.4–13.3 s: the session expires sooner after the last heartbeat, and
 * the survivors hear of each of the cooperative rebalance's rounds sooner; docs/benchmark.md,
 * "Failover"). The price of shorter ones: a restart slower than the session moves the tasks away
 * and, later, back; a stall of the heartbeat thread longer than the session, or of a commit longer
 * than the transaction timeout (a very long GC pause, a host starved of CPU), is taken for a death.
 * Heartbeats every 500 ms cost one request per consumer each time, against the group coordinator.
 *
 * @param sessionTimeoutMs     {@code session.timeout.ms}
 * @param heartbeatIntervalMs  {@code heartbeat.interval.ms}
 * @param transactionTimeoutMs {@code transaction.timeout.ms} of the Streams producers
 */
public record GroupMembership(int sessionTimeoutMs, int heartbeatIntervalMs, int transactionTimeoutMs) {

    public static final int DEFAULT_SESSION_TIMEOUT_MS = 6_000;
    public static final int DEFAULT_HEARTBEAT_INTERVAL_MS = 500;
    public static final int DEFAULT_TRANSACTION_TIMEOUT_MS = 5_000;

    public GroupMembership {
        QuotaSettings.require(sessionTimeoutMs > 0, "instance.session-timeout-ms must be > 0");
        QuotaSettings.require(heartbeatIntervalMs > 0 && heartbeatIntervalMs < sessionTimeoutMs,
                "instance.heartbeat-interval-ms must be > 0 and below instance.session-timeout-ms");
        QuotaSettings.require(transactionTimeoutMs >= 1_000, "instance.transaction-timeout-ms must be >= 1000");
    }

    public static GroupMembership ofDefaults() {
        return new GroupMembership(DEFAULT_SESSION_TIMEOUT_MS, DEFAULT_HEARTBEAT_INTERVAL_MS, DEFAULT_TRANSACTION_TIMEOUT_MS);
    }

    /**
     * {@code kafka} with these settings added where it does not set them itself (a {@code kafka.*}
     * key wins). Under the streams rebalance protocol ({@code group.protocol=streams}) the broker's
     * streams-group settings govern the session and the heartbeats, and only the transaction
     * timeout is added.
     */
    public Map<String, String> applyTo(Map<String, String> kafka) {
        Map<String, String> out = new TreeMap<>(kafka);
        out.putIfAbsent("transaction.timeout.ms", Integer.toString(transactionTimeoutMs));
        if ("streams".equalsIgnoreCase(String.valueOf(kafka.get("group.protocol")).strip())) {
            return out;
        }
        out.putIfAbsent("session.timeout.ms", Integer.toString(sessionTimeoutMs));
        out.putIfAbsent("heartbeat.interval.ms", Integer.toString(heartbeatIntervalMs));
        return out;
    }
}
